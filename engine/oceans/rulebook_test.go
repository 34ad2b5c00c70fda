package oceans

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// needIs fails the test unless the match waits for kind from seat.
func needIs(t *testing.T, g *Game, kind engine.NeedKind, seat engine.Seat) engine.Need {
	t.Helper()
	n := g.Next()
	if n.Kind != kind || n.Seat != seat {
		t.Fatalf("need = %s from %s (%s), want %s from %s", n.Kind, n.Seat, n.Prompt, kind, seat)
	}
	return n
}

// slotLeaves returns the leaf indices of slots.
func slotLeaves(ss []engine.Slot) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = s.Index
	}
	return out
}

// TestRulebookNorthAtlantic replays the rulebook's battle between Dan
// (attacker, seat 0, player #1) and Julie (defender, seat 1) move by move,
// from the commitments to Julie taking the North Atlantic.
func TestRulebookNorthAtlantic(t *testing.T) {
	const dan, julie = engine.Seat(0), engine.Seat(1)
	h := newHarness(t, 1, nil, nil)
	g := h.Game
	bb := func(n int) int { return leafOf(Battleship, n) }
	carrier, fighter, sub := leafOf(Carrier, 0), leafOf(Fighter, 0), leafOf(Submarine, 0)
	pt, mine, dc := leafOf(PTBoat, 0), leafOf(Minefield, 0), leafOf(DepthCharges, 0)

	h.setup(dan, []int{carrier, fighter, sub, pt, mine, bb(0)}, []int{sub, bb(0), mine, dc, bb(1)})
	if g.First() != dan || len(g.Hand(dan)) != FirstHand || len(g.Hand(julie)) != SecondHand {
		t.Fatalf("first %s, hands %d and %d", g.First(), len(g.Hand(dan)), len(g.Hand(julie)))
	}

	// Opening deployment, faceup: Dan three cards, Julie two.
	na := NorthAtlantic
	h.do(dan, Move{Kind: Deploy, Leaf: carrier, Ocean: na})
	h.do(julie, Move{Kind: Deploy, Leaf: sub, Ocean: na})
	h.do(dan, Move{Kind: Deploy, Leaf: fighter, Ocean: na})
	h.do(julie, Move{Kind: Deploy, Leaf: bb(0), Ocean: na})
	h.do(dan, Move{Kind: Deploy, Leaf: sub, Ocean: na})
	if len(g.Hand(dan)) != 3 || len(g.Hand(julie)) != 3 {
		t.Fatalf("after deployment hands are %d and %d, want 3 and 3", len(g.Hand(dan)), len(g.Hand(julie)))
	}

	// Julie (player #2) continues: draws two, adds Minefield and Depth Charges facedown.
	needIs(t, g, engine.NeedRandom, julie)
	h.draw(bb(2), bb(3))
	h.do(julie, Move{Kind: Place, Leaf: mine, Ocean: na})
	h.do(julie, Move{Kind: Place, Leaf: dc, Ocean: na})

	// Dan adds his PT Boat and Minefield facedown: a full task force of five.
	h.draw(bb(1), bb(2))
	h.do(dan, Move{Kind: Place, Leaf: pt, Ocean: na})
	h.do(dan, Move{Kind: Place, Leaf: mine, Ocean: na})
	if err := h.try(dan, Move{Kind: Place, Leaf: bb(0), Ocean: na}); err == nil {
		t.Fatal("a third card in one turn was accepted")
	}

	// Julie builds elsewhere.
	h.draw(leafOf(Carrier, 0), leafOf(Carrier, 1))
	h.do(julie, Move{Kind: Place, Leaf: bb(1), Ocean: Pacific})
	h.do(julie, Move{Kind: Place, Leaf: bb(2), Ocean: Pacific})

	// Dan: every task force is full, so after his first card he must attack.
	h.draw(leafOf(Fighter, 1), leafOf(Fighter, 2))
	if err := h.try(dan, Move{Kind: Place, Leaf: bb(1), Ocean: na}); err == nil {
		t.Fatal("a sixth card in a task force was accepted")
	}
	h.do(dan, Move{Kind: Discard, Leaf: bb(0)})
	if !g.MustAttack(dan) {
		t.Fatal("Dan's only task force is full but he is not forced to attack")
	}
	if err := h.try(dan, Move{Kind: Place, Leaf: bb(1), Ocean: Pacific}); err == nil || !strings.Contains(err.Error(), "must attack") {
		t.Fatalf("second card while forced to attack: err = %v", err)
	}
	if err := h.try(dan, Move{Kind: Attack, Ocean: Pacific}); err == nil {
		t.Fatal("attack without a task force there was accepted")
	}
	h.do(dan, Move{Kind: Attack, Ocean: na})

	// Both reveal exactly their facedown cards there.
	n := needIs(t, g, engine.NeedOpen, dan)
	if got := slotLeaves(n.Open); !slices.Equal(got, []int{pt, mine}) {
		t.Fatalf("Dan opens %v, want his facedown PT Boat and Minefield %v", got, []int{pt, mine})
	}
	h.open()
	n = needIs(t, g, engine.NeedOpen, julie)
	if got := slotLeaves(n.Open); !slices.Equal(got, []int{mine, dc}) {
		t.Fatalf("Julie opens %v, want %v", got, []int{mine, dc})
	}
	h.open()

	// Julie, the defender, chooses her Minefield first.
	needIs(t, g, engine.NeedMove, julie)
	if err := h.try(julie, Move{Kind: Zero, Leaf: sub}); err == nil {
		t.Fatal("a Submarine played as a zero-valued card")
	}
	h.do(julie, Move{Kind: Zero, Leaf: mine})

	// Dan has a PT Boat, so he picks the target: his PT Boat.
	needIs(t, g, engine.NeedMove, dan)
	if err := h.try(dan, Move{Kind: Target, Leaf: fighter}); err == nil {
		t.Fatal("a Fighter Plane accepted as a surface ship")
	}
	ev := h.do(dan, Move{Kind: Target, Leaf: pt})

	// The rest resolves itself: Dan's Minefield sinks Julie's Battleship
	// (her only surface ship), her Depth Charges sink Dan's Submarine, and
	// the totals are 5 (Carrier 2 + Fighter 3) to 5 (Submarine 5): the tie
	// goes to Julie.
	var log []string
	for _, e := range ev {
		log = append(log, e.Text)
	}
	want := []string{
		"seat 0's PT Boat is destroyed",
		"seat 0 plays its Minefield",
		"seat 1's Battleship is destroyed",
		"seat 1 plays its Depth Charges",
		"seat 0's Submarine is destroyed",
		"seat 1 wins the North Atlantic (attacker 5, defender 5)",
	}
	if !slices.Equal(log[:len(want)], want) {
		t.Fatalf("battle events:\n%s\nwant:\n%s", strings.Join(log, "\n"), strings.Join(want, "\n"))
	}
	if g.Controller(na) != julie || g.Controlled(julie) != 1 {
		t.Fatalf("North Atlantic controlled by %s", g.Controller(na))
	}
	if len(g.TaskForce(dan, na)) != 0 || len(g.TaskForce(julie, na)) != 0 {
		t.Fatal("task forces were not discarded after the battle")
	}
	if got := len(g.Discards(dan)); got != 6 {
		t.Fatalf("Dan's discard pile holds %d cards, want 6 (Battleship + task force)", got)
	}
	needIs(t, g, engine.NeedRandom, julie) // Julie's turn
	if g.OceansInPlay() != 4 {
		t.Fatalf("%d oceans in play, want 4", g.OceansInPlay())
	}
	if err := h.try(julie, Move{Kind: Place, Leaf: bb(3), Ocean: na}); !errors.Is(err, engine.ErrIllegal) {
		t.Fatalf("move during a draw: err = %v", err)
	}
}
