package cardsview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/keys"
)

// The board explains its glyphs: g shows a legend that fits whole in the
// board's room at 80x24, and the help line of g says every glyph in words.
func TestLegendExplainsEveryGlyph(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, myTurnTable)
	v := newView()
	tb.Ask(v, 0)
	var g keys.Binding
	for _, b := range v.Bindings() {
		if b.Label == "g" {
			g = b
		}
	}
	if g.Run == nil {
		t.Fatal("no g (legend) key")
	}
	for _, glyph := range []string{glyphBack, glyphWhite, glyphRed, glyphShield, glyphPower, glyphPowerOn, "✕", "✖", "■", "◎"} {
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
}

func myTurnTable(tb *table) bool { return myTurn(0)(tb.G) }

// Moves are told with player words, not the deck commitment's leaf names.
func TestMovesNameCardsInPlayerWords(t *testing.T) {
	m := cards.Move{Action: cards.Tap, Card: cards.CardRef{Deck: 2, Leaf: 17}, Face: cards.Red2, Pos: 6}
	if got := DescribeMove(m.Encode()); strings.Contains(got, "deck/") || !strings.Contains(got, "card 18 of deck 2") {
		t.Fatalf("DescribeMove = %q", got)
	}
}
