package sea

import (
	"fmt"
	"strconv"
)

// NumCells is the number of spaces on the board.
const NumCells = Cols * Rows

// Cell is one space of the board: Row*Cols + Col, counted from 0 at the
// top-left corner (row 1, column A, seat 0's edge). In moves and transcripts a
// cell is written as its column letter and row number, such as "C7".
type Cell int16

// NoCell marks the absence of a cell, such as a fighter on the carrier deck.
const NoCell Cell = -1

// At returns the cell at column col and row row (both from 0), or NoCell if
// that is off the board.
func At(col, row int) Cell {
	if col < 0 || col >= Cols || row < 0 || row >= Rows {
		return NoCell
	}
	return Cell(row*Cols + col)
}

// Valid reports whether c is a space of the board.
func (c Cell) Valid() bool { return c >= 0 && int(c) < NumCells }

// Col returns the cell's column, from 0.
func (c Cell) Col() int { return int(c) % Cols }

// Row returns the cell's row, from 0.
func (c Cell) Row() int { return int(c) / Cols }

// String returns the cell as a column letter and a row number from 1, such as
// "A1" for the top-left corner; "-" for NoCell or an invalid cell.
func (c Cell) String() string {
	if !c.Valid() {
		return "-"
	}
	return string(rune('A'+c.Col())) + strconv.Itoa(c.Row()+1)
}

