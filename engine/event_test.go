package engine_test

import (
	"fmt"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// An event keeps the seats its text names apart from the words, so an
// interface names them without searching the text: a player called
// "seat 2", or a piece numbered like a seat, is never taken for one.
func TestEventfKeepsSeatsApart(t *testing.T) {
	name := func(s engine.Seat) string { return []string{"seat 2", "bob"}[s] }
	for _, c := range []struct {
		e          engine.Event
		text, said string
	}{
		{engine.Eventf(1, "hit", "%s's %s hits %s's Cruiser", engine.Seat(1), "fighter 0", engine.Seat(0)),
			"seat 1's fighter 0 hits seat 0's Cruiser", "bob's fighter 0 hits seat 2's Cruiser"},
		{engine.Eventf(0, "roll", "%v rolled %d, seat %d waits", engine.Seat(0), 6, engine.Seat(1)),
			"seat 0 rolled 6, seat 1 waits", "seat 2 rolled 6, seat 1 waits"},
		{engine.Eventf(engine.NoSeat, "deal", "no seat named"), "no seat named", "no seat named"},
		{engine.Eventf(0, "odd", "%s says %s", engine.Seat(0), "a\x00b"), "seat 0 says a\x00b", "seat 0 says a\x00b"},
		{engine.Event{Kind: "plain", Text: "seat 1 typed by hand"}, "seat 1 typed by hand", "seat 1 typed by hand"},
	} {
		if c.e.Text != c.text || c.e.Say(name) != c.said {
			t.Errorf("Text %q, Say %q; want %q, %q", c.e.Text, c.e.Say(name), c.text, c.said)
		}
	}
	if want := fmt.Sprintf("%s wins", engine.Seat(1)); engine.Eventf(1, "win", "%s wins", engine.Seat(1)).Say(engine.Seat.String) != want {
		t.Error("Say with Seat.String is not the text")
	}
}
