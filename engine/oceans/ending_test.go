package oceans

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// arctic plays a match in which seat 0 (player #1) stacks five cards in the
// Arctic, where seat 1 never goes, so that it must attack there; seat 1
// plays the leaves in play1 facedown to the North Atlantic. If preset, seat 0
// already controls the Pacific and the Indian Ocean. deck1 is seat 1's
// committed deck. It returns the harness when seat 0 must attack.
func arctic(t *testing.T, deck1 [][]byte, hand1 []int, play1 [2]int, preset bool) *harness {
	t.Helper()
	h := newHarness(t, 1, nil, nil)
	h.mustApply(h.commitInput(0, sortedLeaves()))
	h.mustApply(h.commitInput(1, deck1))
	if preset {
		h.Game.control[Pacific], h.Game.control[Indian] = 0, 0
	}
	h.mustApply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0}})
	h.draw(L(Battleship, 0), L(Battleship, 1), L(Carrier, 0), L(Fighter, 0), L(Fighter, 1), L(Destroyer, 0))
	h.draw(hand1...)
	h.do(0, Move{Kind: Deploy, Leaf: L(Battleship, 0), Ocean: Arctic})
	h.do(1, Move{Kind: Deploy, Leaf: hand1[0], Ocean: NorthAtlantic})
	h.do(0, Move{Kind: Deploy, Leaf: L(Battleship, 1), Ocean: Arctic})
	h.do(1, Move{Kind: Deploy, Leaf: hand1[1], Ocean: NorthAtlantic})
	h.do(0, Move{Kind: Deploy, Leaf: L(Carrier, 0), Ocean: Arctic})
	h.draw(L(Fighter, 2), L(Fighter, 3))
	h.do(1, Move{Kind: Place, Leaf: play1[0], Ocean: NorthAtlantic})
	h.do(1, Move{Kind: Place, Leaf: play1[1], Ocean: NorthAtlantic})
	h.draw(L(Fighter, 2), L(Fighter, 3))
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: Arctic})
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: Arctic})
	h.draw(L(Fighter, 4), L(Fighter, 5))
	h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 2)})
	h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 3)})
	h.draw(L(Fighter, 4), L(Fighter, 5))
	h.do(0, Move{Kind: Discard, Leaf: L(Destroyer, 0)})
	return h
}

// honestArctic is arctic with an honest seat 1.
func honestArctic(t *testing.T, preset bool) *harness {
	return arctic(t, sortedLeaves(), []int{L(Battleship, 0), L(Battleship, 1), L(Carrier, 0), L(Submarine, 0), L(Minefield, 0)},
		[2]int{L(Submarine, 0), L(Minefield, 0)}, preset)
}

func TestForcedAttackOnEmptyOcean(t *testing.T) {
	h := honestArctic(t, false)
	if got := h.Game.AttackOceans(0); len(got) != 1 || got[0] != Arctic {
		t.Fatalf("forced attack oceans %v, want only the Arctic", got)
	}
	wantIllegal(t, h.try(0, Move{Kind: Attack, Ocean: NorthAtlantic}), "no task force in the North Atlantic")
	h.do(0, Move{Kind: Attack, Ocean: Arctic})
	n := needIs(t, h.Game, engine.NeedOpen, 0)
	if len(n.Open) != 2 {
		t.Fatalf("attacker opens %v, want its two facedown Fighters", n.Open)
	}
	ev := h.open() // seat 1 has nothing there: no opening, the battle ends
	if h.Game.Controller(Arctic) != 0 {
		t.Fatalf("Arctic controlled by %s; events %+v", h.Game.Controller(Arctic), ev)
	}
	if !strings.Contains(ev[len(ev)-1].Text, "attacker 16, defender 0") {
		t.Fatalf("last event %q", ev[len(ev)-1].Text)
	}
	needIs(t, h.Game, engine.NeedRandom, 1)
}

