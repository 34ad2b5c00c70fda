package airview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/style"
)

// The board's glyphs and the short forms of cards: the view's house
// choices, all in this file. Every state has its own shape, so the board
// reads the same without colour.
const (
	gEmpty    = style.Water  // an empty space
	gMissile  = "◦"          // a space in the missile cone
	gCannon   = "•"          // a space on a cannon line
	gTarget   = style.Marked // before the selected target
	gActing   = style.Pointer
	gWingman  = "+" // a space the wingman move can reach
	gHit      = style.Hit
	gIntact   = style.Ghost
	gDown     = style.Sunk // a plane shot down
	gF35      = "5"        // the F-35's mark after its squadron's letter
	gF22      = "2"        // the F-22's
	gDone     = style.OK   // a card whose turn is over
	gFaceDown = "??"       // a card not yet turned over
)

// headingArrow draws a heading (rows are drawn upward, so North is up).
var headingArrow = [8]string{"↑", "↗", "→", "↘", "↓", "↙", "←", "↖"}

// turnArrow draws a maneuver's direction relative to the plane's heading.
var turnArrow = [3]string{"↑", "↖", "↗"}

// kindLetter and kindWord name a card's kind, short and long.
var (
	kindLetter = [3]string{"S", "W", "D"}
	kindWord   = [3]string{"standard", "wingman", "disruption"}
)

// squadronLetter is the first letter of each squadron (Blue, Fire, Eagle,
// Tiger).
func squadronLetter(seat int) string {
	if seat < 0 || seat >= len(air.Squadron) {
		return "?"
	}
	return air.Squadron[seat][:1]
}

// planeGlyph is a plane on the board, such as "B5↑": its squadron's
// letter, its model (5 for the F-35, 2 for the F-22) and its heading.
func planeGlyph(p air.Plane) string {
	return planeMark(p) + headingArrow[p.Heading&7]
}

// planeMark is a plane's short name, such as "B5".
func planeMark(p air.Plane) string {
	m := gF35
	if p.Kind == air.F22 {
		m = gF22
	}
	return squadronLetter(int(p.Seat)) + m
}

// maneuverText is a maneuver in two cells, such as "↖4".
func maneuverText(m air.Maneuver) string {
	t := int(m.Turn)
	if t < 0 || t >= len(turnArrow) {
		t = 0
	}
	return fmt.Sprintf("%s%d", turnArrow[t], m.Dice)
}

// cardShort is a card in at most eight cells, such as "12W↖4" or
// "15D↑1↗4".
func cardShort(c air.Card) string {
	s := fmt.Sprintf("%2d%s%s", c.Number, kindLetter[c.Kind%3], maneuverText(c.Own))
	if c.Kind == air.Disruption {
		s += maneuverText(c.Opp)
	}
	return s
}

// cardLong is a card in words, such as "#12 wingman ↖4" or "#15
// disruption ↑1, foe ↗4".
func cardLong(c air.Card) string {
	s := fmt.Sprintf("#%-2d %-10s %s", c.Number, kindWord[c.Kind%3], maneuverText(c.Own))
	if c.Kind == air.Disruption {
		s += " foe " + maneuverText(c.Opp)
	}
	return s
}

// cardWords is a card in words with single spaces, such as "#15
// disruption ↑1 foe ↗4".
func cardWords(c air.Card) string { return strings.Join(strings.Fields(cardLong(c)), " ") }

// legend lists the glyphs in words, a line each.
var legend = []string{
	"B5↑ a plane: squadron (Blue Fire Eagle Tiger), 5 F-35 or 2 F-22, heading",
	gActing + " the plane acting or selected   " + gTarget + " its target   " + gWingman + " a wingman space",
	gMissile + " missile cone   " + gCannon + " cannon line (of the selected plane and weapon)",
	"12W↖4 card 12: S standard, W wingman, D disruption; ↑ straight,",
	"  ↖ bank left, ↗ bank right; 4 black dice (a D card: own, then foe)",
	"F T W E C fuel tank, tail, wings, engine, cockpit: " + gIntact + " intact " + gHit + " hit",
	"m5 missiles left   " + gDown + " shot down   " + gDone + " turn done   " + gFaceDown + " face down",
}

// legendHelp is the legend in one sentence, for the help.
const legendHelp = "show the legend below the board (again: hide it): B5↑ is the Blue F-35 heading north " +
	"(squadrons Blue, Fire, Eagle, Tiger; 5 the F-35, 2 the F-22); › the acting or selected plane, ◎ its target, " +
	"+ a wingman space; ◦ the missile cone, • the cannon lines; a card 12W↖4 is number 12, wingman, bank left " +
	"with 4 black dice; F T W E C are fuel tank, tail, wings, engine and cockpit, □ intact and ✕ hit"
