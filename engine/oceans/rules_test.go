package oceans

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// L is leafOf for short.
func L(c Card, n int) int { return leafOf(c, n) }

// base sets up a match with sorted decks, seat 0 as player #1, and deploys:
// seat 0 has Battleships in the North and South Atlantic and a Carrier in
// the Pacific (hand: Fighter, Submarine, Destroyer); seat 1 has Battleships
// in the North and South Atlantic (hand: Carrier, Submarine, PT Boat). Seat 1
// is about to draw.
func base(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, 1, nil, nil)
	h.setup(0,
		[]int{L(Battleship, 0), L(Battleship, 1), L(Carrier, 0), L(Fighter, 0), L(Submarine, 0), L(Destroyer, 0)},
		[]int{L(Battleship, 0), L(Battleship, 1), L(Carrier, 0), L(Submarine, 0), L(PTBoat, 0)})
	h.do(0, Move{Kind: Deploy, Leaf: L(Battleship, 0), Ocean: NorthAtlantic})
	h.do(1, Move{Kind: Deploy, Leaf: L(Battleship, 0), Ocean: NorthAtlantic})
	h.do(0, Move{Kind: Deploy, Leaf: L(Battleship, 1), Ocean: SouthAtlantic})
	h.do(1, Move{Kind: Deploy, Leaf: L(Battleship, 1), Ocean: SouthAtlantic})
	h.do(0, Move{Kind: Deploy, Leaf: L(Carrier, 0), Ocean: Pacific})
	return h
}

// wantIllegal fails unless err wraps ErrIllegal and mentions want.
func wantIllegal(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("accepted, want an error mentioning %q", want)
	}
	if !errors.Is(err, engine.ErrIllegal) {
		t.Fatalf("error %v does not wrap ErrIllegal", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not mention %q", err, want)
	}
}

// wantFault fails unless err is a Fault blaming seat.
func wantFault(t *testing.T, err error, seat engine.Seat, want string) {
	t.Helper()
	var f *engine.Fault
	if !errors.As(err, &f) || f.Seat != seat {
		t.Fatalf("error %v is not a fault of %s", err, seat)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("error %q does not mention %q", err, want)
	}
}

