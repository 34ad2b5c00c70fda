package ubuild

import (
	"strconv"

	"github.com/salvo-game/salvo/engine"
)

// Cell is a grid coordinate: row*10 + column, both counted from 0 (so "A-1"
// is 0 and "C-2" is 21).
type Cell int8

// CellAt returns the cell at row and col, both counted from 0.
func CellAt(row, col int) Cell { return Cell(row*Cols + col) }

// Valid reports whether c lies on the grid.
func (c Cell) Valid() bool { return c >= 0 && int(c) < NumCells }

// Row returns the row counted from 0 (0 is row A).
func (c Cell) Row() int { return int(c) / Cols }

// Col returns the column counted from 0 (0 is column 1).
func (c Cell) Col() int { return int(c) % Cols }

// String returns the coordinate text, such as "C-2".
func (c Cell) String() string {
	var buf [8]byte
	return string(c.appendText(buf[:0]))
}

// appendText appends c's String.
func (c Cell) appendText(dst []byte) []byte {
	if !c.Valid() {
		return append(strconv.AppendInt(append(dst, "cell("...), int64(c), 10), ')')
	}
	return strconv.AppendInt(append(dst, byte('A'+c.Row()), '-'), int64(c.Col()+1), 10)
}

// ParseCell reads a coordinate such as "C-2", "C2", "c-2" or "J-10". The
// error wraps [engine.ErrIllegal], since coordinates come from the network.
func ParseCell(s string) (Cell, error) {
	c, fault := parseCell(s)
	switch fault {
	case badLength:
		return 0, engine.Illegal("bad coordinate %q", s)
	case badRow:
		return 0, engine.Illegal("bad coordinate %q: row must be A-%c", s, 'A'+Rows-1)
	case badColumn:
		return 0, engine.Illegal("bad coordinate %q: column must be 1-%d", s, Cols)
	}
	return c, nil
}

// cellFault says what is wrong with a coordinate's text.
type cellFault uint8

const (
	cellOK cellFault = iota
	badLength
	badRow
	badColumn
)

// parseCell reads a coordinate as ParseCell does, from a string or from a
// move's bytes (a volley is decoded without a string per cell).
func parseCell[T string | []byte](s T) (Cell, cellFault) {
	if len(s) < 2 || len(s) > 4 {
		return 0, badLength
	}
	r := s[0]
	if r >= 'a' && r <= 'z' {
		r -= 'a' - 'A'
	}
	if r < 'A' || r >= 'A'+Rows {
		return 0, badRow
	}
	num := s[1:]
	if num[0] == '-' {
		num = num[1:]
	}
	if len(num) == 0 || len(num) > 2 || num[0] < '1' || num[0] > '9' {
		return 0, badColumn
	}
	col := 0
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return 0, badColumn
		}
		col = col*10 + int(num[i]-'0')
	}
	if col > Cols {
		return 0, badColumn
	}
	return CellAt(int(r-'A'), col-1), cellOK
}

// GridSlot returns the slot of seat's committed grid that holds cell c.
func GridSlot(seat engine.Seat, c Cell) engine.Slot {
	return engine.Slot{Owner: seat, Name: GridName, Index: int(c)}
}

// WeaponsSlot returns the slot of seat's committed weapon counts that holds
// ship s's count (custom variant).
func WeaponsSlot(seat engine.Seat, s Ship) engine.Slot {
	return engine.Slot{Owner: seat, Name: WeaponsName, Index: int(s)}
}
