package board

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// MenuItem is one entry of a [Menu]: a legal move in words.
type MenuItem[M any] struct {
	Label string // the move in words
	Move  M      // what choosing the entry sends
}

// Menu is a list of moves for the player to choose one from, drawn as a
// title over numbered rows. The zero Menu is closed; it is open while it
// has items.
type Menu[M any] struct {
	Title string        // the line over the rows
	Items []MenuItem[M] // the entries, in order
	Idx   int           // the selected entry
	rows  []Rect        // where the last Draw put each entry (by index)
}

// Open reports whether the menu is showing: it has entries.
func (m *Menu[M]) Open() bool { return len(m.Items) > 0 }

// Close empties the menu.
func (m *Menu[M]) Close() { *m = Menu[M]{} }

// Chosen returns the selected entry's move, if the selection is an entry.
func (m *Menu[M]) Chosen() (M, bool) {
	if m.Idx < 0 || m.Idx >= len(m.Items) {
		var none M
		return none, false
	}
	return m.Items[m.Idx].Move, true
}

// Bindings are the keys of the open menu: the selection, enter and the
// digits choose (choose is called with the move), then back.
func (m *Menu[M]) Bindings(choose func(M), back ...keys.Binding) []keys.Binding {
	return keys.List(&m.Idx, len(m.Items), func() {
		if mv, ok := m.Chosen(); ok {
			choose(mv)
		}
	}, back...)
}

// Draw draws the title and as many entries as fit in h lines from x, y
// (w wide), scrolled to keep the selection in sight with a count of the
// entries below, and returns the next free line. It remembers where each
// entry went for [Menu.Click].
func (m *Menu[M]) Draw(scr tcell.Screen, th *style.Theme, x, y, w, h int) int {
	m.rows = nil
	if h < 2 {
		return y
	}
	style.Print(scr, x, y, w, th.Accent, style.Truncate(m.Title, w))
	rows := h - 1
	first := 0
	if m.Idx >= rows {
		first = m.Idx - rows + 1
	}
	if more := len(m.Items) - first - rows; more > 0 {
		label := fmt.Sprintf("(%d more ↓)", more)
		style.Print(scr, x+w-style.Width(label), y, style.Width(label), th.Dim, label)
	}
	y++
	m.rows = make([]Rect, len(m.Items))
	for i := first; i < len(m.Items) && i-first < rows; i++ {
		st, ptr := th.Base, " "
		if i == m.Idx {
			st, ptr = th.Selected, style.Pointer
			style.Fill(scr, x, y, w, 1, st)
		}
		num := "  "
		if i < 9 {
			num = fmt.Sprintf("%d ", i+1)
		}
		style.PrintSegs(scr, x, y, w, style.S(ptr, th.Accent), style.S(num, th.Dim), style.S(m.Items[i].Label, st))
		m.rows[i] = Rect{X: x, Y: y, W: w, H: 1}
		y++
	}
	return y
}

// Undraw forgets where the menu was drawn, for a frame that does not draw
// it: clicks there no longer choose.
func (m *Menu[M]) Undraw() { m.rows = nil }

// Row returns where the last Draw put entry i: the zero Rect when it did
// not draw it.
func (m *Menu[M]) Row(i int) Rect {
	if i < 0 || i >= len(m.rows) {
		return Rect{}
	}
	return m.rows[i]
}

// Click selects the entry drawn at x, y and returns its move, if the last
// Draw put one there.
func (m *Menu[M]) Click(x, y int) (M, bool) {
	if i, ok := Hit(m.rows, x, y); ok {
		m.Idx = i
		return m.Chosen()
	}
	var none M
	return none, false
}

// TakeClick handles a click at x, y while the menu is open: a click on an
// entry chooses its move, a right click elsewhere calls close (the view's
// way of closing it, which may keep a menu that is the decision itself),
// and any other click does nothing. It reports false, leaving the click to
// the board, when the menu is closed.
func (m *Menu[M]) TakeClick(x, y int, right bool, choose func(M), close func()) bool {
	if !m.Open() {
		return false
	}
	if mv, ok := m.Click(x, y); ok {
		choose(mv)
	} else if right {
		close()
	}
	return true
}
