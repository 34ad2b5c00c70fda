package oceans

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// Card is a kind of fleet card. The zero value, NoCard, stands for a card
// that is not known (facedown) or absent.
type Card uint8

// The fleet cards.
const (
	NoCard       Card = iota // unknown or absent
	Battleship               // worth 4; no special command
	Carrier                  // worth 2; command: reveal up to 2 cards of one opposing task force
	Fighter                  // worth 1, or 3 beside a Carrier; command: reveal 1 opposing card
	Submarine                // worth 2, or 5 against no Destroyer; command: destroy a revealed Destroyer or PT Boat
	Destroyer                // worth 2; command: destroy a revealed Submarine
	PTBoat                   // worth 1, picks the Minefield's target; command: blockade an ocean
	Minefield                // worth 0; in battle destroys one surface ship
	DepthCharges             // worth 0; in battle destroys every opposing Submarine
	Surprise                 // Element of Surprise: command only (no attack, no second card next turn)
	numCards
)

var cardNames = [numCards]string{
	NoCard:       "facedown card",
	Battleship:   "Battleship",
	Carrier:      "Aircraft Carrier",
	Fighter:      "Fighter Plane",
	Submarine:    "Submarine",
	Destroyer:    "Destroyer",
	PTBoat:       "PT Boat",
	Minefield:    "Minefield",
	DepthCharges: "Depth Charges",
	Surprise:     "Element of Surprise",
}

// String returns the card's name as printed on it.
func (c Card) String() string {
	if c < numCards {
		return cardNames[c]
	}
	return fmt.Sprintf("card(%d)", uint8(c))
}

// Valid reports whether c is one of the nine fleet cards.
func (c Card) Valid() bool { return c > NoCard && c < numCards }

// CanJoin reports whether c may be played into a task force (every card but
// the Element of Surprise).
func (c Card) CanJoin() bool { return c.Valid() && c != Surprise }

// Zero reports whether c is a zero-valued card resolved first in battle.
func (c Card) Zero() bool { return c == Minefield || c == DepthCharges }

// Surface reports whether a Minefield can destroy c.
func (c Card) Surface() bool { return c < numCards && surfaceShip[c] }

// Cards lists the nine fleet cards in order.
func Cards() []Card {
	out := make([]Card, 0, numCards-1)
	for c := Card(1); c < numCards; c++ {
		out = append(out, c)
	}
	return out
}

// DeckCount returns how many copies of c each fleet deck holds.
func DeckCount(c Card) int {
	if !c.Valid() {
		return 0
	}
	return deckCounts[c]
}

// DeckList returns a full fleet deck, sorted by card: the leaves a seat
// commits (in any order it likes).
func DeckList() []Card {
	out := make([]Card, 0, DeckSize)
	for c := Card(1); c < numCards; c++ {
		for range deckCounts[c] {
			out = append(out, c)
		}
	}
	return out
}

// EncodeCard returns the leaf encoding of a card: one byte, the card's number.
func EncodeCard(c Card) []byte { return []byte{byte(c)} }

// DecodeCard decodes a leaf value from the network. Anything but one byte
// naming a fleet card is an error wrapping [engine.ErrIllegal].
func DecodeCard(b []byte) (Card, error) {
	if len(b) != 1 {
		return NoCard, engine.Illegal("card leaf has %d bytes, want 1", len(b))
	}
	c := Card(b[0])
	if !c.Valid() {
		return NoCard, engine.Illegal("card leaf holds %d, not a fleet card", b[0])
	}
	return c, nil
}

// Ocean is one of the five ocean cards, numbered 0 to NumOceans-1.
type Ocean int

// The oceans, in their order on the table.
const (
	NorthAtlantic Ocean = iota
	SouthAtlantic
	Pacific
	Indian
	Arctic
)

// Valid reports whether o names one of the five oceans.
func (o Ocean) Valid() bool { return o >= 0 && o < NumOceans }

// String returns the ocean's name.
func (o Ocean) String() string {
	if o.Valid() {
		return oceanNames[o]
	}
	return fmt.Sprintf("ocean(%d)", int(o))
}

// withArticle names a card with "a" or "an" before it, for event texts:
// "an Aircraft Carrier", "a Submarine".
func withArticle(c Card) string {
	name := c.String()
	if name != "" && strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}
