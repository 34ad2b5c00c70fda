package airview

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// TestWingmanLetsThePlayerPickTheSpace: j no longer flies at once to the
// first marked space; it starts picking one, tab moves the cursor to the
// next marked space, and enter makes the move there.
func TestWingmanLetsThePlayerPickTheSpace(t *testing.T) {
	d := firstMove(t, 2, func(g *air.Game) bool {
		n := 0
		for _, m := range g.LegalMoves() {
			if m.Action == air.ActWingman {
				n++
			}
		}
		return n >= 2
	})
	f := newFixture(t, false, 71, 28)
	r := f.ask(d, 0)
	ws := f.v.wingmanSpaces()
	f.Keys("j")
	if !r.Pending() {
		t.Fatalf("j made the move at once, to %s, without letting the player pick one of %v", f.v.cur, ws)
	}
	if p := f.v.Prompt(); !strings.Contains(p, "Wingman move") || !strings.Contains(p, "enter places it") {
		t.Fatalf("the prompt does not say how to pick the space: %q", p)
	}
	f.Keys(tcell.KeyTab)
	want := f.v.cur
	if want == ws[0] || !slices.Contains(ws, want) {
		t.Fatalf("tab put the cursor on %s, want another marked space of %v", want, ws)
	}
	f.Keys(tcell.KeyEnter)
	got := boardtest.Answer(t, r)
	if string(got.Move) != string(air.WingmanMove(want).Encode()) {
		t.Fatalf("sent %s, want the wingman move to %s", got.Move, want)
	}
}

// TestHelpListsTheCursorKeysOnce: the four arrows of a turn share one
// help line (each had its own label, so the help listed them apart).
func TestHelpListsTheCursorKeysOnce(t *testing.T) {
	d := firstMove(t, 2, legalHas(air.ActWingman))
	f := newFixture(t, false, 71, 28)
	f.ask(d, 0)
	labels := map[string]bool{}
	for _, b := range f.v.Bindings() {
		if strings.HasPrefix(b.Help, "move the cursor") {
			labels[b.Label] = true
		}
	}
	if len(labels) != 1 {
		t.Fatalf("the cursor keys have %d help lines: %v", len(labels), labels)
	}
}