func TestSetup(t *testing.T) {
	t.Run("two seats and the one variant", func(t *testing.T) {
		if g, err := Spec.New(engine.Setup{Seats: 3}); err == nil || g != nil {
			t.Errorf("three seats: game %v, error %v", g, err)
		}
		if _, err := New(engine.Setup{Seats: 2, Variant: "beginner"}); err == nil {
			t.Error("unknown variant accepted")
		}
		if g, err := Spec.New(engine.Setup{Seats: 2}); err != nil || g.Next().Kind != engine.NeedCommit {
			t.Errorf("Spec.New: %v", err)
		}
	})
	t.Run("both seats commit a 36-leaf fleet, then a coin flip", func(t *testing.T) {
		h := newHarness(t, 1, nil, nil)
		n := needIs(t, h.Game, engine.NeedCommit, 0)
		if n.Name != FleetName || n.Size != DeckSize {
			t.Fatalf("need %+v", n)
		}
		h.mustApply(h.commitInput(0, sortedLeaves()))
		needIs(t, h.Game, engine.NeedCommit, 1)
		h.mustApply(h.commitInput(1, sortedLeaves()))
		n = needIs(t, h.Game, engine.NeedRandom, engine.NoSeat)
		if n.Bound != 2 || n.Count != 1 || len(n.Seats) != 2 {
			t.Fatalf("coin flip need %+v", n)
		}
		h.mustApply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{1}})
		if h.Game.First() != 1 {
			t.Fatalf("first = %s, want seat 1", h.Game.First())
		}
		n = needIs(t, h.Game, engine.NeedRandom, 1)
		if n.Bound != 36*35*34*33*32*31 {
			t.Fatalf("player #1 draws with bound %d, want the 6-card falling factorial", n.Bound)
		}
		h.mustApply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{n.Bound - 1}})
		n = needIs(t, h.Game, engine.NeedRandom, 0)
		if n.Bound != 36*35*34*33*32 {
			t.Fatalf("player #2 draws with bound %d, want the 5-card falling factorial", n.Bound)
		}
		h.mustApply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0}})
		if len(h.Game.Hand(1)) != FirstHand || len(h.Game.Hand(0)) != SecondHand || h.Game.DeckLeft(1) != 30 || h.Game.DeckLeft(0) != 31 {
			t.Fatalf("hands %v / %v", h.Game.Hand(1), h.Game.Hand(0))
		}
		needIs(t, h.Game, engine.NeedMove, 1) // player #1 deploys first
	})
	t.Run("deployment is faceup, alternates 3 and 2, then player #2 draws", func(t *testing.T) {
		h := base(t)
		for s := range engine.Seat(2) {
			for o := range Ocean(NumOceans) {
				for _, c := range h.Game.TaskForce(s, o) {
					if c.Card == NoCard {
						t.Fatalf("%s deployed a facedown card in the %s", s, o)
					}
				}
			}
		}
		if h.Game.FleetSize(0) != FirstDeploy || h.Game.FleetSize(1) != SecondDeploy {
			t.Fatalf("fleets %d and %d", h.Game.FleetSize(0), h.Game.FleetSize(1))
		}
		n := needIs(t, h.Game, engine.NeedRandom, 1)
		if n.Bound != 31*30 {
			t.Fatalf("draw bound %d, want 31·30", n.Bound)
		}
	})
	t.Run("the Element of Surprise cannot be deployed", func(t *testing.T) {
		h := newHarness(t, 1, nil, nil)
		h.setup(0, []int{L(Surprise, 0), 0, 1, 2, 3, 4}, []int{0, 1, 2, 3, 4})
		wantIllegal(t, h.try(0, Move{Kind: Deploy, Leaf: L(Surprise, 0)}), "cannot join a task force")
		wantIllegal(t, h.try(1, Move{Kind: Deploy, Leaf: 0}), "needs seat 0")
		wantIllegal(t, h.try(0, Move{Kind: Place, Leaf: 0}), "deploy move")
	})
}

func TestDrawMixedRadix(t *testing.T) {
	// Every value below the falling factorial draws a different ordered
	// pair: the mapping is a bijection, so a uniform value is a uniform draw.
	for _, r := range []int{2, 3, 7, 36} {
		g, _ := New(engine.Setup{Seats: 2})
		seen := map[[2]int]bool{}
		bound := fallingFactorial(r, 2)
		for v := range bound {
			c := g.clone()
			c.seats[0].deck = c.seats[0].deck[:r]
			c.draw(0, 2, v)
			h := c.seats[0].hand
			seen[[2]int{h[0], h[1]}] = true
		}
		if len(seen) != bound {
			t.Errorf("deck of %d: %d values give %d different draws", r, bound, len(seen))
		}
	}
}

func TestTurn(t *testing.T) {
	t.Run("draw two, then a card must be played before an attack", func(t *testing.T) {
		h := base(t)
		h.draw(L(Fighter, 0), L(Fighter, 1))
		if len(h.Game.Hand(1)) != 5 {
			t.Fatalf("hand %d after drawing, want 5", len(h.Game.Hand(1)))
		}
		wantIllegal(t, h.try(1, Move{Kind: Attack, Ocean: NorthAtlantic}), "play a card first")
		h.do(1, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: Arctic})
		if c := h.Game.TaskForce(1, Arctic); len(c) != 1 || c[0].Card != NoCard {
			t.Fatalf("facedown card shows as %+v", c)
		}
		h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 1)}) // a wasted command is still a second card
		needIs(t, h.Game, engine.NeedRandom, 0)
	})
	t.Run("a card played must be in the hand", func(t *testing.T) {
		h := base(t)
		h.draw(L(Fighter, 0), L(Fighter, 1))
		wantIllegal(t, h.try(1, Move{Kind: Place, Leaf: L(Fighter, 2), Ocean: Arctic}), "not in seat 1's hand")
		wantIllegal(t, h.try(1, Move{Kind: Place, Leaf: L(Battleship, 0), Ocean: Arctic}), "not in seat 1's hand")
		_, err := h.Game.MustOpen(1, Move{Kind: Discard, Leaf: L(Fighter, 2)}.Encode())
		wantIllegal(t, err, "not in seat 1's hand")
	})
}

