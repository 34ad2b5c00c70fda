package cardsview

import (
	"regexp"
	"strconv"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
)

var (
	// playText is the engine's text of a card play: "seat 1 plays tap
	// red2 deck/1[17] at B3" (cards.Move's String after the player).
	playText = regexp.MustCompile(`^(seat \d+) plays (\S+)(?: (\S+) deck/(\d+)\[(\d+)\])?` +
		`(?: at ([A-C])(\d))?(?: on (\w+))?(?: (\w+) peg (\d+))?(?: \[(.*)\])?$`)
	// refText is a card's place in a deck, as the engine writes it.
	refText = regexp.MustCompile(`deck/(\d+)\[(\d+)\]`)
	// newPile is the engine's name of a reshuffled draw pile.
	newPile = regexp.MustCompile(` \(deck/\d+\)$`)
)

// Narrate tells a coordinate-card event in the players' words: a play as
// the verification log describes the move ("bob taps B3 with a red 2-peg
// card"), never the decks' internal names.
func (v *View) Narrate(e engine.Event, s board.Snapshot) string { return Narrate(e, s) }

// Narrate is [View.Narrate] without a view.
func Narrate(e engine.Event, s board.Snapshot) string {
	switch e.Kind {
	case "play":
		if m, ok := parsePlay(e.Text); ok {
			return s.Name(e.Seat) + " " + describeMove(m)
		}
	case "reshuffle":
		return newPile.ReplaceAllString(e.Say(s.Name), "")
	}
	return e.Say(s.Name)
}

// parsePlay reads the move back from the engine's text of a play.
func parsePlay(text string) (cards.Move, bool) {
	p := playText.FindStringSubmatch(text)
	if p == nil {
		return cards.Move{}, false
	}
	var m cards.Move
	ok := named(p[2], &m.Action) && (p[3] == "" || named(p[3], &m.Face)) &&
		(p[8] == "" || named(p[8], &m.Ship)) && (p[9] == "" || named(p[9], &m.Ship))
	m.Card = cards.CardRef{Deck: atoi(p[4]), Leaf: atoi(p[5])}
	if p[6] != "" {
		m.Pos = int(p[6][0]-'A')*cards.GridCols + atoi(p[7]) - 1
	}
	m.Peg = atoi(p[10])
	for _, r := range refText.FindAllStringSubmatch(p[11], -1) {
		m.Discard = append(m.Discard, cards.CardRef{Deck: atoi(r[1]), Leaf: atoi(r[2])})
	}
	return m, ok
}

// named sets *v to the value whose String is name, trying the first 32.
func named[T interface {
	~uint8
	String() string
}](name string, v *T) bool {
	for i := range T(32) {
		if i.String() == name {
			*v = i
			return true
		}
	}
	return false
}

// atoi reads a number of a matched text ("" reads 0).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
