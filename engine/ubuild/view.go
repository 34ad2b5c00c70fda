package ubuild

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Read-only views of the public state, for the UI and the bots. Seats other
// than 0 and 1 read as empty.

// Variant returns the match's variant: "standard", "classic", "custom" or
// another custom total such as "custom-17" ([CustomVariant]).
func (g *Game) Variant() string { return g.st.variant }

// FleetWeapons returns the weapons each fleet starts with in all: the
// custom variant's total the host chose ([FleetTotal]), or the standard 17.
func (g *Game) FleetWeapons() int {
	if g.st.custom() {
		return g.st.total
	}
	return MinFleetWeapons
}

// Phase returns the stage the match is in.
func (g *Game) Phase() Phase { return g.st.phase }

// Turn returns the number of the latest volley, from 1; 0 before the first.
func (g *Game) Turn() int { return g.st.turn }

// Attacker returns the seat whose turn it is: the one to fire, or the one
// whose volley awaits its answer; NoSeat before the coin flip.
func (g *Game) Attacker() engine.Seat { return g.st.attacker }

// FirstPlayer returns the seat the coin flip chose, or NoSeat before it.
func (g *Game) FirstPlayer() engine.Seat { return g.st.first }

// Winner returns the seat that sank the other's fleet, or NoSeat while both
// fleets float. It is set before the final reveal; [Game.Outcome] reports
// the result only once the reveal has passed.
func (g *Game) Winner() engine.Seat { return g.st.winner }

func validSeat(s engine.Seat) bool { return s == 0 || s == 1 }

// Received returns the shots seat's grid has received: for each cell, the
// answered result and the ship named (Unshot and NoShip if never called).
func (g *Game) Received(seat engine.Seat) [NumCells]Mark {
	if !validSeat(seat) {
		var m [NumCells]Mark
		for i := range m {
			m[i].Ship = NoShip
		}
		return m
	}
	return g.st.fleets[seat].marks
}

// Opened returns what cell c of seat's grid was opened as: the ship there,
// or NoShip for water; false while the cell is hidden.
func (g *Game) Opened(seat engine.Seat, c Cell) (Ship, bool) {
	if !validSeat(seat) || !c.Valid() {
		return NoShip, false
	}
	v := g.st.fleets[seat].cells[c]
	if v < 0 {
		return NoShip, false
	}
	return Ship(v - 1), true
}

// ShipStatus is the public status of one ship.
type ShipStatus struct {
	Ship    Ship
	Hits    int  // hits counted toward sinking (one weapon lost per hit)
	Sunk    bool // the ship is sunk
	Weapons int  // starting weapons; 0 while hidden (custom)
}

// WeaponsKnown reports whether the starting weapon count is public.
func (s ShipStatus) WeaponsKnown() bool { return s.Weapons > 0 }

// WeaponsLeft returns the weapons still on the ship (0 once sunk), and false
// while the count is hidden.
func (s ShipStatus) WeaponsLeft() (int, bool) {
	if s.Weapons == 0 {
		return 0, false
	}
	if s.Sunk {
		return 0, true
	}
	return s.Weapons - s.Hits, true
}

// Fleet returns the public status of each of seat's ships.
func (g *Game) Fleet(seat engine.Seat) [NumShips]ShipStatus {
	var out [NumShips]ShipStatus
	for s := range Ship(NumShips) {
		out[s].Ship = s
		if validSeat(seat) {
			f := &g.st.fleets[seat]
			out[s].Hits, out[s].Sunk, out[s].Weapons = f.hits[s], f.sunk[s], f.weapons[s]
		}
	}
	return out
}

// ShipsLeft returns how many of seat's ships are afloat.
func (g *Game) ShipsLeft(seat engine.Seat) int {
	if !validSeat(seat) {
		return 0
	}
	n := 0
	for _, s := range g.st.fleets[seat].sunk {
		if !s {
			n++
		}
	}
	return n
}

// LastVolley returns the latest volley (a copy) with its answer once
// given; false before the first volley.
func (g *Game) LastVolley() (Volley, bool) {
	return g.st.last.clone(), g.st.hasLast
}

// Targets returns the cells seat may still shoot at: every cell of the
// opponent's grid that seat has not called, in cell order.
func (g *Game) Targets(seat engine.Seat) []Cell {
	if !validSeat(seat) {
		return nil
	}
	shot := g.st.fleets[1-seat].shot
	out := make([]Cell, 0, NumCells-shot.count())
	for c := range Cell(NumCells) {
		if !shot.has(c) {
			out = append(out, c)
		}
	}
	return out
}

// CanTarget reports whether seat may shoot at cell c: c is on the grid and
// seat has not called it before.
func (g *Game) CanTarget(seat engine.Seat, c Cell) bool {
	return validSeat(seat) && c.Valid() && !g.st.fleets[1-seat].shot.has(c)
}

// ShotsAllowed returns how many shots seat may fire with ship this turn:
// ClassicShots in classic (ship must be NoShip), else the weapons left on
// the afloat ship, read from sec while still hidden (custom); never more
// than the cells left to call.
func (g *Game) ShotsAllowed(seat engine.Seat, ship Ship, sec engine.Secrets) (int, error) {
	if !validSeat(seat) {
		return 0, fmt.Errorf("ubuild: no %s", seat)
	}
	left := NumCells - g.st.fleets[1-seat].shot.count()
	if g.st.variant == Classic {
		if ship != NoShip {
			return 0, fmt.Errorf("ubuild: the classic variant names no ship")
		}
		return min(ClassicShots, left), nil
	}
	if !ship.Valid() {
		return 0, fmt.Errorf("ubuild: name a ship")
	}
	f := &g.st.fleets[seat]
	if f.sunk[ship] {
		return 0, nil
	}
	w := f.weapons[ship]
	if w == 0 {
		var ok bool
		if w, ok = secretWeapons(sec, seat, ship); !ok {
			return 0, fmt.Errorf("ubuild: %s's %s weapons are unknown", seat, ship)
		}
	}
	return max(0, min(w-f.hits[ship], left)), nil
}

func secretWeapons(sec engine.Secrets, seat engine.Seat, ship Ship) (int, bool) {
	if sec == nil {
		return 0, false
	}
	v, ok := sec.Value(WeaponsSlot(seat, ship))
	if !ok || len(v) != 1 {
		return 0, false
	}
	return int(v[0]), true
}
