package tui

import "github.com/salvo-game/salvo/tui/style"

// rowsNeeder is a board that says how many rows show all of it (Mission
// Command Air's table of four fills the board at 80x24).
type rowsNeeder interface{ RowsNeeded() int }

// statusRows lays out the prompt line of a match screen h rows high: a
// second row rather than lose its end (a refusal before the prompt, a
// long name in the result), when the board can spare it. It keeps off the
// last column: a line that reaches it reads as one cut short.
func (ms *matchScreen) statusRows(w, h int) [][]style.Seg {
	n := StatusRows
	if r, ok := ms.view.(rowsNeeder); ok {
		n = max(1, min(n, h-1-r.RowsNeeded())) // the body is h-1-n rows
	}
	return style.FitRows(w-3, n, ms.statusLine(w-1)...)
}