func TestThreeOceansWin(t *testing.T) {
	h := honestArctic(t, true)
	h.do(0, Move{Kind: Attack, Ocean: Arctic})
	h.open()
	if h.Game.Outcome().Done {
		t.Fatal("match done before the final reveal")
	}
	n := needIs(t, h.Game, engine.NeedOpen, 0)
	if len(n.Open) != DeckSize-len(h.Game.Discards(0)) {
		t.Fatalf("seat 0 opens %d leaves at the end", len(n.Open))
	}
	h.open()
	needIs(t, h.Game, engine.NeedOpen, 1)
	h.open()
	out := h.Game.Outcome()
	if !out.Done || len(out.Winners) != 1 || out.Winners[0] != 0 || !strings.Contains(out.Reason, "3 oceans") {
		t.Fatalf("outcome %+v", out)
	}
	if h.Game.Next().Kind != engine.NeedNone {
		t.Fatal("match still needs input")
	}
	wantIllegal(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1}), "over")
}

func TestDeckRunsOut(t *testing.T) {
	t.Run("most oceans wins; a tie loses for the seat whose deck ran out", func(t *testing.T) {
		cases := []struct {
			name         string
			ranOut       engine.Seat
			mine, theirs int
			winner       engine.Seat
		}{
			{"ran out ahead", 0, 2, 1, 0},
			{"ran out behind", 0, 0, 1, 1},
			{"ran out tied", 0, 1, 1, 1},
			{"ran out tied at zero", 1, 0, 0, 0},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				g, _ := New(engine.Setup{Seats: 2})
				g.phase, g.turn, g.lastTurn = PhasePlay, tc.ranOut, true
				for i := range tc.mine {
					g.control[i] = tc.ranOut
				}
				for i := range tc.theirs {
					g.control[NumOceans-1-i] = other(tc.ranOut)
				}
				g.endTurn(nil)
				if g.phase != PhaseFinal || len(g.result.Winners) != 1 || g.result.Winners[0] != tc.winner {
					t.Fatalf("phase %s, result %+v, want %s to win", g.phase, g.result, tc.winner)
				}
			})
		}
	})
	t.Run("a match without battles ends after player #1 draws its last card", func(t *testing.T) {
		discarder := agentFunc(func(g *Game, seat engine.Seat, moves []Move) Move {
			for _, m := range moves {
				if m.Kind == Discard && len(m.Targets) == 0 {
					return m
				}
			}
			return moves[0]
		})
		h := newHarness(t, 3, discarder, discarder)
		randomDraws := 0
		for h.Game.Next().Kind != engine.NeedNone {
			n := h.Game.Next()
			if n.Kind == engine.NeedRandom && n.Seat != engine.NoSeat && h.Game.phase == PhaseDraw {
				randomDraws++
				if h.Game.DeckLeft(n.Seat) <= DrawPerTurn {
					t.Fatalf("a random draw from a deck of %d", h.Game.DeckLeft(n.Seat))
				}
			}
			if _, err := h.Step(); err != nil {
				t.Fatal(err)
			}
		}
		first := h.Game.First()
		out := h.Game.Outcome()
		if h.Game.DeckLeft(first) != 0 || h.Game.DeckLeft(other(first)) != 1 {
			t.Fatalf("decks left %d (player #1) and %d", h.Game.DeckLeft(first), h.Game.DeckLeft(other(first)))
		}
		if randomDraws != 15+14 {
			t.Fatalf("%d random draws, want 29 (the last draw of player #1 is forced)", randomDraws)
		}
		if len(out.Winners) != 1 || out.Winners[0] != other(first) || !strings.Contains(out.Reason, "deck ran out") {
			t.Fatalf("outcome %+v, want player #2 to win the 0-0 tie", out)
		}
	})
}

// agentFunc is a scripted agent that picks among the legal moves.
type agentFunc func(g *Game, seat engine.Seat, moves []Move) Move

// Decide implements engine.Agent.
func (f agentFunc) Decide(_ context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if n.Kind == engine.NeedCommit {
		return shuffledDeck(rand.New(rand.NewPCG(uint64(seat), 0))), nil
	}
	g := eg.(*Game)
	moves, err := g.Moves(seat, sec)
	if err != nil {
		return engine.Decision{}, err
	}
	return engine.Decision{Move: f(g, seat, moves).Encode()}, nil
}
