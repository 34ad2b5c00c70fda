package ubuild

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// Placement is where one ship lies: its top or left end and its direction.
type Placement struct {
	Start    Cell `json:"start"`
	Vertical bool `json:"vertical"`
}

// mask returns the cells of a ship of length n at p, and false if it leaves
// the grid.
func (p Placement) mask(n int) (mask, bool) {
	var m mask
	if !p.Start.Valid() {
		return m, false
	}
	r, c := p.Start.Row(), p.Start.Col()
	if p.Vertical && r+n > Rows || !p.Vertical && c+n > Cols {
		return m, false
	}
	for i := range n {
		if p.Vertical {
			m.set(CellAt(r+i, c))
		} else {
			m.set(CellAt(r, c+i))
		}
	}
	return m, true
}

// Cells returns the cells a ship of length n covers at p, from the start; nil
// if it leaves the grid.
func (p Placement) Cells(n int) []Cell {
	m, ok := p.mask(n)
	if !ok {
		return nil
	}
	var cs []Cell
	m.each(func(c Cell) { cs = append(cs, c) })
	return cs
}

// Layout is a fleet's placement on its grid, indexed by [Ship].
type Layout [NumShips]Placement

// Validate reports whether every ship lies straight inside the grid and no
// two ships overlap.
func (l Layout) Validate() error {
	var all mask
	for s := range Ship(NumShips) {
		m, ok := l[s].mask(s.Plate())
		if !ok {
			return fmt.Errorf("%s at %s leaves the grid", s.Name(), l[s].Start)
		}
		if all.meets(m) {
			return fmt.Errorf("%s at %s overlaps another ship", s.Name(), l[s].Start)
		}
		all = all.or(m)
	}
	return nil
}

// Cells returns the grid's leaf values: 0 for water, ship index+1 for a ship
// cell. The layout should be valid; ships that leave the grid are skipped.
func (l Layout) Cells() [NumCells]byte {
	var g [NumCells]byte
	for s := range Ship(NumShips) {
		for _, c := range l[s].Cells(s.Plate()) {
			g[c] = byte(s) + 1
		}
	}
	return g
}

// Leaves returns the grid as the leaves of the "grid" commitment, one byte
// each.
func (l Layout) Leaves() [][]byte {
	g := l.Cells()
	out := make([][]byte, NumCells)
	for i, v := range g {
		out[i] = []byte{v}
	}
	return out
}

// String draws the layout as ten lines of ten characters: '.' for water and
// the ship index+1 for a ship cell.
func (l Layout) String() string { return drawCells(l.Cells()) }

