package seaview

import (
	"regexp"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/board"
)

var (
	// shotAt matches what a destroyer fires at in the engine's texts: a
	// piece of the other side, which the engine leaves unnamed.
	shotAt = regexp.MustCompile(`\b(fires at )(fighter \d+|destroyer \d+|harpoon \d+|carrier)\b`)
	// shotResult matches the engine's hit or miss of a destroyer's shot,
	// after the seat that fired ([board.AfterSeat]).
	shotResult = regexp.MustCompile(`^ (hit|missed) .* with a (\d+)$`)
)

// Narrate tells a Sea event with the players' names and says whose piece
// a destroyer fires at. The roll to hit goes, and the hit or miss after
// it says only the die: the feed puts it on the line of the shot, which
// says who fired at what ("ann's destroyer 0 fires at bob's fighter 3, 4
// spaces away → missed with a 2").
func (v *View) Narrate(e engine.Event, s board.Snapshot) string { return Narrate(e, s) }

// Narrate is [View.Narrate] without a view.
func Narrate(e engine.Event, s board.Snapshot) string {
	switch e.Kind {
	case "roll":
		if strings.HasSuffix(e.Text, " (fire)") || strings.HasSuffix(e.Text, " (defense)") {
			return ""
		}
	case "fire":
		if e.Seat == 0 || e.Seat == 1 {
			foe := board.Possessive(s.Name(1 - e.Seat))
			return s.Say(e.Words().Edit(func(t string) string {
				return shotAt.ReplaceAllString(t, "${1}"+strings.ReplaceAll(foe, "$", "$$")+" ${2}")
			}))
		}
	case "hit", "miss":
		_, rest, ok := board.AfterSeat(e.Words())
		if m := shotResult.FindStringSubmatch(rest); ok && m != nil {
			return m[1] + " with a " + m[2]
		}
	}
	return e.Say(s.Name)
}
