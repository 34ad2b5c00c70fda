package oceansview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// The table explains its signs: g shows a legend that fits whole in the
// board's room at 80x24 (in place of the latest changes), and the help line
// of g says every sign and card code in words.
func TestLegendExplainsEverySign(t *testing.T) {
	tb := findMove(t, inPhase(oceans.PhasePlay))
	v := newView()
	tb.Ask(v, 0)
	var g keys.Binding
	for _, b := range v.Bindings() {
		if b.Label == "g" {
			g = b
		}
	}
	if g.Run == nil || g.Hidden {
		t.Fatal("no g (legend) key on the key bar")
	}
	signs := []string{glyphBack, glyphHidden, glyphUp, glyphBlockade, glyphBattle, glyphGone, style.Pointer, style.Marked, style.OK, style.Fail}
	for c, s := range code {
		if c != oceans.NoCard {
			signs = append(signs, s)
		}
	}
	for _, sign := range signs {
		if !strings.Contains(g.Help, sign) {
			t.Errorf("the legend's help does not explain %s: %s", sign, g.Help)
		}
	}
	g.Run()
	_, txt := boardtest.RenderText(t, v, 51, 22)
	for _, line := range legend {
		if !strings.Contains(txt, line) {
			t.Errorf("the legend line %q is not drawn whole\n%s", line, txt)
		}
	}
}
