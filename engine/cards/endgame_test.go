package cards

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// emptyPile moves every card left in seat s's draw pile to its discard pile.
func (tb *table) emptyPile(t *testing.T, s engine.Seat) {
	t.Helper()
	for _, l := range tb.Game.remainingLeaves(s) {
		f := Face(tb.leaf(engine.Slot{Owner: s, Name: DeckName(tb.Game.Deck(s)), Index: l})[0])
		tb.removeFromPile(t, s, f)
		tb.Game.players[s].disc[f]++
	}
}

// TestReshuffle: "If your draw pile runs out, form a new one by shuffling
// your discard pile."
func TestReshuffle(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.emptyPile(t, 0)
	disc := tb.Game.Discard(0)
	hand := tb.Game.Hand(0)
	tb.tapTo(t, 0, hand[0], White, 0, NoShip)
	n := tb.Game.Next()
	want := countTotal(disc) + 1 // and the white peg just played
	if n.Kind != engine.NeedCommit || n.Seat != 0 || n.Name != "deck/2" || n.Size != want {
		t.Fatalf("need %+v, want seat 0 to commit deck/2 of %d cards", n, want)
	}
	tb.settle(t)
	if tb.Game.Deck(0) != 2 || countTotal(tb.Game.Discard(0)) != 0 {
		t.Fatalf("deck %d, discard %v after the reshuffle", tb.Game.Deck(0), tb.Game.Discard(0))
	}
	h := tb.Game.Hand(0)
	if len(h) != HandSize || h[len(h)-1].Deck != 2 {
		t.Fatalf("hand %v, want the last card from deck/2", h)
	}
	if tb.Game.DrawPile(0) != want-1 {
		t.Fatalf("draw pile %d, want %d", tb.Game.DrawPile(0), want-1)
	}

	t.Run("partial draw then reshuffle", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		hand := tb.setHand(t, 0, DiscardPlay, White, White, Red1, Red2)
		// Leave two cards in the pile; a three-card reload must reshuffle midway.
		rem := tb.Game.remainingLeaves(0)
		for _, l := range rem[:len(rem)-2] {
			d := &tb.Game.players[0].decks[0]
			f := Face(tb.leaf(engine.Slot{Owner: 0, Name: "deck/1", Index: l})[0])
			d.drawn[l], d.opened[l] = true, true
			d.seen[f]++
			tb.Game.players[0].disc[f]++
		}
		tb.mustPlay(t, 0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay, Discard: hand[1:3]})
		var needs []engine.Need
		for tb.Game.Turn() == 0 {
			needs = append(needs, tb.Game.Next())
			if _, err := tb.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if len(needs) != 3 || needs[0].Bound != drawBound(2, 2) || needs[1].Name != "deck/2" || needs[2].Bound != drawBound(needs[1].Size, 1) {
			t.Fatalf("needs %+v, want draw 2, commit deck/2, draw 1", needs)
		}
		if len(tb.Game.Hand(0)) != HandSize {
			t.Fatalf("hand %d", len(tb.Game.Hand(0)))
		}
	})
	t.Run("nothing left anywhere", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.emptyPile(t, 0)
		tb.Game.players[0].disc = [NumFaces]int{} // as if every other card were in play
		hand := tb.Game.Hand(0)
		tb.tapTo(t, 0, hand[0], White, 0, NoShip) // the white goes to the discard pile
		tb.Game.players[0].disc = [NumFaces]int{}
		tb.settle(t)
		if tb.Game.Turn() != 1 || len(tb.Game.Hand(0)) != 4 {
			t.Fatalf("turn %s hand %d: a draw with no cards anywhere must stop short", tb.Game.Turn(), len(tb.Game.Hand(0)))
		}
	})
}

// TestWinAndFinalReveal: "The first player to sink all five enemy ships wins
// the game." Then every hidden leaf is opened and checked.
func TestWinAndFinalReveal(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	for pos, k := range []Ship{Carrier, Battleship, Destroyer, Submarine} {
		tb.sinkShip(t, 1, k, pos)
	}
	tb.reveal(t, 1, PTBoat, 4)
	tb.peg(t, 0, PTBoat, Red1, false)
	hand := tb.setHand(t, 0, Red1, White, White, White, White)
	evs := tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red1, Ship: PTBoat})
	if !hasEvent(evs, "sunk") {
		t.Fatalf("no sunk event: %v", evs)
	}
	if tb.Game.Outcome().Done {
		t.Fatal("outcome done before the final reveal")
	}
	for s := engine.Seat(0); s < 2; s++ {
		n := tb.Game.Next()
		if n.Kind != engine.NeedOpen || n.Seat != s {
			t.Fatalf("need %+v, want %s to reveal", n, s)
		}
		if len(n.Open) != len(tb.Game.hiddenSlots(s)) || len(n.Open) == 0 {
			t.Fatalf("reveal of %d slots", len(n.Open))
		}
		if _, err := tb.Step(); err != nil {
			t.Fatal(err)
		}
	}
	o := tb.Game.Outcome()
	if !o.Done || o.Draw || len(o.Winners) != 1 || o.Winners[0] != 0 {
		t.Fatalf("outcome %+v, want seat 0 to win", o)
	}
	if tb.Game.Next().Kind != engine.NeedNone {
		t.Fatal("match still needs input")
	}
	before := tb.Game.Hash()
	_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 1})
	wantIllegal(t, tb, before, err)
}

func TestTurnLimitDraws(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.Game.turns = MaxTurns
	hand := tb.Game.Hand(0)
	tb.tapTo(t, 0, hand[0], White, 0, NoShip)
	if _, err := tb.Play(maxInputs); err != nil {
		t.Fatal(err)
	}
	if o := tb.Game.Outcome(); !o.Done || !o.Draw {
		t.Fatalf("outcome %+v, want a draw at the turn limit", o)
	}
}
