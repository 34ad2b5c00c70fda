package board

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// Handlers is what a [Base] needs of the view that embeds it.
type Handlers struct {
	// Self is the view itself: the primitive a mouse press focuses and
	// Draw draws the box of.
	Self tview.Primitive
	// Bindings lists the keys the view handles now (its Bindings method).
	Bindings func() []keys.Binding
	// Click handles a click at screen position x, y inside the view;
	// right is set for the right button. Nil ignores clicks.
	Click func(x, y int, right bool)
	// Msg is the view's one-off message line ("why the last key did
	// nothing"); every key run and every click clears it first. Nil
	// clears nothing.
	Msg *string
	// Right makes the right button press and click like the left one
	// (with right set); without it the view leaves right presses and
	// clicks unconsumed.
	Right bool
}

// Base is the primitive plumbing the boards share: the box, the key
// handler running the view's bindings and the mouse handler focusing the
// view on a press and handing it clicks. A view embeds it and sets it with
// [NewBase] in its constructor. Like the views, it lives on the tview
// goroutine.
type Base struct {
	*tview.Box
	h Handlers
}

// NewBase returns a Base on a fresh box with the terminal's own background.
func NewBase(h Handlers) Base {
	b := Base{Box: tview.NewBox(), h: h}
	b.SetBackgroundColor(tcell.ColorDefault)
	return b
}

// InputHandler runs the binding of a key, after clearing the message line
// (the match screen runs the bindings itself; this serves a board used on
// its own).
func (b *Base) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return b.WrapInputHandler(func(ev *tcell.EventKey, _ func(p tview.Primitive)) {
		if b.h.Bindings == nil {
			return
		}
		if bd, ok := keys.Find(b.h.Bindings(), ev); ok && bd.Run != nil {
			b.clear()
			bd.Run()
		}
	})
}

// MouseHandler focuses the view on a press inside it and hands it the
// clicks, after clearing the message line. Presses and clicks inside the
// view are consumed; everything else is left to others.
func (b *Base) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return b.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		x, y := ev.Position()
		if !b.InRect(x, y) {
			return false, nil
		}
		right := action == tview.MouseRightDown || action == tview.MouseRightClick
		if right && !b.h.Right {
			return false, nil
		}
		switch action {
		case tview.MouseLeftDown, tview.MouseRightDown:
			if b.h.Self != nil {
				setFocus(b.h.Self)
			}
			return true, nil
		case tview.MouseLeftClick, tview.MouseRightClick:
			b.clear()
			if b.h.Click != nil {
				b.h.Click(x, y, right)
			}
			return true, nil
		}
		return false, nil
	})
}

// clear empties the message line.
func (b *Base) clear() {
	if b.h.Msg != nil {
		*b.h.Msg = ""
	}
}

// Begin starts the view's Draw: it draws the box and returns the inner
// rectangle. Before the view has a game (started false) it writes the
// waiting line there instead and reports false: the view then draws
// nothing more.
func (b *Base) Begin(scr tcell.Screen, th *style.Theme, started bool) (x, y, w, h int, ok bool) {
	if b.h.Self != nil {
		b.DrawForSubclass(scr, b.h.Self)
	} else {
		b.Box.Draw(scr)
	}
	x, y, w, h = b.GetInnerRect()
	if !started {
		style.Print(scr, x+1, y+1, w-2, th.Dim, "waiting for the match to start…")
		return x, y, w, h, false
	}
	return x, y, w, h, true
}

// Clearing returns bs with every Run clearing *msg before it runs, so that
// the match screen, which runs the bindings itself, clears the message
// line too.
func Clearing(bs []keys.Binding, msg *string) []keys.Binding {
	for i := range bs {
		if run := bs[i].Run; run != nil {
			bs[i].Run = func() { *msg = ""; run() }
		}
	}
	return bs
}
