package oceans

import (
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// facedownBoth continues base: seat 1 plays its Submarine facedown to the
// North Atlantic and its PT Boat facedown to the South Atlantic; seat 0
// draws the given leaves.
func facedownBoth(t *testing.T, draw0 ...int) *harness {
	t.Helper()
	h := base(t)
	h.draw(L(Destroyer, 0), L(Surprise, 0))
	h.do(1, Move{Kind: Place, Leaf: L(Submarine, 0), Ocean: NorthAtlantic})
	h.do(1, Move{Kind: Place, Leaf: L(PTBoat, 0), Ocean: SouthAtlantic})
	h.draw(draw0...)
	return h
}

func TestSpecialCommands(t *testing.T) {
	sub1, pt1 := L(Submarine, 0), L(PTBoat, 0) // seat 1's facedown cards
	t.Run("Carrier reveals up to two cards of one task force", func(t *testing.T) {
		h := facedownBoth(t, L(Carrier, 1), L(Battleship, 2))
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Carrier, 1), Targets: []int{sub1, pt1}}), "one task force only")
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Carrier, 1), Targets: []int{sub1, sub1}}), "named twice")
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Carrier, 1), Targets: []int{L(Battleship, 0)}}), "already revealed")
		_, err := DecodeMove([]byte(`{"kind":"discard","leaf":5,"ocean":0,"targets":[1,2,3]}`))
		wantIllegal(t, err, "at most 2")
		h.do(0, Move{Kind: Discard, Leaf: L(Carrier, 1), Targets: []int{sub1}})
		n := needIs(t, h.Game, engine.NeedOpen, 1)
		if !slices.Equal(slotLeaves(n.Open), []int{sub1}) {
			t.Fatalf("seat 1 must open %v", n.Open)
		}
		h.open()
		if got := h.Game.TaskForce(1, NorthAtlantic); got[1].Card != Submarine {
			t.Fatalf("North Atlantic task force shows %+v", got)
		}
		needIs(t, h.Game, engine.NeedMove, 0) // the second card
	})
	t.Run("Fighter Plane reveals one facedown card", func(t *testing.T) {
		h := facedownBoth(t, L(Fighter, 1), L(Battleship, 2))
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{sub1, pt1}}), "at most 1 targets")
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{L(Carrier, 0)}}), "not in a task force")
		h.do(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{pt1}})
		h.open()
		if h.Game.Known(1, pt1) != PTBoat {
			t.Fatal("PT Boat not revealed")
		}
	})
	t.Run("Submarine destroys a revealed Destroyer or PT Boat only", func(t *testing.T) {
		h := facedownBoth(t, L(Fighter, 1), L(Battleship, 2))
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Submarine, 0), Targets: []int{pt1}}), "revealed Destroyer or PT Boat")
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Submarine, 0), Targets: []int{L(Battleship, 0)}}), "revealed Destroyer or PT Boat")
		h.do(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{pt1}})
		h.open()
		h.do(0, Move{Kind: Discard, Leaf: L(Submarine, 0), Targets: []int{pt1}})
		if len(h.Game.TaskForce(1, SouthAtlantic)) != 1 || !slices.Equal(h.Game.Discards(1), []Card{PTBoat}) {
			t.Fatalf("PT Boat not destroyed: %+v, discards %v", h.Game.TaskForce(1, SouthAtlantic), h.Game.Discards(1))
		}
	})
	t.Run("Destroyer destroys a revealed Submarine only", func(t *testing.T) {
		h := facedownBoth(t, L(Fighter, 1), L(Battleship, 2))
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Destroyer, 0), Targets: []int{sub1}}), "revealed Submarine")
		h.do(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{sub1}})
		h.open()
		h.do(0, Move{Kind: Discard, Leaf: L(Destroyer, 0), Targets: []int{sub1}})
		if got := h.Game.TaskForce(1, NorthAtlantic); len(got) != 1 || got[0].Card != Battleship {
			t.Fatalf("North Atlantic task force %+v", got)
		}
	})
	t.Run("PT Boat blockades an ocean for the opponent's next turn", func(t *testing.T) {
		h := base(t)
		h.draw(L(Fighter, 0), L(Fighter, 1))
		h.do(1, Move{Kind: Discard, Leaf: L(PTBoat, 0), Ocean: Pacific})
		h.do(1, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: Pacific}) // the blockade binds only the opponent
		h.draw(L(Fighter, 1), L(Fighter, 2))
		if !h.Game.Blockaded(0, Pacific) {
			t.Fatal("Pacific not blockaded for seat 0")
		}
		wantIllegal(t, h.try(0, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: Pacific}), "blockaded")
		h.do(0, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: NorthAtlantic})
		wantIllegal(t, h.try(0, Move{Kind: Place, Leaf: L(Fighter, 2), Ocean: Pacific}), "blockaded")
		h.do(0, Move{Kind: Place, Leaf: L(Fighter, 2), Ocean: Arctic})
		h.draw(L(Fighter, 2), L(Fighter, 3))
		h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 2)})
		h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 3)})
		h.draw(L(Fighter, 3), L(Fighter, 4))
		if h.Game.Blockaded(0, Pacific) {
			t.Fatal("blockade outlived seat 0's turn")
		}
		h.do(0, Move{Kind: Place, Leaf: L(Fighter, 3), Ocean: Pacific})
	})
	t.Run("Element of Surprise: no attack and no second card next turn", func(t *testing.T) {
		h := base(t)
		h.draw(L(Surprise, 0), L(Fighter, 0))
		h.do(1, Move{Kind: Discard, Leaf: L(Surprise, 0)})
		h.do(1, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: Arctic})
		h.draw(L(Fighter, 1), L(Fighter, 2))
		if !h.Game.Surprised(0) {
			t.Fatal("seat 0 not surprised")
		}
		h.do(0, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: Arctic})
		needIs(t, h.Game, engine.NeedRandom, 1) // the turn ended after one card
		if h.Game.Surprised(0) || len(h.Game.Hand(0)) != 4 {
			t.Fatalf("surprised %v, hand %d", h.Game.Surprised(0), len(h.Game.Hand(0)))
		}
	})
	t.Run("commands without a target are wasted, cards without one have none", func(t *testing.T) {
		h := facedownBoth(t, L(Fighter, 1), L(Battleship, 2))
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Battleship, 2), Targets: []int{sub1}}), "at most 0 targets")
		wantIllegal(t, h.try(0, Move{Kind: Discard, Leaf: L(Battleship, 2), Ocean: Arctic}), "takes no ocean")
		ev := h.do(0, Move{Kind: Discard, Leaf: L(Fighter, 0)})
		if ev[len(ev)-1].Kind != "wasted" {
			t.Fatalf("events %+v", ev)
		}
		h.do(0, Move{Kind: Discard, Leaf: L(Battleship, 2)})
	})
}

// TestRevealedCardsStayRevealed checks that a card revealed by a command
// stays faceup and is not opened again in battle.
func TestRevealedCardsStayRevealed(t *testing.T) {
	h := facedownBoth(t, L(Fighter, 1), L(Battleship, 2))
	sub1 := L(Submarine, 0)
	h.do(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{sub1}})
	h.open()
	h.do(0, Move{Kind: Place, Leaf: L(Battleship, 2), Ocean: NorthAtlantic})
	// The reveal persists over turns, and a battle there would open only
	// the cards still facedown.
	h.draw(L(Fighter, 0), L(Fighter, 1))
	if h.Game.TaskForce(1, NorthAtlantic)[1].Card != Submarine {
		t.Fatal("revealed Submarine turned facedown again")
	}
	if got := h.Game.facedown(1, NorthAtlantic); len(got) != 0 {
		t.Fatalf("a battle in the North Atlantic would open %v", got)
	}
	if got := h.Game.facedown(0, NorthAtlantic); !slices.Equal(slotLeaves(got), []int{L(Battleship, 2)}) {
		t.Fatalf("seat 0 would open %v", got)
	}
}
