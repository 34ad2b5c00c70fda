package airview

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/board"
)

// TestNarrate puts Air's events in the players' words: names for the
// squadron colours, who fired, the dice of a hit or a miss, a collision.
func TestNarrate(t *testing.T) {
	s := board.Snapshot{Names: []string{"ann", "bot (strong)", "carol"}}
	for _, c := range []struct{ kind, text, want string }{
		{"fire", "the Blue F-22 fires missile at the Fire F-35, 5 spaces away", "ann's F-22 fires a missile at bot (strong)'s F-35, 5 spaces away"},
		{"fire", "the Eagle F-35 fires cannon at the Blue F-22, 2 spaces away", "carol's F-35 fires its cannon at ann's F-22, 2 spaces away"},
		{"hit", "red dice [2 3 2]: 7 reaches 5 spaces: a hit on the Fire F-35", "hit (red dice [2 3 2] = 7, 5 needed)"},
		{"miss", "red dice [1 0 1]: 2 falls short of 5 spaces: a miss", "miss (red dice [1 0 1] = 2, 5 needed)"},
		{"collide", "the Fire F-22 collides with the Eagle F-35 and stops at (3,4)", "bot (strong)'s F-22 collides with carol's F-35 and stops at (3,4)"},
		{"damage", "black dice [2 3 1 1]: 7, the Blue F-35 is hit in the Cockpit (1)", "black dice [2 3 1 1]: 7, ann's F-35 is hit in the Cockpit (1)"},
		{"out", "Fire squadron is out", "bot (strong)'s squadron is out"},
		{"deal", "Eagle draws 2 card(s)", "carol draws 2 card(s)"},
		{"win", "Blue wins: last squadron flying", "ann wins: last squadron flying"},
		// A colour nobody flies in this match stays as the engine said it.
		{"down", "the Tiger F-35 is shot down", "the Tiger F-35 is shot down"},
		{"shuffle", "the 40 Navigation cards are shuffled", ""},
		// Issue 14 requirement 4: a player who leaves a free-for-all.
		{"left", "Eagle left: its planes leave the board; play goes on", "carol left: their planes leave the board; play goes on"},
		{"setaside", "the 23 undealt card(s) of the draw pile are set aside: they were shuffled under Eagle's key", "the 23 undealt card(s) of the draw pile are set aside: they were shuffled under carol's key"},
	} {
		if got := Narrate(engine.Event{Kind: c.kind, Text: c.text}, s); got != c.want {
			t.Errorf("Narrate(%s %q)\n got %q\nwant %q", c.kind, c.text, got, c.want)
		}
	}
}

// TestNarrateOneDie says "1 die" where a maneuver rolls one.
func TestNarrateOneDie(t *testing.T) {
	s := board.Snapshot{Names: []string{"ann", "bob"}}
	got := Narrate(engine.Event{Kind: "turn", Text: "the Fire F-35 flies with #49 standard: bank right, 1 dice"}, s)
	if want := "bob's F-35 flies with #49 standard: bank right, 1 die"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
