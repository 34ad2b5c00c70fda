package air

import "fmt"

// Pos is a space of the board: column X (0..8, left to right, edge label
// 15 + 10X) and row Y (0..11, bottom to top, edge label 10 + 10Y).
type Pos struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Labels returns the edge numbers of the space as the rulebook reads them:
// the row label first, then the column label, such as (10, 35).
func (p Pos) Labels() (row, col int) { return 10 + 10*p.Y, 15 + 10*p.X }

// String gives the space by its edge numbers, such as "(10,35)".
func (p Pos) String() string {
	r, c := p.Labels()
	return fmt.Sprintf("(%d,%d)", r, c)
}

// OnBoard reports whether p is a space of the board.
func (p Pos) OnBoard() bool { return p.X >= 0 && p.X < Columns && p.Y >= 0 && p.Y < Rows }

// PosAt returns the space with the given edge numbers (row 10..120, column
// 15..95), as the rulebook names them.
func PosAt(row, col int) (Pos, bool) {
	if (row-10)%10 != 0 || (col-15)%10 != 0 {
		return Pos{}, false
	}
	p := Pos{X: (col - 15) / 10, Y: (row - 10) / 10}
	return p, p.OnBoard()
}

// Heading is one of the eight directions a plane faces, clockwise from
// North (towards higher rows).
type Heading int

// The eight headings.
const (
	North Heading = iota
	NorthEast
	East
	SouthEast
	South
	SouthWest
	West
	NorthWest
)

var headingNames = [8]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}

// String names the heading, such as "NE".
func (h Heading) String() string {
	if h >= 0 && h < 8 {
		return headingNames[h]
	}
	return fmt.Sprintf("heading(%d)", int(h))
}

var headingDelta = [8]Pos{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// Delta returns the step one space along the heading.
func (h Heading) Delta() Pos { return headingDelta[h&7] }

// Diagonal reports whether the heading is diagonal.
func (h Heading) Diagonal() bool { return h%2 == 1 }

// Turned returns the heading after a maneuver: a bank turns 45°.
func (h Heading) Turned(t Turn) Heading {
	switch t {
	case BankLeft:
		return (h + 7) % 8
	case BankRight:
		return (h + 1) % 8
	}
	return h
}

// Step returns the next space along h, looping off an edge onto the
// opposite side (text: planes loop; fire does not).
func Step(p Pos, h Heading) Pos {
	d := h.Delta()
	return Pos{X: (p.X + d.X + Columns) % Columns, Y: (p.Y + d.Y + Rows) % Rows}
}

// Distance is the number of spaces between two spaces without looping,
// counted in king moves (house).
func Distance(a, b Pos) int {
	return max(abs(a.X-b.X), abs(a.Y-b.Y))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Adjacent reports whether two spaces touch, diagonals included, without
// looping (text: no looping for a wingman move).
func Adjacent(a, b Pos) bool { return a != b && Distance(a, b) == 1 }

// Weapon is what a plane fires.
type Weapon int

// The two weapons.
const (
	Missile Weapon = iota
	Cannon
)

// String names the weapon.
func (w Weapon) String() string {
	if w == Cannon {
		return "cannon"
	}
	return "missile"
}

// Dice returns the number of red dice the weapon rolls (text: 3 for a
// missile, 2 for cannons).
func (w Weapon) Dice() int {
	if w == Cannon {
		return CannonDice
	}
	return MissileDice
}

// InCone reports whether a plane at from facing h can hit a plane at to
// with weapon w, never looping (DATA.md, house): missiles anywhere in the
// forward 90° wedge (ahead dx ≥ 1 and sideways |dy| ≤ dx, rotated for a
// diagonal heading), cannons only along the straight-ahead line and the two
// forward diagonals (the wedge's middle and edges).
func InCone(from Pos, h Heading, to Pos, w Weapon) bool {
	dx, dy := to.X-from.X, to.Y-from.Y
	if dx == 0 && dy == 0 {
		return false
	}
	if !h.Diagonal() {
		d := h.Delta()
		ahead := dx*d.X + dy*d.Y
		side := dx*d.Y - dy*d.X
		if ahead < 1 || abs(side) > ahead {
			return false
		}
		return w == Missile || side == 0 || abs(side) == ahead
	}
	d := h.Delta()
	a, b := dx*d.X, dy*d.Y // both ≥ 0 inside the quadrant the heading bisects
	if a < 0 || b < 0 {
		return false
	}
	return w == Missile || a == 0 || b == 0 || a == b
}

// EdgeLabels returns the numbers printed along the board's edges: the
// column labels left to right and the row labels bottom to top.
func EdgeLabels() (cols, rows []int) {
	for x := range Columns {
		cols = append(cols, 15+10*x)
	}
	for y := range Rows {
		rows = append(rows, 10+10*y)
	}
	return cols, rows
}
