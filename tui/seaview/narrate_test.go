package seaview

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
	"github.com/salvo-game/salvo/tui/board"
)

// TestNarrate puts Sea's events in the players' words: names, whose piece
// a destroyer fires at, the die of its hit or miss (the roll itself goes),
// a dogfight without Sidewinders.
func TestNarrate(t *testing.T) {
	s := board.Snapshot{Names: []string{"ann", "bot (strong)"}}
	for _, c := range []struct {
		seat       engine.Seat
		kind, text string
		want       string
	}{
		{1, "fire", "seat 1's destroyer 0 fires at fighter 2, 3 spaces away", "bot (strong)'s destroyer 0 fires at ann's fighter 2, 3 spaces away"},
		{0, "fire", "seat 0's destroyer 1 fires at carrier, 5 spaces away", "ann's destroyer 1 fires at bot (strong)'s carrier, 5 spaces away"},
		{1, "roll", "seat 1 rolled [3] (fire)", ""},
		{0, "roll", "seat 0 rolled [5] (defense)", ""},
		{1, "hit", "seat 1 hit fighter 2 with a 5", "hit with a 5"},
		{1, "miss", "seat 1 missed fighter 2 with a 2", "missed with a 2"},
		{0, "miss", "Harpoon 1 reached the end of its range and was removed", "Harpoon 1 reached the end of its range and was removed"},
		{0, "roll", "seat 0 rolled [6 4] (scramble)", "ann rolled [6 4] (scramble)"},
		{engine.NoSeat, "dogfight", "dogfight: seat 1's fighter 0 (strength 3) against seat 0's fighter 1 (strength 2)", "dogfight: bot (strong)'s fighter 0 (strength 3) against ann's fighter 1 (strength 2)"},
		{0, "dogfight", "seat 0's fighter 1 (5) shot down seat 1's fighter 0 (4)", "ann's fighter 1 (5) shot down bot (strong)'s fighter 0 (4)"},
		{engine.NoSeat, "dogfight", "tie at 4: both fighters are lost", "tie at 4: both fighters are lost"},
	} {
		if got := Narrate(enginetest.Event(c.seat, c.kind, c.text), s); got != c.want {
			t.Errorf("Narrate(%s %q)\n got %q\nwant %q", c.kind, c.text, got, c.want)
		}
	}
}
