package cards

import (
	"github.com/salvo-game/salvo/engine"
)

// Leaf encoding: every committed leaf is exactly one byte. A coordinate leaf
// holds a Ship value (0 for a miss card); a deck leaf holds a Face value.

// EncodeCoord returns the leaf value of a coordinate card (NoShip for a miss).
func EncodeCoord(k Ship) []byte { return []byte{byte(k)} }

// DecodeCoord decodes a coordinate leaf; anything but one byte naming a ship
// or a miss is illegal.
func DecodeCoord(b []byte) (Ship, error) {
	if len(b) != 1 {
		return 0, engine.Illegal("coordinate card value has %d bytes, want 1", len(b))
	}
	k := Ship(b[0])
	if k >= numShips {
		return 0, engine.Illegal("coordinate card value %d is neither a ship nor a miss", b[0])
	}
	return k, nil
}

// EncodeCard returns the leaf value of a destruction card.
func EncodeCard(f Face) []byte { return []byte{byte(f)} }

// DecodeCard decodes a deck leaf; anything but one byte naming a card face is
// illegal.
func DecodeCard(b []byte) (Face, error) {
	if len(b) != 1 {
		return 0, engine.Illegal("card value has %d bytes, want 1", len(b))
	}
	f := Face(b[0])
	if !f.Valid() {
		return 0, engine.Illegal("card value %d is not a card face", b[0])
	}
	return f, nil
}

// CoordList returns the twelve coordinate cards of a seat (five ships and
// seven misses) in a fixed order; an agent commits them in any order.
func CoordList() []Ship {
	out := make([]Ship, 0, GridSize)
	for k := NoShip; k < numShips; k++ {
		for range coordCounts[k] {
			out = append(out, k)
		}
	}
	return out
}

// DeckList returns the destruction deck of a seat for the variant (26 cards,
// or 20 without power cards for "beginner") in a fixed order.
func DeckList(variant string) ([]Face, error) {
	v, err := parseVariant(variant)
	if err != nil {
		return nil, err
	}
	return countsToFaces(deckCounts(v)), nil
}

func deckCounts(v variant) [NumFaces]int {
	if v == beginner {
		return beginnerDeck
	}
	return standardDeck
}

func countsToFaces(c [NumFaces]int) []Face {
	var out []Face
	for f := White; f < numFaces; f++ {
		for range c[f] {
			out = append(out, f)
		}
	}
	return out
}

func countTotal(c [NumFaces]int) int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}
