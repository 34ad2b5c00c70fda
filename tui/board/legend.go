package board

import (
	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// LegendBinding is a board's g key: it shows or hides the legend of the
// board's signs (help says each in words) and asks nothing of the match,
// so it stays on the key bar in every mode.
func LegendBinding(help string, toggle func()) keys.Binding {
	return keys.Binding{Keys: []keys.Key{keys.R('g')}, Label: "g", Hint: "legend", Help: help, Run: toggle}
}

// DrawLegend draws a legend's heading and as many of its lines as fit in
// the rectangle.
func DrawLegend(scr tcell.Screen, th *style.Theme, lines []string, x, y, w, h int) {
	style.Print(scr, x, y, w, th.Accent, "Legend (g hides it)")
	for i, l := range lines {
		if i+1 >= h {
			return
		}
		style.Print(scr, x, y+1+i, w, th.Base, l)
	}
}
