package cards

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Face is the face of a destruction card, as committed in a deck leaf.
type Face uint8

// The destruction card faces. NoFace is the zero value and never a card.
const (
	NoFace      Face = iota
	White            // white peg card (one peg)
	Red1             // red peg card, one peg
	Red2             // red peg card, two pegs
	Red4             // red peg card, four pegs
	ShieldCard       // power card: Shield
	DiscardPlay      // power card: "Discard white peg cards" or "Play 2 more cards"
	RepairDraw       // power card: "Repair a ship, then play a card" or "Draw 3 cards, then play one"
	numFaces
)

// NumFaces is one more than the largest Face value, for arrays indexed by Face.
const NumFaces = int(numFaces)

var faceNames = [...]string{"none", "white", "red1", "red2", "red4", "shield", "discard-or-play2", "repair-or-draw3"}

// String returns the face's name as used in moves ("white", "red2", "shield", …).
func (f Face) String() string {
	if int(f) < len(faceNames) {
		return faceNames[f]
	}
	return fmt.Sprintf("face(%d)", uint8(f))
}

// Valid reports whether f is a real card face.
func (f Face) Valid() bool { return f > NoFace && f < numFaces }

// IsPeg reports whether f is a white or red peg card.
func (f Face) IsPeg() bool { return f >= White && f <= Red4 }

// IsRed reports whether f is a red peg card.
func (f Face) IsRed() bool { return f >= Red1 && f <= Red4 }

// IsPower reports whether f is a power card.
func (f Face) IsPower() bool { return f >= ShieldCard && f <= RepairDraw }

// Pegs returns the number of pegs printed on a peg card (0 for power cards).
func (f Face) Pegs() int {
	switch f {
	case White, Red1:
		return 1
	case Red2:
		return 2
	case Red4:
		return 4
	}
	return 0
}

// MarshalText encodes the face by name (a value that is no face encodes as a
// name that UnmarshalText rejects).
func (f Face) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText decodes a face name; an unknown name is illegal input.
func (f *Face) UnmarshalText(b []byte) error {
	for i := White; i < numFaces; i++ {
		if faceNames[i] == string(b) {
			*f = i
			return nil
		}
	}
	return engine.Illegal("unknown card face %q", b)
}

// Ship is one of the five ships of a fleet. NoShip stands for a miss card in
// the coordinate grid.
type Ship uint8

// The ships, in the order of their power table. NoShip is a miss card.
const (
	NoShip     Ship = iota
	Carrier         // Aircraft Carrier
	Battleship      // Battleship
	Destroyer       // Destroyer
	Submarine       // Submarine
	PTBoat          // PT Boat
	numShips
)

// NumShips is one more than the largest Ship value, for arrays indexed by Ship.
const NumShips = int(numShips)

// Ships lists the five ships in a fixed order.
var Ships = [...]Ship{Carrier, Battleship, Destroyer, Submarine, PTBoat}

var shipNames = [...]string{"miss", "carrier", "battleship", "destroyer", "submarine", "ptboat"}
var shipTitles = [...]string{"Miss", "Aircraft Carrier", "Battleship", "Destroyer", "Submarine", "PT Boat"}

// String returns the ship's short name as used in moves ("carrier", "ptboat"), or "miss".
func (k Ship) String() string {
	if int(k) < len(shipNames) {
		return shipNames[k]
	}
	return fmt.Sprintf("ship(%d)", uint8(k))
}

// Title returns the ship's full name, such as "Aircraft Carrier".
func (k Ship) Title() string {
	if int(k) < len(shipTitles) {
		return shipTitles[k]
	}
	return k.String()
}

// Valid reports whether k is one of the five ships (not a miss).
func (k Ship) Valid() bool { return k > NoShip && k < numShips }

// Hits returns the number of hits that sink the ship (DATA.md).
func (k Ship) Hits() int {
	if !k.Valid() {
		return 0
	}
	return shipHits[k]
}

// MarshalText encodes the ship by name (a value that is no ship encodes as a
// name that UnmarshalText rejects).
func (k Ship) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText decodes a ship name; an unknown name is illegal input.
func (k *Ship) UnmarshalText(b []byte) error {
	for i := Carrier; i < numShips; i++ {
		if shipNames[i] == string(b) {
			*k = i
			return nil
		}
	}
	return engine.Illegal("unknown ship %q", b)
}
