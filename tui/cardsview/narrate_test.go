package cardsview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/engine/enginetest"
	"github.com/salvo-game/salvo/tui/board"
)

// TestNarrateReadsEveryPlayBack reads each kind of play back from the
// engine's text and tells it as the verification log describes the move:
// the player's name, no deck's internal name.
func TestNarrateReadsEveryPlayBack(t *testing.T) {
	s := board.Snapshot{Names: []string{"ann", "bob"}}
	ref := cards.CardRef{Deck: 2, Leaf: 17}
	for _, m := range []cards.Move{
		{Action: cards.Tap, Face: cards.Red2, Card: ref, Pos: 6},
		{Action: cards.Tap, Face: cards.White, Card: ref, Pos: 11},
		{Action: cards.Attack, Face: cards.Red4, Card: ref, Ship: cards.Battleship},
		{Action: cards.PlaceShield, Face: cards.ShieldCard, Card: ref, Ship: cards.Destroyer},
		{Action: cards.DiscardWhite, Face: cards.DiscardPlay, Card: ref, Discard: []cards.CardRef{{Deck: 1, Leaf: 3}, {Deck: 2, Leaf: 0}}},
		{Action: cards.PlayTwo, Face: cards.DiscardPlay, Card: ref},
		{Action: cards.Repair, Face: cards.RepairDraw, Card: ref, Ship: cards.Submarine, Peg: 1},
		{Action: cards.Draw3, Face: cards.RepairDraw, Card: ref},
		{Action: cards.DiscardDead, Face: cards.Red1, Card: ref},
		{Action: cards.PTRepair, Ship: cards.Carrier, Peg: 0},
		{Action: cards.Skip},
	} {
		e := engine.Eventf(1, "play", "%s plays %s", engine.Seat(1), m)
		got := Narrate(e, s)
		if want := "bob " + describeMove(m); got != want {
			t.Errorf("Narrate(%q)\n got %q\nwant %q", e.Text, got, want)
		}
		if strings.Contains(got, "deck/") {
			t.Errorf("Narrate(%q) = %q names a deck by its internal name", e.Text, got)
		}
	}
	if got := Narrate(enginetest.Event(0, "reshuffle", "seat 0 shuffles its discard pile into a new draw pile (deck/2)"), s); got != "ann shuffles its discard pile into a new draw pile" {
		t.Errorf("reshuffle: %q", got)
	}
}
