package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// screen is one full-screen view: the lobby, host, join, a match, the audit
// viewer. Screens live on the tview goroutine.
type screen interface {
	// draw draws the screen into the rectangle (the hint bar is below it).
	draw(scr tcell.Screen, x, y, w, h int)
	// bindings lists the keys in force, the focused part's first.
	bindings() []keys.Binding
	// key takes a key no binding took (typing into a field).
	key(ev *tcell.EventKey)
	// paste takes pasted text.
	paste(text string)
	// mouse takes a mouse event and reports whether it used it.
	mouse(action tview.MouseAction, ev *tcell.EventMouse) bool
	// typing reports whether a text field has the keys, so that plain
	// letters are text and not commands.
	typing() bool
	// shown is called when the screen comes on top.
	shown()
	// tick is called every TickEvery while the screen is on top.
	tick()
	// close is called when the screen is left for good.
	close()
}

// overlay is a dialog drawn above the screen: it takes every key.
type overlay interface {
	draw(scr tcell.Screen, x, y, w, h int)
	bindings() []keys.Binding
	key(ev *tcell.EventKey)
	paste(text string)
	typing() bool
}

// base gives screens no-op defaults.
type base struct{}

func (base) key(*tcell.EventKey)                             {}
func (base) paste(string)                                    {}
func (base) mouse(tview.MouseAction, *tcell.EventMouse) bool { return false }
func (base) typing() bool                                    { return false }
func (base) shown()                                          {}
func (base) tick()                                           {}
func (base) close()                                          {}

// root is the application's only tview primitive: it checks the terminal
// size, draws the top screen, the overlay and the hint bar, and routes keys,
// paste and mouse.
type root struct {
	*tview.Box
	a   *App
	bar *keys.Bar
}

func newRoot(a *App) *root {
	r := &root{Box: tview.NewBox(), a: a}
	r.bar = keys.NewBar(a.th, a.bindings)
	return r
}

// tooSmall reports whether the terminal is below the minimum size.
func (r *root) tooSmall() bool {
	_, _, w, h := r.GetRect()
	return w < MinWidth || h < MinHeight
}

// Draw draws everything, or the "too small" notice.
func (r *root) Draw(scr tcell.Screen) {
	x, y, w, h := r.GetRect()
	th := r.a.th
	style.Fill(scr, x, y, w, h, th.Base)
	if r.tooSmall() {
		msg := fmt.Sprintf("terminal too small (needs %dx%d)", MinWidth, MinHeight)
		now := fmt.Sprintf("now %dx%d; q quits", w, h)
		style.Print(scr, x+max(0, (w-style.Width(msg))/2), y+h/2-1, w, th.Warn, msg)
		style.Print(scr, x+max(0, (w-style.Width(now))/2), y+h/2, w, th.Dim, now)
		return
	}
	if s := r.a.top(); s != nil {
		s.draw(scr, x, y, w, h-1)
	}
	if o := r.a.overlay; o != nil {
		o.draw(scr, x, y, w, h-1)
	}
	r.bar.SetRect(x, y+h-1, w, 1)
	r.bar.Draw(scr)
}

// InputHandler dispatches bindings, then hands other keys to the overlay or
// the screen.
func (r *root) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return r.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		if r.tooSmall() {
			if ev.Key() == tcell.KeyRune && ev.Rune() == 'q' {
				r.a.quit()
			}
			return
		}
		if keys.Dispatch(r.a.bindings(), ev) {
			return
		}
		if o := r.a.overlay; o != nil {
			o.key(ev)
			return
		}
		if s := r.a.top(); s != nil {
			s.key(ev)
		}
	})
}

// PasteHandler hands pasted text to the overlay or the screen.
func (r *root) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return r.WrapPasteHandler(func(text string, _ func(p tview.Primitive)) {
		if o := r.a.overlay; o != nil {
			o.paste(text)
			return
		}
		if s := r.a.top(); s != nil {
			s.paste(text)
		}
	})
}

// MouseHandler routes clicks to the hint bar or the screen (not while an
// overlay is open).
func (r *root) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return r.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		if r.tooSmall() {
			return false, nil
		}
		if ok, _ := r.bar.MouseHandler()(action, ev, setFocus); ok {
			return true, nil
		}
		if r.a.overlay != nil {
			return true, nil
		}
		if s := r.a.top(); s != nil {
			return s.mouse(action, ev), nil
		}
		return false, nil
	})
}

// titleBar draws a screen's title bar: left text, right text.
func titleBar(scr tcell.Screen, th *style.Theme, x, y, w int, left, right []style.Seg) {
	style.Fill(scr, x, y, w, 1, th.Title)
	for i := range left {
		left[i].Style = mergeTitle(th, left[i].Style)
	}
	for i := range right {
		right[i].Style = mergeTitle(th, right[i].Style)
	}
	rw := style.SegsWidth(right)
	// Two cells at least between the parts: one would read as a word cut
	// short against the right part.
	style.PrintSegs(scr, x+1, y, max(0, w-rw-4), style.Fit(max(0, w-rw-4), left...)...)
	if rw > 0 && rw < w-2 {
		style.PrintSegs(scr, x+w-rw-1, y, rw, right...)
	}
}

// mergeTitle puts a segment on the title bar's background.
func mergeTitle(th *style.Theme, st tcell.Style) tcell.Style {
	if st == (tcell.Style{}) || st == th.Base {
		return th.Title
	}
	if th.Mono {
		return st.Reverse(true)
	}
	_, bg, _ := th.Title.Decompose()
	return st.Background(bg)
}

// boxed draws a frame with a title and returns the inner rectangle.
func boxed(scr tcell.Screen, th *style.Theme, x, y, w, h int, title string, st tcell.Style) (int, int, int, int) {
	if w < 2 || h < 2 {
		return x, y, 0, 0
	}
	for i := x + 1; i < x+w-1; i++ {
		scr.Put(i, y, "─", st)
		scr.Put(i, y+h-1, "─", st)
	}
	for j := y + 1; j < y+h-1; j++ {
		scr.Put(x, j, "│", st)
		scr.Put(x+w-1, j, "│", st)
	}
	scr.Put(x, y, "┌", st)
	scr.Put(x+w-1, y, "┐", st)
	scr.Put(x, y+h-1, "└", st)
	scr.Put(x+w-1, y+h-1, "┘", st)
	if title != "" {
		style.Print(scr, x+2, y, w-4, st, " "+title+" ")
	}
	return x + 1, y + 1, w - 2, h - 2
}
