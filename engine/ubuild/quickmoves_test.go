package ubuild

import (
	"strconv"
	"testing"
)

// TestCellStringIsItsSpelling: Cell.String, now appended into a buffer,
// spells every value as it always did: "C-2" on the grid, "cell(n)" off it.
func TestCellStringIsItsSpelling(t *testing.T) {
	for v := -128; v < 128; v++ {
		c := Cell(v)
		want := "cell(" + strconv.Itoa(v) + ")"
		if c.Valid() {
			want = string(rune('A'+c.Row())) + "-" + strconv.Itoa(c.Col()+1)
		}
		if got := c.String(); got != want {
			t.Fatalf("Cell(%d).String() = %q, want %q", v, got, want)
		}
	}
}
