package ubuildview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// The board explains its signs: g shows a legend that fits whole in the
// board's room at 80x24 (in place of the fleet tables), and the help line
// of g says every sign in words.
func TestLegendExplainsEverySign(t *testing.T) {
	m := fireMatch(t)
	v := newView()
	askFire(t, m, v)
	var g keys.Binding
	for _, b := range v.Bindings() {
		if b.Label == "g" {
			g = b
		}
	}
	if g.Run == nil || g.Hidden {
		t.Fatal("no g (legend) key on the key bar")
	}
	for _, glyph := range []string{style.Water, style.Ship, style.Marked, style.Miss, style.Hit, style.Sunk, style.Ghost, style.Clash, style.Pointer} {
		if !strings.Contains(g.Help, glyph) {
			t.Errorf("the legend's help does not explain %s: %s", glyph, g.Help)
		}
	}
	g.Run()
	_, txt := boardtest.RenderText(t, v, 51, 22)
	for _, line := range legend {
		if !strings.Contains(txt, line) {
			t.Errorf("the legend line %q is not drawn whole\n%s", line, txt)
		}
	}
	g.Run()
	if _, txt := boardtest.RenderText(t, v, 51, 22); strings.Contains(txt, legend[0]) || !strings.Contains(txt, "Enemy fleet") {
		t.Errorf("g again does not give the fleet tables back\n%s", txt)
	}
}
