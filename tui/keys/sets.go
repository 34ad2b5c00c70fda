package keys

import "github.com/gdamore/tcell/v2"

// The special keys the boards bind (arrows, enter and tab only: letters
// are each board's commands, and l is the match screen's log key). They
// are shared: append to a copy, never change them in place.
var (
	Up      = []Key{K(tcell.KeyUp)}
	Down    = []Key{K(tcell.KeyDown)}
	Left    = []Key{K(tcell.KeyLeft)}
	Right   = []Key{K(tcell.KeyRight)}
	Enter   = []Key{K(tcell.KeyEnter)}
	Tab     = []Key{K(tcell.KeyTab)}
	Backtab = []Key{K(tcell.KeyBacktab)}
)

// Arrows returns the four arrow keys moving a cursor through move by
// (dRow, dCol), up being a row less: one binding shown in the hint bar,
// "←↑↓→ hint", and three hidden.
func Arrows(hint, help string, move func(dRow, dCol int)) []Binding {
	return []Binding{
		{Keys: Up, Label: "←↑↓→", Hint: hint, Help: help, Run: func() { move(-1, 0) }},
		{Keys: Down, Label: "↓", Hint: hint, Hidden: true, Run: func() { move(1, 0) }},
		{Keys: Left, Label: "←", Hint: hint, Hidden: true, Run: func() { move(0, -1) }},
		{Keys: Right, Label: "→", Hint: hint, Hidden: true, Run: func() { move(0, 1) }},
	}
}

// Digits returns the keys 1 to 9 (at most n of them) running pick with 0
// to 8; only the first is shown in the hint bar, as "1-9 hint".
func Digits(hint, help string, n int, pick func(i int)) []Binding {
	var out []Binding
	for i := range min(n, 9) {
		out = append(out, Binding{Keys: []Key{R(rune('1' + i))}, Label: "1-9", Hint: hint, Help: help,
			Hidden: i > 0, Run: func() { pick(i) }})
	}
	return out
}

// List returns the keys of a list of n choices whose selection is *idx:
// ↑↓ move the selection, enter chooses it through choose, then come extra
// (such as a key closing the list), then 1-9 select a choice and choose
// it at once.
func List(idx *int, n int, choose func(), extra ...Binding) []Binding {
	bs := []Binding{
		{Keys: Up, Label: "↑↓", Hint: "select", Help: "select an entry of the list", Run: func() { *idx = max(*idx-1, 0) }},
		{Keys: Down, Label: "↓", Hint: "select", Hidden: true, Run: func() { *idx = min(*idx+1, n-1) }},
		{Keys: Enter, Label: "enter", Hint: "choose", Help: "make the selected choice (a click on it too)", Run: choose},
	}
	bs = append(bs, extra...)
	return append(bs, Digits("choose", "make choice N of the list", n, func(i int) {
		*idx = i
		choose()
	})...)
}
