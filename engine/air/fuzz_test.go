package air

import (
	"errors"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// fuzzApply feeds one input to a copy of g: it must not panic, and a
// rejection must be an illegal-input error that changes nothing.
func fuzzApply(t *testing.T, g *Game, in engine.Input) {
	c := g.clone()
	h := c.Hash()
	if _, err := c.Apply(in); err != nil {
		if !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("error does not wrap ErrIllegal: %v", err)
		}
		if c.Hash() != h {
			t.Fatalf("rejected input changed the state: %v", err)
		}
	}
}

// FuzzMove decodes and applies arbitrary move bytes in a turn with a
// wingman card, a disruption card and an F-35 awaiting its +1.
func FuzzMove(f *testing.F) {
	for _, m := range []Move{PlainMove(ActMove), PlainMove(ActEnd), FireMove(Missile, 2), FireMove(Cannon, 3), DisruptMove(2), WingmanMove(Pos{4, 1}), BonusMove(true)} {
		f.Add(m.Encode())
	}
	f.Add([]byte(`{"action":"fire","weapon":"missile","target":-1}`))
	f.Add([]byte(`{"action":"wingman","to":{"x":99,"y":-3}}`))
	var wing, disrupt int
	for _, c := range NavCards {
		if c.Kind == Wingman && wing == 0 {
			wing = c.Number
		}
		if c.Kind == Disruption && disrupt == 0 {
			disrupt = c.Number
		}
	}
	games := []*Game{turnGame(f, 2, VariantStandard, 1, wing), turnGame(f, 4, VariantTeam, 1, disrupt)}
	bonus := turnGame(f, 2, VariantStandard, 0, 1)
	bonus.pend = pending{kind: pendBonus, plane: 0, total: 3, own: true}
	games = append(games, bonus)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, g := range games {
			if _, err := g.MustOpen(0, b); err != nil && !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("MustOpen: %v", err)
			}
			fuzzApply(t, g, engine.Input{Kind: engine.NeedMove, Seat: 0, Move: b})
		}
	})
}

// FuzzChoice applies arbitrary choice bytes for seat 0 of a round.
func FuzzChoice(f *testing.F) {
	r := newReferee(f, 2, VariantStandard, 4, randomAgents(2, 4))
	for r.Game.Next().Kind != engine.NeedChoice {
		if _, err := r.Step(); err != nil {
			f.Fatal(err)
		}
	}
	in, err := r.Input()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(in.Choices[0])
	f.Add([]byte(`{"cards":[{"plane":0,"deck":1,"pos":0},{"plane":1,"deck":1,"pos":0}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzApply(t, r.Game, engine.Input{Kind: engine.NeedChoice, Seat: engine.NoSeat, Choices: [][]byte{b, in.Choices[1]}})
	})
}

// FuzzOpenValue applies arbitrary leaf values (card numbers) to the
// opening of chosen cards.
func FuzzOpenValue(f *testing.F) {
	r := newReferee(f, 2, VariantStandard, 5, randomAgents(2, 5))
	for r.Game.Next().Kind != engine.NeedOpen {
		if _, err := r.Step(); err != nil {
			f.Fatal(err)
		}
	}
	in, err := r.Input()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(in.Opened[0].Value, in.Opened[1].Value)
	f.Add([]byte{}, []byte{0, 1})
	f.Fuzz(func(t *testing.T, a, b []byte) {
		op := []engine.Opened{{Slot: in.Opened[0].Slot, Value: a}, {Slot: in.Opened[1].Slot, Value: b}}
		fuzzApply(t, r.Game, engine.Input{Kind: engine.NeedOpen, Seat: in.Seat, Opened: op})
	})
}
