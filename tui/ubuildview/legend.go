package ubuildview

import (
	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// legend says what each sign of the board and the fleet tables means, a
// line each, short enough for the room the fleet tables leave at 80x24
// (it shows in their place). legendHelp says the same in one sentence for
// the help, where it is read whole whatever the room.
var legend = []string{
	style.Water + " water, not shot  " + style.Ship + " ship  " + style.Marked + " marked shot",
	style.Miss + " miss  " + style.Hit + " hit  " + style.Sunk + " sunk  " + style.Hit + " 2/4 hits of 4",
	style.Ship + style.Ship + style.Ghost + " weapons left, then lost",
	style.Ghost + " ship being placed  " + style.Clash + " it cannot go there",
	style.Pointer + " the ship picked to fire (or being placed)",
}

const legendHelp = "show what the board's signs mean in place of the fleet tables (again: hide it): " +
	style.Water + " water nobody shot at; " + style.Ship + " a ship, or a weapon still on it; " +
	style.Marked + " a shot marked for the next volley; " + style.Miss + " a miss; " + style.Hit + " a hit, and " +
	style.Hit + " 2/4 a ship with 2 hits of the 4 that sink it; " + style.Sunk + " a sunk ship; " +
	style.Ghost + " the ship being placed, or a weapon lost; " + style.Clash + " the ship being placed cannot go there; " +
	style.Pointer + " the ship picked to fire or being placed"

// legendBinding is the g key, in every mode: it asks nothing of the match.
func (v *View) legendBinding() keys.Binding {
	return board.LegendBinding(legendHelp, func() { v.legendOn = !v.legendOn })
}

// drawLegend draws the legend in the rectangle, as many lines as fit.
func (v *View) drawLegend(scr tcell.Screen, x, y, w, h int) {
	board.DrawLegend(scr, v.th, legend, x, y, w, h)
}