// MarshalText writes the cell as String does; an invalid cell is an error.
func (c Cell) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("cell %d is off the board", int(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a cell written as MarshalText writes it.
func (c *Cell) UnmarshalText(b []byte) error {
	v, err := ParseCell(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCell reads a cell such as "C7": a column letter A-L and a row number
// 1-16 without leading zeros.
func ParseCell(s string) (Cell, error) {
	if len(s) < 2 || len(s) > 3 {
		return NoCell, fmt.Errorf("bad cell %q", s)
	}
	col := int(s[0]) - 'A'
	if col < 0 || col >= Cols {
		return NoCell, fmt.Errorf("bad cell %q: column must be A-%c", s, 'A'+Cols-1)
	}
	if s[1] == '0' {
		return NoCell, fmt.Errorf("bad cell %q: leading zero", s)
	}
	row := 0
	for _, ch := range s[1:] {
		if ch < '0' || ch > '9' {
			return NoCell, fmt.Errorf("bad cell %q: row must be a number", s)
		}
		row = row*10 + int(ch-'0')
	}
	if row < 1 || row > Rows {
		return NoCell, fmt.Errorf("bad cell %q: row must be 1-%d", s, Rows)
	}
	return At(col, row-1), nil
}

// Dir is one of the eight directions; rows grow towards seat 1 ("south").
type Dir int8

// The eight directions, clockwise from north (towards seat 0's edge).
const (
	North Dir = iota
	NorthEast
	East
	SouthEast
	South
	SouthWest
	West
	NorthWest
	numDirs
)

var dirDeltas = [numDirs][2]int{{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}}

var dirNames = [numDirs]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// Valid reports whether d is one of the eight directions.
func (d Dir) Valid() bool { return d >= 0 && d < numDirs }

// Straight reports whether d runs along a row or a column.
func (d Dir) Straight() bool { return d.Valid() && d%2 == 0 }

// Delta returns the column and row change of one step in direction d.
func (d Dir) Delta() (dc, dr int) { return dirDeltas[d][0], dirDeltas[d][1] }

// Left returns the direction 45 degrees anticlockwise of d.
func (d Dir) Left() Dir { return (d + numDirs - 1) % numDirs }

// Right returns the direction 45 degrees clockwise of d.
func (d Dir) Right() Dir { return (d + 1) % numDirs }

// Opposite returns the direction 180 degrees from d.
func (d Dir) Opposite() Dir { return (d + numDirs/2) % numDirs }

// String returns the direction's compass name, such as "NE".
func (d Dir) String() string {
	if !d.Valid() {
		return "?"
	}
	return dirNames[d]
}

// MarshalText writes the direction's compass name.
func (d Dir) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("bad direction %d", int(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText reads a compass name such as "NE".
func (d *Dir) UnmarshalText(b []byte) error {
	for i, n := range dirNames {
		if n == string(b) {
			*d = Dir(i)
			return nil
		}
	}
	return fmt.Errorf("bad direction %q", b)
}

// Step returns the cell one step from c in direction d, or NoCell off the
// board.
func Step(c Cell, d Dir) Cell {
	if !c.Valid() || !d.Valid() {
		return NoCell
	}
	dc, dr := d.Delta()
	return At(c.Col()+dc, c.Row()+dr)
}

// DirTo returns the direction of the step from a to b when they are
// neighbours.
func DirTo(a, b Cell) (Dir, bool) {
	if !Adjacent(a, b) {
		return 0, false
	}
	dc, dr := b.Col()-a.Col(), b.Row()-a.Row()
	for d := Dir(0); d < numDirs; d++ {
		if dirDeltas[d] == [2]int{dc, dr} {
			return d, true
		}
	}
	return 0, false
}

// Dist is the number of king moves from a to b: neighbours, diagonals
// included, are at distance 1 (house, DATA.md).
func Dist(a, b Cell) int {
	return max(abs(a.Col()-b.Col()), abs(a.Row()-b.Row()))
}

// Adjacent reports whether a and b are distinct neighbours (diagonals count).
func Adjacent(a, b Cell) bool { return a.Valid() && b.Valid() && Dist(a, b) == 1 }

// Neighbors returns the on-board neighbours of c, clockwise from north.
func Neighbors(c Cell) []Cell {
	out := make([]Cell, 0, numDirs)
	for d := Dir(0); d < numDirs; d++ {
		if n := Step(c, d); n != NoCell {
			out = append(out, n)
		}
	}
	return out
}

// MinDist returns the smallest distance between a cell of as and a cell of bs.
func MinDist(as, bs []Cell) int {
	best := Rows + Cols
	for _, a := range as {
		for _, b := range bs {
			best = min(best, Dist(a, b))
		}
	}
	return best
}

// HalfOf returns the seat whose half of the board holds row: rows 1-8 are
// seat 0's, rows 9-16 seat 1's (house, DATA.md).
func HalfOf(row int) int { return row / HalfRows }

// frac is a non-negative-denominator fraction for exact line geometry.
type frac struct{ n, d int }

func (a frac) less(b frac) bool { return a.n*b.d < b.n*a.d }

// segmentCrossesCell reports whether the straight segment between the
// centres of cells a and b passes through the inside of cell c. Touching
// only a corner or running along an edge does not count. The arithmetic is
// exact: coordinates are doubled so that centres are odd integers.
func segmentCrossesCell(a, b, c Cell) bool {
	px, py := 2*a.Col()+1, 2*a.Row()+1
	dx, dy := 2*(b.Col()-a.Col()), 2*(b.Row()-a.Row())
	lo, hi := frac{0, 1}, frac{1, 1}
	for _, ax := range [2][3]int{{px, dx, 2 * c.Col()}, {py, dy, 2 * c.Row()}} {
		p, d, edge := ax[0], ax[1], ax[2]
		if d == 0 {
			if p <= edge || p >= edge+2 {
				return false
			}
			continue
		}
		t0, t1 := frac{edge - p, d}, frac{edge + 2 - p, d}
		if d < 0 {
			t0, t1 = frac{p - edge - 2, -d}, frac{p - edge, -d}
		}
		if lo.less(t0) {
			lo = t0
		}
		if t1.less(hi) {
			hi = t1
		}
	}
	return lo.less(hi)
}

// LineClear reports whether the straight line between the centres of a and b
// crosses no cell for which blocked is true (house, DATA.md: islands block
// destroyer fire when the line crosses a shallow space).
func LineClear(a, b Cell, blocked func(Cell) bool) bool {
	c0, c1 := min(a.Col(), b.Col()), max(a.Col(), b.Col())
	r0, r1 := min(a.Row(), b.Row()), max(a.Row(), b.Row())
	for r := r0; r <= r1; r++ {
		for col := c0; col <= c1; col++ {
			c := At(col, r)
			if c == a || c == b || !blocked(c) {
				continue
			}
			if segmentCrossesCell(a, b, c) {
				return false
			}
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