func drawCells(g [NumCells]byte) string {
	var b strings.Builder
	for r := range Rows {
		for c := range Cols {
			v := g[CellAt(r, c)]
			if v == 0 {
				b.WriteByte('.')
			} else {
				b.WriteByte('0' + v)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// LayoutFromCells reads a layout back from grid leaf values, checking the
// rules of placement: each value is 0..5, and each ship occupies exactly its
// plate number of cells in one straight contiguous line.
func LayoutFromCells(g [NumCells]byte) (Layout, error) {
	var l Layout
	var found [NumShips]mask
	for i, v := range g {
		if v > NumShips {
			return l, fmt.Errorf("cell %s holds %d, not a ship or water", Cell(i), v)
		}
		if v > 0 {
			found[v-1].set(Cell(i))
		}
	}
	for s := range Ship(NumShips) {
		m := found[s]
		if m.empty() {
			return l, fmt.Errorf("%s is missing", s.Name())
		}
		first := Cell(-1)
		m.each(func(c Cell) {
			if first < 0 {
				first = c
			}
		})
		ok := false
		for _, vertical := range []bool{false, true} {
			p := Placement{Start: first, Vertical: vertical}
			if pm, in := p.mask(s.Plate()); in && pm == m {
				l[s] = p
				ok = true
			}
		}
		if !ok {
			return l, fmt.Errorf("%s occupies %d cells from %s, not %d in one straight line",
				s.Name(), m.count(), first, s.Plate())
		}
	}
	return l, nil
}

// CellsFromSecrets reads seat's whole committed grid from its secrets; false
// if any cell is unknown or not one byte.
func CellsFromSecrets(sec engine.Secrets, seat engine.Seat) ([NumCells]byte, bool) {
	var g [NumCells]byte
	if sec == nil {
		return g, false
	}
	for i := range g {
		v, ok := sec.Value(GridSlot(seat, Cell(i)))
		if !ok || len(v) != 1 {
			return g, false
		}
		g[i] = v[0]
	}
	return g, true
}

// LayoutFromSecrets reads seat's layout from its secrets, for the UI; false
// if the grid is unknown or is not a legal layout.
func LayoutFromSecrets(sec engine.Secrets, seat engine.Seat) (Layout, bool) {
	g, ok := CellsFromSecrets(sec, seat)
	if !ok {
		return Layout{}, false
	}
	l, err := LayoutFromCells(g)
	return l, err == nil
}

// WeaponsFromSecrets reads seat's committed weapon counts (custom variant);
// false if any is unknown or not one byte.
func WeaponsFromSecrets(sec engine.Secrets, seat engine.Seat) ([NumShips]int, bool) {
	var w [NumShips]int
	if sec == nil {
		return w, false
	}
	for s := range Ship(NumShips) {
		v, ok := sec.Value(WeaponsSlot(seat, s))
		if !ok || len(v) != 1 {
			return w, false
		}
		w[s] = int(v[0])
	}
	return w, true
}

// RandomLayout returns a layout drawn uniformly from every legal layout: each
// ship takes a uniform position and the draw is repeated until no two ships
// overlap.
func RandomLayout(r *rand.Rand) Layout {
	for {
		var l Layout
		var all mask
		ok := true
		for s := range Ship(NumShips) {
			ps := shipPlacements(s)
			p := ps[r.IntN(len(ps))]
			if all.meets(p.cells) {
				ok = false
				break
			}
			all = all.or(p.cells)
			l[s] = Placement{Start: p.start, Vertical: p.vertical}
		}
		if ok {
			return l
		}
	}
}

// errWeaponsTotal is returned by ValidateWeapons for a wrong fleet total.
var errWeaponsTotal = errors.New("weapons do not total the fleet's")

// ValidateWeapons checks a custom build: each ship MinWeapons..MaxWeapons,
// total in all (the variant's [FleetTotal]).
func ValidateWeapons(w [NumShips]int, total int) error {
	sum := 0
	for s, n := range w {
		if n < MinWeapons || n > MaxWeapons {
			return fmt.Errorf("%s has %d weapons, not %d-%d", Ship(s).Name(), n, MinWeapons, MaxWeapons)
		}
		sum += n
	}
	if sum != total {
		return fmt.Errorf("%w: %d, not %d", errWeaponsTotal, sum, total)
	}
	return nil
}

// WeaponLeaves returns weapon counts as the leaves of the "weapons"
// commitment, one byte each.
func WeaponLeaves(w [NumShips]int) [][]byte {
	out := make([][]byte, NumShips)
	for i, n := range w {
		out[i] = []byte{byte(n)}
	}
	return out
}

// RandomWeapons returns a custom build drawn uniformly from every legal one
// (each ship MinWeapons..MaxWeapons, total in all; total is a custom
// variant's [FleetTotal]).
func RandomWeapons(r *rand.Rand, total int) [NumShips]int {
	// Give every ship MinWeapons-1, then split the rest into NumShips positive
	// parts: a uniform composition is a uniform choice of NumShips-1 distinct
	// cut points among rest-1. Builds with a part too big are drawn again.
	rest := total - NumShips*(MinWeapons-1)
	for {
		cut := make([]bool, rest)
		for k := 0; k < NumShips-1; {
			i := 1 + r.IntN(rest-1)
			if !cut[i] {
				cut[i] = true
				k++
			}
		}
		var w [NumShips]int
		s, last := 0, 0
		for i := 1; i <= rest; i++ {
			if i == rest || cut[i] {
				w[s] = i - last + MinWeapons - 1
				last = i
				s++
			}
		}
		if ValidateWeapons(w, total) == nil {
			return w
		}
	}
}
