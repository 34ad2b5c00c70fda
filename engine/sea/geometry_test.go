package sea

import (
	"encoding/json"
	"testing"
)

func mustCell(t testing.TB, s string) Cell {
	t.Helper()
	c, err := ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cells(t testing.TB, ss ...string) []Cell {
	t.Helper()
	out := make([]Cell, len(ss))
	for i, s := range ss {
		out[i] = mustCell(t, s)
	}
	return out
}

func TestParseCell(t *testing.T) {
	tests := []struct {
		in      string
		col     int
		row     int
		wantErr bool
	}{
		{"A1", 0, 0, false},
		{"L16", 11, 15, false},
		{"C7", 2, 6, false},
		{"M1", 0, 0, true},
		{"A0", 0, 0, true},
		{"A17", 0, 0, true},
		{"A01", 0, 0, true},
		{"a1", 0, 0, true},
		{"", 0, 0, true},
		{"A", 0, 0, true},
		{"A1x", 0, 0, true},
		{"A-1", 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := ParseCell(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseCell(%q) = %v, want an error", tt.in, c)
				}
				return
			}
			if err != nil || c.Col() != tt.col || c.Row() != tt.row {
				t.Fatalf("ParseCell(%q) = %v (%d,%d), %v", tt.in, c, c.Col(), c.Row(), err)
			}
			if c.String() != tt.in {
				t.Errorf("String() = %q, want %q", c.String(), tt.in)
			}
		})
	}
}

func TestCellRoundTrip(t *testing.T) {
	for c := Cell(0); c < NumCells; c++ {
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Cell
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Fatalf("%v: round trip gave %v, %v", c, back, err)
		}
	}
	if _, err := json.Marshal(NoCell); err == nil {
		t.Error("NoCell marshalled without error")
	}
}

func TestDirections(t *testing.T) {
	tests := []struct {
		name      string
		d         Dir
		left, rgt Dir
		opp       Dir
		straight  bool
	}{
		{"N", North, NorthWest, NorthEast, South, true},
		{"NE", NorthEast, North, East, SouthWest, false},
		{"S", South, SouthEast, SouthWest, North, true},
		{"W", West, SouthWest, NorthWest, East, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.d.Left() != tt.left || tt.d.Right() != tt.rgt || tt.d.Opposite() != tt.opp || tt.d.Straight() != tt.straight {
				t.Errorf("%v: left %v right %v opposite %v straight %v", tt.d, tt.d.Left(), tt.d.Right(), tt.d.Opposite(), tt.d.Straight())
			}
			var back Dir
			b, _ := tt.d.MarshalText()
			if err := back.UnmarshalText(b); err != nil || back != tt.d || string(b) != tt.name {
				t.Errorf("text round trip %q -> %v, %v", b, back, err)
			}
		})
	}
	if Step(mustCell(t, "A1"), North) != NoCell || Step(mustCell(t, "A1"), SouthEast) != mustCell(t, "B2") {
		t.Error("Step at the corner")
	}
	if d, ok := DirTo(mustCell(t, "C3"), mustCell(t, "D2")); !ok || d != NorthEast {
		t.Errorf("DirTo C3->D2 = %v %v", d, ok)
	}
	if _, ok := DirTo(mustCell(t, "C3"), mustCell(t, "E3")); ok {
		t.Error("DirTo of non-neighbours")
	}
}

func TestDist(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"A1", "A1", 0},
		{"A1", "B2", 1}, // diagonals count as one
		{"A1", "E2", 4}, // king moves
		{"C3", "C7", 4},
		{"A1", "L16", 15},
	}
	for _, tt := range tests {
		t.Run(tt.a+"-"+tt.b, func(t *testing.T) {
			if got := Dist(mustCell(t, tt.a), mustCell(t, tt.b)); got != tt.want {
				t.Errorf("Dist = %d, want %d", got, tt.want)
			}
		})
	}
	if n := len(Neighbors(mustCell(t, "A1"))); n != 3 {
		t.Errorf("corner has %d neighbours", n)
	}
	if n := len(Neighbors(mustCell(t, "E5"))); n != 8 {
		t.Errorf("open space has %d neighbours", n)
	}
}

func TestLineClear(t *testing.T) {
	tests := []struct {
		name    string
		a, b    string
		blocked []string
		clear   bool
	}{
		{"straight across a shallow", "A5", "E5", []string{"C5"}, false},
		{"straight beside a shallow", "A5", "E5", []string{"C4", "C6"}, true},
		{"diagonal through a shallow", "A1", "D4", []string{"B2"}, false},
		{"diagonal between two corners", "A1", "C3", []string{"A2", "B1", "C2", "B3"}, true},
		{"knight line through the space it enters", "A1", "C2", []string{"B2"}, false},
		{"knight line through the other space it passes", "A1", "C2", []string{"B1"}, false},
		{"knight line clear of the spaces beside it", "A1", "C2", []string{"A2", "C1"}, true},
		{"shallow line crosses both", "A1", "E3", []string{"C2"}, false},
		{"neighbours always clear", "A1", "B2", []string{"A2", "B1"}, true},
		{"long line through a block", "B2", "B9", []string{"B5", "C5", "B6", "C6"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bl := map[Cell]bool{}
			for _, s := range tt.blocked {
				bl[mustCell(t, s)] = true
			}
			got := LineClear(mustCell(t, tt.a), mustCell(t, tt.b), func(c Cell) bool { return bl[c] })
			if got != tt.clear {
				t.Errorf("LineClear(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.clear)
			}
			back := LineClear(mustCell(t, tt.b), mustCell(t, tt.a), func(c Cell) bool { return bl[c] })
			if back != got {
				t.Errorf("LineClear is not symmetric")
			}
		})
	}
}

func TestSegmentCrossesCell(t *testing.T) {
	// A line from A1 to C2 runs from (0.5,0.5) to (2.5,1.5): inside B1
	// for 1 < x < 1.5 and inside B2 for 1.5 < x < 2 (it meets their
	// shared edge at (1.5, 1)).
	a, b := mustCell(t, "A1"), mustCell(t, "C2")
	if !segmentCrossesCell(a, b, mustCell(t, "B1")) || !segmentCrossesCell(a, b, mustCell(t, "B2")) {
		t.Error("A1-C2 does not cross both B1 and B2")
	}
	for _, s := range []string{"A2", "C1", "B3"} {
		if segmentCrossesCell(a, b, mustCell(t, s)) {
			t.Errorf("A1-C2 crosses %s", s)
		}
	}
	// A diagonal only touches the corners of the spaces beside it.
	if segmentCrossesCell(mustCell(t, "A1"), mustCell(t, "C3"), mustCell(t, "B1")) {
		t.Error("diagonal crosses a corner-touching space")
	}
	if !segmentCrossesCell(mustCell(t, "A1"), mustCell(t, "C3"), mustCell(t, "B2")) {
		t.Error("diagonal misses its middle space")
	}
}
