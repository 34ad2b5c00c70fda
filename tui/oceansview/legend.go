package oceansview

import (
	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// legend says what each sign of the table means, a line each, short
// enough for the room below the hands at 80x24 (it shows in place of the
// latest changes). legendHelp says the same in one sentence for the help.
var legend = []string{
	glyphBack + glyphBack + " facedown, unknown to you  " + glyphHidden + "CV facedown, yours",
	glyphUp + "CV faceup  " + glyphGone + " gone in battle  " + style.Marked + " marked target",
	style.Pointer + " picked ocean  " + glyphBattle + " battle  " + glyphBlockade + " blockaded",
	style.OK + " ocean won  " + style.Fail + " ocean the other player won",
	"BB Battleship  CV Carrier  FP Fighter Plane",
	"SS Submarine  DD Destroyer  PT PT Boat",
	"MF Minefield  DC Depth Charges",
	"ES Element of Surprise",
}

const legendHelp = "show what the table's signs mean in place of the latest changes (again: hide it): " +
	glyphBack + glyphBack + " a facedown card you do not know; " + glyphHidden + "CV a facedown card you know (yours); " +
	glyphUp + "CV a card turned faceup; the codes: BB Battleship, CV Aircraft Carrier, FP Fighter Plane, SS Submarine, " +
	"DD Destroyer, PT PT Boat, MF Minefield, DC Depth Charges, ES Element of Surprise; " +
	style.Pointer + " the picked ocean; " + glyphBattle + " the ocean of a battle; " + glyphBlockade + " a task force blockaded this turn; " +
	style.Marked + " a command's marked target; " + glyphGone + " a card played or destroyed in battle; " +
	style.OK + " an ocean won; " + style.Fail + " an ocean the other player won"

// legendBinding is the g key: it asks nothing of the match.
func (v *View) legendBinding() keys.Binding {
	return board.LegendBinding(legendHelp, func() { v.legendOn = !v.legendOn })
}

// drawLegend draws the legend in the rectangle, as many lines as fit.
func (v *View) drawLegend(scr tcell.Screen, x, y, w, h int) {
	board.DrawLegend(scr, v.th, legend, x, y, w, h)
}
