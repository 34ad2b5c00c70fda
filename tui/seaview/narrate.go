package seaview

import (
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/board"
)

// Narrate tells a Sea event with the players' names. A destroyer's roll
// to hit goes: the hit or miss after it names the die, and the feed puts
// that result on the line of the shot.
func (v *View) Narrate(e engine.Event, s board.Snapshot) string { return Narrate(e, s) }

// Narrate is [View.Narrate] without a view.
func Narrate(e engine.Event, s board.Snapshot) string {
	if e.Kind == "roll" && strings.HasSuffix(e.Text, " (fire)") {
		return ""
	}
	return s.Say(e.Text)
}
