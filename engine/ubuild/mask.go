package ubuild

import "math/bits"

// mask is a set of cells, one bit per cell.
type mask [2]uint64

func (m *mask) set(c Cell)        { m[c>>6] |= 1 << (uint(c) & 63) }
func (m mask) has(c Cell) bool    { return m[c>>6]&(1<<(uint(c)&63)) != 0 }
func (m mask) and(o mask) mask    { return mask{m[0] & o[0], m[1] & o[1]} }
func (m mask) or(o mask) mask     { return mask{m[0] | o[0], m[1] | o[1]} }
func (m mask) andNot(o mask) mask { return mask{m[0] &^ o[0], m[1] &^ o[1]} }
func (m mask) empty() bool        { return m[0]|m[1] == 0 }
func (m mask) count() int         { return bits.OnesCount64(m[0]) + bits.OnesCount64(m[1]) }
func (m mask) covers(o mask) bool { return o.andNot(m).empty() }
func (m mask) meets(o mask) bool  { return !m.and(o).empty() }

// each calls f for every cell of m, in increasing order.
func (m mask) each(f func(Cell)) {
	for w := range 2 {
		x := m[w]
		for x != 0 {
			f(Cell(w*64 + bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
}

// placement is one position of a ship of some length: its first (top or
// left) cell, its direction and the cells it covers.
type placement struct {
	start    Cell
	vertical bool
	cells    mask
}

// placementsByLen[n] lists every position of a ship of length n on the grid,
// horizontal ones first, each in cell order.
var placementsByLen = func() [6][]placement {
	var t [6][]placement
	for n := 2; n <= 5; n++ {
		for _, vertical := range []bool{false, true} {
			for r := range Rows {
				for c := range Cols {
					p := Placement{Start: CellAt(r, c), Vertical: vertical}
					m, ok := p.mask(n)
					if ok {
						t[n] = append(t[n], placement{start: p.Start, vertical: vertical, cells: m})
					}
				}
			}
		}
	}
	return t
}()

// shipPlacements returns every position of ship s on the grid.
func shipPlacements(s Ship) []placement { return placementsByLen[s.Plate()] }
