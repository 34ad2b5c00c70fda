package cardsview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
)

func TestDescribeMove(t *testing.T) {
	c := cards.CardRef{Deck: 1, Leaf: 7}
	tests := []struct {
		m    cards.Move
		want string
	}{
		{cards.Move{Action: cards.Tap, Card: c, Face: cards.Red2, Pos: 6}, "taps B3 with a red 2-peg card (card 8 of deck 1)"},
		{cards.Move{Action: cards.Attack, Card: c, Face: cards.White, Ship: cards.Carrier}, "plays a white peg card (card 8 of deck 1) on the Aircraft Carrier"},
		{cards.Move{Action: cards.PlaceShield, Card: c, Face: cards.ShieldCard, Ship: cards.Destroyer}, "puts a Shield (card 8 of deck 1) on its Destroyer"},
		{cards.Move{Action: cards.DiscardWhite, Card: c, Face: cards.DiscardPlay, Discard: []cards.CardRef{{Deck: 1, Leaf: 2}}}, "discards 1 white peg card(s) (card 3 of deck 1)"},
		{cards.Move{Action: cards.PlayTwo, Card: c, Face: cards.DiscardPlay}, `plays "Play 2 more cards"`},
		{cards.Move{Action: cards.Repair, Card: c, Face: cards.RepairDraw, Ship: cards.PTBoat, Peg: 1}, "takes peg card 2 off its PT Boat"},
		{cards.Move{Action: cards.Draw3, Card: c, Face: cards.RepairDraw}, `"Draw 3 cards, then play one"`},
		{cards.Move{Action: cards.DiscardDead, Card: c, Face: cards.Red4}, "discards a red 4-peg card (card 8 of deck 1) it cannot use"},
		{cards.Move{Action: cards.PTRepair, Ship: cards.Battleship}, "uses its PT Boat to take peg card 1 off its Battleship"},
		{cards.Move{Action: cards.Skip}, "declines the PT Boat repair"},
	}
	for _, tc := range tests {
		t.Run(tc.m.Action.String(), func(t *testing.T) {
			if got := DescribeMove(tc.m.Encode()); !strings.Contains(got, tc.want) {
				t.Fatalf("%q lacks %q", got, tc.want)
			}
		})
	}
	if got := DescribeMove([]byte("{")); !strings.Contains(got, "undecodable") {
		t.Fatalf("%q", got)
	}
}

func TestDescribeValue(t *testing.T) {
	tests := []struct {
		slot engine.Slot
		val  []byte
		want string
	}{
		{engine.Slot{Owner: 1, Name: cards.CoordsName, Index: 3}, cards.EncodeCoord(cards.Submarine), "the Submarine"},
		{engine.Slot{Owner: 1, Name: cards.CoordsName, Index: 4}, cards.EncodeCoord(cards.NoShip), "a miss card"},
		{engine.Slot{Owner: 1, Name: cards.CoordsName, Index: 4}, []byte{9}, "which is no coordinate card"},
		{engine.Slot{Owner: 0, Name: cards.DeckName(2), Index: 5}, cards.EncodeCard(cards.ShieldCard), "a Shield"},
		{engine.Slot{Owner: 0, Name: cards.DeckName(1), Index: 5}, []byte{1, 2}, "which is no card"},
	}
	for _, tc := range tests {
		if got := DescribeValue(tc.slot, tc.val); !strings.Contains(got, tc.want) {
			t.Errorf("%v: %q lacks %q", tc.slot, got, tc.want)
		}
	}
}

// FuzzDescribe feeds the describer bytes as they could come from the
// network: it must always answer with words and never panic.
func FuzzDescribe(f *testing.F) {
	f.Add([]byte(`{"action":"tap","card":{"deck":1,"leaf":7},"face":"white","pos":5}`), "deck/1", 3)
	f.Add([]byte(`{"action":"pt-repair","ship":"carrier","peg":1}`), cards.CoordsName, 0)
	f.Add([]byte{0xff}, "deck/x", -1)
	f.Fuzz(func(t *testing.T, b []byte, name string, index int) {
		if DescribeMove(b) == "" {
			t.Fatal("no words for a move")
		}
		if DescribeValue(engine.Slot{Name: name, Index: index}, b) == "" {
			t.Fatal("no words for a value")
		}
	})
}
