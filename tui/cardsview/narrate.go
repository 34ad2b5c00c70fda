package cardsview

import (
	"regexp"
	"strconv"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
)

var (
	// playText is the engine's words of a card play after the player
	// ([board.AfterSeat]): " plays tap red2 deck/1[17] at B3" (cards.Move's
	// String).
	playText = regexp.MustCompile(`^ plays (\S+)(?: (\S+) deck/(\d+)\[(\d+)\])?` +
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
		if m, ok := parsePlay(e.Words()); ok {
			return s.Name(e.Seat) + " " + describeMove(m)
		}
	case "reshuffle":
		return s.Say(e.Words().Edit(func(t string) string { return newPile.ReplaceAllString(t, "") }))
	}
	return e.Say(s.Name)
}

// parsePlay reads the move back from the engine's words of a play, after
// the seat that plays.
func parsePlay(w engine.Words) (cards.Move, bool) {
	_, rest, ok := board.AfterSeat(w)
	p := playText.FindStringSubmatch(rest)
	if !ok || p == nil {
		return cards.Move{}, false
	}
	var m cards.Move
	ok = named(p[1], &m.Action) && (p[2] == "" || named(p[2], &m.Face)) &&
		(p[7] == "" || named(p[7], &m.Ship)) && (p[8] == "" || named(p[8], &m.Ship))
	m.Card = cards.CardRef{Deck: atoi(p[3]), Leaf: atoi(p[4])}
	if p[5] != "" {
		m.Pos = int(p[5][0]-'A')*cards.GridCols + atoi(p[6]) - 1
	}
	m.Peg = atoi(p[9])
	for _, r := range refText.FindAllStringSubmatch(p[10], -1) {
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
