package ubuild

import "fmt"

// Ship is one of the five ships of a fleet, by its index in the fixed order.
type Ship int8

// The ships of a fleet, in their fixed order. NoShip marks water or a turn
// that names no ship (classic).
const (
	Battleship Ship = iota
	Carrier
	Destroyer
	Submarine
	PTBoat

	NoShip Ship = -1
)

// NumShips is the number of ships of a fleet.
const NumShips = 5

// shipTable holds each ship's move name, full name and locator-plate number
// (its length and the hits that sink it).
var shipTable = [NumShips]struct {
	key, name string
	plate     int
}{
	{"battleship", "Battleship", 5},
	{"carrier", "Aircraft Carrier", 4},
	{"destroyer", "Destroyer", 3},
	{"submarine", "Submarine", 3},
	{"ptboat", "PT Boat", 2},
}

// Valid reports whether s is one of the five ships.
func (s Ship) Valid() bool { return s >= 0 && s < NumShips }

// Key returns the short name used in moves, such as "carrier"; "" for NoShip.
func (s Ship) Key() string {
	if !s.Valid() {
		return ""
	}
	return shipTable[s].key
}

// Name returns the ship's full name, such as "Aircraft Carrier".
func (s Ship) Name() string {
	if !s.Valid() {
		return "no ship"
	}
	return shipTable[s].name
}

// Plate returns the number on the ship's locator plate: its length, its
// standard weapon count and the hits that sink it. 0 for NoShip.
func (s Ship) Plate() int {
	if !s.Valid() {
		return 0
	}
	return shipTable[s].plate
}

// String returns the short name, or "ship(n)" for an invalid value.
func (s Ship) String() string {
	if s.Valid() {
		return shipTable[s].key
	}
	if s == NoShip {
		return "none"
	}
	return fmt.Sprintf("ship(%d)", int(s))
}

// ShipByKey returns the ship whose short name is key ("battleship",
// "carrier", "destroyer", "submarine", "ptboat").
func ShipByKey(key string) (Ship, bool) { return shipByKey(key) }

// shipByKey is ShipByKey for a string or a move's bytes.
func shipByKey[T string | []byte](key T) (Ship, bool) {
	for i := range shipTable {
		if shipTable[i].key == string(key) {
			return Ship(i), true
		}
	}
	return NoShip, false
}

// StandardWeapons returns the weapons of a standard fleet: each ship's plate
// number.
func StandardWeapons() [NumShips]int {
	var w [NumShips]int
	for i := range w {
		w[i] = Ship(i).Plate()
	}
	return w
}