func TestAttackConditions(t *testing.T) {
	h := base(t)
	// Seat 1 reinforces the North Atlantic, then discards.
	h.draw(L(Fighter, 0), L(Fighter, 1))
	h.do(1, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: NorthAtlantic})
	h.do(1, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: NorthAtlantic})
	seat1Discards := func(a, b int) {
		h.draw(a, b)
		h.do(1, Move{Kind: Discard, Leaf: a})
		h.do(1, Move{Kind: Discard, Leaf: b})
	}
	// Seat 0 builds in the Arctic and the Indian Ocean.
	h.draw(L(Fighter, 1), L(Fighter, 2))
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: Arctic})
	wantIllegal(t, h.try(0, Move{Kind: Attack, Ocean: NorthAtlantic}), "fleet of 4 cannot attack: it needs 10")
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 2), Ocean: Arctic})
	seat1Discards(L(Destroyer, 0), L(Destroyer, 1))
	h.draw(L(Fighter, 3), L(Fighter, 4))
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 3), Ocean: Arctic})
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 4), Ocean: Arctic})
	seat1Discards(L(Destroyer, 2), L(Destroyer, 3))
	h.draw(L(Fighter, 5), L(Battleship, 2))
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 5), Ocean: Arctic})
	wantIllegal(t, h.try(0, Move{Kind: Attack, Ocean: NorthAtlantic}), "fleet of 8 cannot attack: it needs 10")
	if h.Game.AttackOceans(0) != nil {
		t.Fatalf("attack oceans %v with a fleet of 8", h.Game.AttackOceans(0))
	}
	wantIllegal(t, h.try(0, Move{Kind: Place, Leaf: L(Battleship, 2), Ocean: Arctic}), "already holds 5 cards")
	h.do(0, Move{Kind: Place, Leaf: L(Battleship, 2), Ocean: Indian})
	seat1Discards(L(Destroyer, 4), L(Carrier, 1))
	h.draw(L(Battleship, 3), L(Submarine, 1))
	h.do(0, Move{Kind: Place, Leaf: L(Battleship, 3), Ocean: Indian})
	// A fleet of 10 may attack, but only where seat 1 has a task force.
	if got := h.Game.AttackOceans(0); !slices.Equal(got, []Ocean{NorthAtlantic, SouthAtlantic}) {
		t.Fatalf("attack oceans %v, want North and South Atlantic", got)
	}
	wantIllegal(t, h.try(0, Move{Kind: Attack, Ocean: Indian}), "an empty ocean can only be attacked when forced")
	h.do(0, Move{Kind: Attack, Ocean: SouthAtlantic})
	// Both South Atlantic Battleships are faceup: nothing to reveal, and the
	// tie goes to the defender.
	if h.Game.Controller(SouthAtlantic) != 1 {
		t.Fatalf("South Atlantic controlled by %s, want the defender (tie)", h.Game.Controller(SouthAtlantic))
	}
	// Four oceans left: a fleet of 8 now suffices.
	if h.Game.OceansInPlay() != 4 || h.Game.FleetSize(0) != 9 {
		t.Fatalf("%d oceans, fleet %d", h.Game.OceansInPlay(), h.Game.FleetSize(0))
	}
	needIs(t, h.Game, engine.NeedRandom, 1)
}
