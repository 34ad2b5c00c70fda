package ubuildview

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
	"github.com/salvo-game/salvo/tui/board"
)

func TestNarrate(t *testing.T) {
	s := board.Snapshot{Names: []string{"ann", "bob"}}
	for _, c := range []struct{ kind, text, want string }{
		{"commit", "seat 0 committed its grid (99ab125f)", "ann committed its grid"},
		{"fire", "seat 1 (Destroyer) fires at J-6, B-7", "bob (Destroyer) fires at J-6, B-7"},
		{"hit", "B-7: hit, seat 0's Cruiser", "B-7: hit, ann's Cruiser"},
	} {
		if got := Narrate(enginetest.Event(engine.NoSeat, c.kind, c.text), s); got != c.want {
			t.Errorf("Narrate(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
