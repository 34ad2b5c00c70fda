package oceansview

import (
	"regexp"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
)

// Glyphs of this board beyond the shared ones of package style: each state
// of a card has its own shape, so the board reads the same without colour.
const (
	glyphBack     = "▒" // a facedown card the viewer does not know
	glyphHidden   = "□" // a facedown card the viewer knows (its owner, or the audit)
	glyphUp       = "■" // a card turned faceup: both players know it
	glyphBlockade = "⊘" // a task force that may not grow this turn
	glyphBattle   = "⚔" // the ocean where a battle is fought
	glyphGone     = "✖" // a card played or destroyed in battle
)

// code is each card's two-letter code on the table (hull classification
// symbols where the card is a ship).
var code = map[oceans.Card]string{
	oceans.NoCard:       glyphBack + glyphBack,
	oceans.Battleship:   "BB",
	oceans.Carrier:      "CV",
	oceans.Fighter:      "FP",
	oceans.Submarine:    "SS",
	oceans.Destroyer:    "DD",
	oceans.PTBoat:       "PT",
	oceans.Minefield:    "MF",
	oceans.DepthCharges: "DC",
	oceans.Surprise:     "ES",
}

// shortName is a card's name in at most ten cells.
var shortName = map[oceans.Card]string{
	oceans.Battleship:   "Battleship",
	oceans.Carrier:      "Carrier",
	oceans.Fighter:      "Fighter",
	oceans.Submarine:    "Submarine",
	oceans.Destroyer:    "Destroyer",
	oceans.PTBoat:       "PT Boat",
	oceans.Minefield:    "Minefield",
	oceans.DepthCharges: "Depth Chg.",
	oceans.Surprise:     "Surprise",
}

// value is what a card is worth in battle, as printed on it.
var value = map[oceans.Card]string{
	oceans.Battleship:   "4",
	oceans.Carrier:      "2",
	oceans.Fighter:      "1/3",
	oceans.Submarine:    "2/5",
	oceans.Destroyer:    "2",
	oceans.PTBoat:       "1",
	oceans.Minefield:    "0",
	oceans.DepthCharges: "0",
	oceans.Surprise:     "–",
}

// commandText says what a card's special command does when it is
// discarded (DATA.md house rows).
var commandText = map[oceans.Card]string{
	oceans.Battleship:   "no command",
	oceans.Carrier:      "reveal up to 2 cards of one enemy task force",
	oceans.Fighter:      "reveal 1 enemy card",
	oceans.Submarine:    "destroy a revealed enemy Destroyer or PT Boat",
	oceans.Destroyer:    "destroy a revealed enemy Submarine",
	oceans.PTBoat:       "blockade an ocean for the enemy's next turn",
	oceans.Minefield:    "no command (it works in battle)",
	oceans.DepthCharges: "no command (it works in battle)",
	oceans.Surprise:     "no attack and no second card for the enemy next turn",
}

// oceanLabel is an ocean's name in at most seven cells.
var oceanLabel = [oceans.NumOceans]string{"N.Atl.", "S.Atl.", "Pacific", "Indian", "Arctic"}

// cardWith names a card with its code: "BB Battleship".
func cardWith(c oceans.Card) string {
	if !c.Valid() {
		return "a facedown card"
	}
	return code[c] + " " + c.String()
}

// anVowel finds "a" before a card named with a vowel ("a Aircraft
// Carrier" in the engine's texts).
var anVowel = regexp.MustCompile(`\ba ([AEIOU])`)

// anBeforeVowel puts "an" before a vowel in the engine's words.
func anBeforeVowel(text string) string { return anVowel.ReplaceAllString(text, "an $1") }

// youVerbs are the verbs of the engine's event texts, with the form that
// agrees with "you".
var youVerbs = map[string]string{
	"plays": "play", "reveals": "reveal", "draws": "draw", "discards": "discard", "deploys": "deploy",
	"wins": "win", "attacks": "attack", "controls": "control", "is": "are", "must": "must", "may": "may", "drew": "drew",
}

// sayTo tells w with the players' names of snap for its seats, and "you"
// for the seat me (with the verb and possessives agreeing) unless me is
// NoSeat. It reads the seats from the words' parts, never from the text:
// a player's name is never taken for a seat, nor changed.
func sayTo(w engine.Words, me engine.Seat, snap board.Snapshot) string {
	parts := w.Parts()
	var b strings.Builder
	for i, p := range parts {
		switch {
		case !p.IsSeat:
			b.WriteString(anBeforeVowel(p.Text))
		case p.Seat != me || me == engine.NoSeat:
			b.WriteString(snap.Name(p.Seat))
		case i+1 < len(parts) && !parts[i+1].IsSeat && strings.HasPrefix(parts[i+1].Text, "'s"):
			b.WriteString("your")
			parts[i+1].Text = parts[i+1].Text[len("'s"):]
		case i == 0 && len(parts) > 1 && !parts[1].IsSeat:
			b.WriteString("you")
			parts[1].Text = agreeWithYou(parts[1].Text)
		default:
			b.WriteString("you")
		}
	}
	return b.String()
}

// agreeWithYou makes the words after "you" at the start of an event agree
// with it: " plays its card" becomes " play your card".
func agreeWithYou(rest string) string {
	word, tail, _ := strings.Cut(strings.TrimPrefix(rest, " "), " ")
	vb, ok := youVerbs[word]
	if !ok || !strings.HasPrefix(rest, " ") {
		return rest
	}
	return " " + vb + " " + strings.Replace(tail, "its ", "your ", 1)
}

// cardIn finds the card an event text names (the longest name that fits).
func cardIn(text string) oceans.Card {
	best, bestLen := oceans.NoCard, 0
	for _, c := range oceans.Cards() {
		if n := c.String(); len(n) > bestLen && strings.Contains(text, n) {
			best, bestLen = c, len(n)
		}
	}
	return best
}
