package sea

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

func FuzzDecodeMove(f *testing.F) {
	seedCell := mustCell(f, "C7")
	for _, m := range []Move{
		PlaceMove(PieceCarrier, seedCell, South), PlaceMove(PieceShallow, seedCell, North),
		HarpoonMove(3), PathMove(cells(f, "C7", "D8")), ReturnMove([]int{1, 2}),
		ScrambleMove([]Flight{{Fighter: 1, Die: 2, Path: cells(f, "D5", "D6")}}),
		DestroyerMove(1, cells(f, "F5")), FireMove(0, Target{Kind: TargetCarrier}), DoneMove(),
		RemoveMove([]int{0}), FighterMove(4), SidewinderPlus(), SidewinderReroll(2), LaunchMove(5),
	} {
		f.Add(m.Encode())
	}
	f.Add([]byte(`{"kind":"path","path":["A1","L16","M3"]}`))
	f.Add([]byte(`{"kind":"place","cell":7}`))
	f.Add([]byte(`{"kind":"place","facing":"XX"}`))
	f.Add([]byte(`{}{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMove(b)
		if err != nil {
			return
		}
		again, err := DecodeMove(m.Encode())
		if err != nil {
			t.Fatalf("re-encoded move %s does not decode: %v", m.Encode(), err)
		}
		if !bytes.Equal(again.Encode(), m.Encode()) {
			t.Fatalf("round trip changed %s to %s", m.Encode(), again.Encode())
		}
		for _, c := range m.Path {
			if !c.Valid() {
				t.Fatalf("decoded an invalid cell %d", c)
			}
		}
	})
}

func FuzzDecodeLeaves(f *testing.F) {
	for _, b := range []string{"2", "3", "4", "S", "H", "", "5", "22", "\x00", "h"} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := DecodeStrength(b); err == nil {
			if s < MinStrength || s > MaxStrength || !bytes.Equal(EncodeStrength(s), b) {
				t.Fatalf("strength %q decoded to %d", b, s)
			}
		}
		if m, err := DecodeMissile(b); err == nil {
			if (m != Sidewinder && m != Harpoon) || !bytes.Equal(EncodeMissile(m), b) {
				t.Fatalf("missile %q decoded to %v", b, m)
			}
		}
	})
}

func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"A1", "L16", "C07", "Z1", "A", "A100"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCell(s)
		if err != nil {
			return
		}
		if !c.Valid() || c.String() != s {
			t.Fatalf("ParseCell(%q) = %v", s, c)
		}
	})
}

// fuzzGames are matches stopped at many different needs, for FuzzApply.
var fuzzGames []*Game

func fuzzStates(tb testing.TB) []*Game {
	if fuzzGames != nil {
		return fuzzGames
	}
	seed := uint64(3)
	h := newHarness(tb, seed, NewStrongBot(rand.New(rand.NewPCG(seed, 1))), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
	seen := map[string]bool{}
	for h.Game.Next().Kind != engine.NeedNone {
		n := h.Game.Next()
		key := n.Kind.String() + n.Name
		if !seen[key] {
			seen[key] = true
			fuzzGames = append(fuzzGames, h.Game.clone())
		}
		if _, err := h.Step(); err != nil {
			tb.Fatal(err)
		}
	}
	return fuzzGames
}

// FuzzApply feeds arbitrary move bytes and openings to matches at many
// different needs: Apply must never panic, and a refused input must leave
// the state unchanged.
func FuzzApply(f *testing.F) {
	f.Add(uint8(0), uint8(0), []byte(`{"kind":"done"}`), []byte("H"))
	f.Add(uint8(3), uint8(1), ScrambleMove([]Flight{{Fighter: 1, Die: 0, Path: cells(f, "D5")}}).Encode(), []byte("S"))
	f.Add(uint8(7), uint8(0), LaunchMove(1).Encode(), []byte("H"))
	f.Add(uint8(9), uint8(1), SidewinderReroll(1).Encode(), []byte("S"))
	f.Add(uint8(2), uint8(0), []byte(`{"kind":"fire","destroyer":1,"target":{"kind":"harpoon","index":99}}`), []byte("3"))
	f.Fuzz(func(t *testing.T, which, seat uint8, move, value []byte) {
		states := fuzzStates(t)
		g := states[int(which)%len(states)].clone()
		before := g.Hash()
		s := engine.Seat(seat % 3)
		if seat%3 == 2 {
			s = engine.NoSeat
		}
		in := engine.Input{Kind: engine.NeedMove, Seat: s, Move: move}
		if slots, err := g.MustOpen(s, move); err == nil {
			for _, sl := range slots {
				in.Opened = append(in.Opened, engine.Opened{Slot: sl, Value: value})
			}
		}
		if _, err := g.Apply(in); err != nil && g.Hash() != before {
			t.Fatalf("refused input changed the state: %v", err)
		}
		g = states[int(which)%len(states)].clone()
		n := g.Next()
		if n.Kind == engine.NeedOpen {
			op := engine.Input{Kind: engine.NeedOpen, Seat: n.Seat}
			for _, sl := range n.Open {
				op.Opened = append(op.Opened, engine.Opened{Slot: sl, Value: value})
			}
			if _, err := g.Apply(op); err != nil && g.Hash() != before {
				t.Fatalf("refused opening changed the state: %v", err)
			}
		}
	})
}

// FuzzReadMove holds the move reader (DecodeMove's fast path) to the
// strict decoder it speeds up: the same move or the same error, for any
// bytes.
func FuzzReadMove(f *testing.F) {
	for _, b := range readMoveSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) { enginetest.SameAsDecodeMove(t, b, readMove) })
}

// honestMoves are moves of every kind as an honest peer encodes them.
func honestMoves(tb testing.TB) [][]byte {
	c := mustCell(tb, "C7")
	var out [][]byte
	for _, m := range []Move{
		PlaceMove(PieceCarrier, c, South), PlaceMove(PieceShallow, c, North),
		HarpoonMove(3), PathMove(cells(tb, "C7", "D8")), ReturnMove([]int{1, 2}), ReturnMove([]int{}),
		ScrambleMove([]Flight{{Fighter: 1, Die: 2, Path: cells(tb, "D5", "D6")}, {Fighter: 3}}),
		DestroyerMove(1, cells(tb, "F5")), FireMove(0, Target{Kind: TargetCarrier}), FireMove(1, Target{Kind: TargetHarpoon, Index: 4}),
		DoneMove(), RemoveMove([]int{0}), FighterMove(4), SidewinderPlus(), SidewinderReroll(2), LaunchMove(5),
	} {
		out = append(out, m.Encode())
	}
	return out
}

func readMoveSeeds(tb testing.TB) [][]byte {
	return append(enginetest.MoveReaderSeeds(honestMoves(tb)...), []byte(`{"kind":"path","path":["A1","L16","M3"]}`),
		[]byte(`{"kind":"place","cell":7}`), []byte(`{"kind":"place","facing":"XX"}`), []byte(`{"flights":[{"path":[]}]}`),
		[]byte(`{"target":{"kind":"carrier","kind":"x"}}`), []byte(`{"die":123456789012345678}`))
}

func TestReadMoveTakesHonestMoves(t *testing.T) {
	enginetest.CheckMoveReader(t, honestMoves(t), readMove)
}
