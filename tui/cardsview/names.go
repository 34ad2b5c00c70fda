package cardsview

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/style"
)

// Glyphs of this board beyond the shared ones of package style. Each state
// of a card keeps its own shape, so the board reads the same without colour.
const (
	glyphBack    = "▒" // a facedown coordinate card (nobody knows what it is)
	glyphWhite   = "○" // a white peg card
	glyphRed     = "●" // a red peg card
	glyphShield  = "◆" // a Shield, on a card or on a ship
	glyphPower   = "✦" // a two-power card
	glyphPowerOn = "★" // a ship whose power is in force
)

// legend says what each glyph of this board means, a line each, in the
// order a player meets them; legendHelp is the same in one sentence, for the
// help (where it is read whole even when the board has no room for it).
var legend = []string{
	glyphBack + " facedown card  " + style.Miss + " miss",
	style.Ship + " ship  " + style.Hit + "2/4 hits of 4  " + style.Sunk + " sunk",
	glyphWhite + " white peg  " + glyphRed + "2 red, 2 pegs  " + glyphShield + " Shield",
	glyphPower + " two-power card  " + glyphPowerOn + " power on  " + style.Marked + " tapped",
}

const legendHelp = "show what the board's glyphs mean (again: hide it): " +
	glyphBack + " a facedown coordinate card; " + style.Miss + " a miss card; " + style.Ship + " a ship, " +
	style.Hit + "2/4 the hits it took of those that sink it; " + style.Sunk + " a sunk ship; " +
	glyphWhite + " a white peg card; " + glyphRed + "2 a red peg card of 2 pegs; " +
	glyphShield + " a Shield, on a ship with the hits it took of 3; " + glyphPower + " a two-power card (discard/play 2, repair/draw 3); " +
	glyphPowerOn + " a ship whose power is in force; " + style.Marked + " the card being tapped"

// refWords names a card of a player's deck as a player would: "card 18 of
// deck 1" (the first deck; deck 2 is the first reshuffle), not the
// commitment's leaf "deck/1[17]".
func refWords(c cards.CardRef) string { return fmt.Sprintf("card %d of deck %d", c.Leaf+1, c.Deck) }

// faceShort names a destruction card in a few cells: "○W", "●2", "◆Sh".
func faceShort(f cards.Face) string {
	switch f {
	case cards.White:
		return glyphWhite + "W"
	case cards.Red1, cards.Red2, cards.Red4:
		return fmt.Sprintf("%s%d", glyphRed, f.Pegs())
	case cards.ShieldCard:
		return glyphShield + "Sh"
	case cards.DiscardPlay:
		return glyphPower + "D/P2"
	case cards.RepairDraw:
		return glyphPower + "R/D3"
	}
	return "?"
}

// faceLabel names a destruction card with its glyph: "● red 2".
func faceLabel(f cards.Face) string {
	switch f {
	case cards.White:
		return glyphWhite + " white peg"
	case cards.Red1, cards.Red2, cards.Red4:
		return fmt.Sprintf("%s red %d", glyphRed, f.Pegs())
	case cards.ShieldCard:
		return glyphShield + " shield"
	case cards.DiscardPlay:
		return glyphPower + " discard/play 2"
	case cards.RepairDraw:
		return glyphPower + " repair/draw 3"
	}
	return "? unknown card"
}

// faceWords names a destruction card in a sentence: "a red 2-peg card".
func faceWords(f cards.Face) string {
	switch f {
	case cards.White:
		return "a white peg card"
	case cards.Red1, cards.Red2, cards.Red4:
		return fmt.Sprintf("a red %d-peg card", f.Pegs())
	case cards.ShieldCard:
		return "a Shield"
	case cards.DiscardPlay:
		return `a "Discard white peg cards / Play 2 more cards" card`
	case cards.RepairDraw:
		return `a "Repair a ship / Draw 3 cards" card`
	}
	return "an unknown card"
}

// faceStyle is the style a card face is drawn in.
func faceStyle(th *style.Theme, f cards.Face) tcell.Style {
	switch {
	case f.IsRed():
		return th.Hit
	case f == cards.White:
		return th.Base
	case f.Valid():
		return th.Accent
	}
	return th.Dim
}

// pegsShort lists peg cards compactly: "●2●1○".
func pegsShort(fs []cards.Face) string {
	var b strings.Builder
	for _, f := range fs {
		if f == cards.White {
			b.WriteString(glyphWhite)
			continue
		}
		fmt.Fprintf(&b, "%s%d", glyphRed, f.Pegs())
	}
	return b.String()
}

// powerText says what a ship's power does while it is in force.
func powerText(k cards.Ship) string {
	switch k {
	case cards.Carrier:
		return "hand 7"
	case cards.Battleship:
		return "red +1"
	case cards.Destroyer:
		return "whites hit"
	case cards.Submarine:
		return "whites only"
	case cards.PTBoat:
		return "repairs"
	}
	return ""
}

// shipName is a ship's name in at most ten cells.
func shipName(k cards.Ship) string {
	if k == cards.Carrier {
		return "Carrier"
	}
	return k.Title()
}
