package sea

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Leaf encodings. A fighter's strength is one ASCII digit ("2", "3" or "4");
// a loaded missile is one ASCII letter ("S" for a Sidewinder, "H" for a
// Harpoon). Both are committed as leaves and decoded strictly when opened.

// Missile is the kind of missile a fighter carries.
type Missile uint8

// The missiles. MissileNone is also "not known to this viewer".
const (
	MissileNone Missile = iota
	Sidewinder
	Harpoon
)

// String returns the missile's name.
func (m Missile) String() string {
	switch m {
	case Sidewinder:
		return "Sidewinder"
	case Harpoon:
		return "Harpoon"
	default:
		return "none"
	}
}

// StrengthsName is the name of each seat's committed vector of fighter
// strengths (leaf i is fighter i's strength).
const StrengthsName = "strengths"

// LoadName returns the name of the n-th one-leaf missile commitment of the
// match (n from 1, counted over both seats so names are unique).
func LoadName(n int) string { return fmt.Sprintf("load/%d", n) }

// EncodeStrength returns the leaf for a fighter strength.
func EncodeStrength(s int) []byte { return []byte{byte('0' + s)} }

// DecodeStrength reads a strength leaf: exactly one digit from MinStrength to
// MaxStrength; anything else is an error wrapping engine.ErrIllegal.
func DecodeStrength(b []byte) (int, error) {
	if len(b) != 1 || b[0] < '0'+MinStrength || b[0] > '0'+MaxStrength {
		return 0, engine.Illegal("strength leaf %q is not one of %d-%d", b, MinStrength, MaxStrength)
	}
	return int(b[0] - '0'), nil
}

// EncodeMissile returns the leaf for a loaded missile.
func EncodeMissile(m Missile) []byte {
	if m == Harpoon {
		return []byte("H")
	}
	return []byte("S")
}

// DecodeMissile reads a missile leaf: exactly "S" or "H"; anything else is an
// error wrapping engine.ErrIllegal.
func DecodeMissile(b []byte) (Missile, error) {
	switch string(b) {
	case "S":
		return Sidewinder, nil
	case "H":
		return Harpoon, nil
	}
	return MissileNone, engine.Illegal("missile leaf %q is neither S nor H", b)
}

// StrengthSlot returns the slot holding fighter f's strength.
func StrengthSlot(owner engine.Seat, f int) engine.Slot {
	return engine.Slot{Owner: owner, Name: StrengthsName, Index: f}
}
