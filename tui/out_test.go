package tui

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
)

// shotDown is an Air match in which seat out has lost both planes.
type shotDown struct {
	*air.Game
	out engine.Seat
}

func (g shotDown) Out(s engine.Seat) bool { return s == g.out }

// Issue 14 point 18: the leave and quit dialogs of a shot-down player say
// that leaving forfeits nothing (they said it forfeits and the others win
// once they have waited for it); a player still flying is warned as before.
func TestOutPlayerLeavesForfeitingNothing(t *testing.T) {
	a, err := air.New(engine.Setup{Seats: 3, Variant: air.VariantFreeForAll})
	if err != nil {
		t.Fatal(err)
	}
	out := engine.Seat(1)
	g := shotDown{Game: a, out: out}
	ms := &matchScreen{a: &App{}, game: g, seat: out, names: []string{"ann", "bob", "cy"}, transcript: "t.jsonl"}
	for _, text := range []string{ms.leaveText(), ms.quitText()} {
		if !strings.Contains(text, "out of the game") || !strings.Contains(text, "forfeits nothing") {
			t.Fatalf("shot-down player's dialog: %q", text)
		}
	}
	// Issue 14 requirement 4: a player still flying in a free-for-all is
	// told it leaves the board and the others play on; in the team game
	// leaving is still a forfeit.
	ms.seat = 2
	if text := ms.leaveText(); !strings.Contains(text, "off the table") || !strings.Contains(text, "play on") {
		t.Fatalf("flying player's dialog: %q", text)
	}
	team, err := air.New(engine.Setup{Seats: 4, Variant: air.VariantTeam})
	if err != nil {
		t.Fatal(err)
	}
	ms.game, ms.names = team, []string{"ann", "bob", "cy", "dee"}
	if text := ms.leaveText(); !strings.Contains(text, "you forfeit") {
		t.Fatalf("team player's dialog: %q", text)
	}
}
