package ubuildview

import (
	"regexp"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/board"
)

// rootSuffix is the short commitment root the engine puts after "committed
// its grid": the verification pane's business, not the feed's.
var rootSuffix = regexp.MustCompile(` \([0-9a-f]{6,}\)$`)

// Narrate tells a U-Build event with the players' names (a volley's
// answers join the volley's line in the feed).
func (v *View) Narrate(e engine.Event, s board.Snapshot) string { return Narrate(e, s) }

// Narrate is [View.Narrate] without a view.
func Narrate(e engine.Event, s board.Snapshot) string {
	if e.Kind == "commit" {
		return s.Say(e.Words().Edit(func(t string) string { return rootSuffix.ReplaceAllString(t, "") }))
	}
	return e.Say(s.Name)
}
