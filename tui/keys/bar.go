package keys

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/style"
)

// MoreMarker ends the hints when some gave way for want of room.
const MoreMarker = "more: ?"

// Bar is the one-line key-hint bar. It draws the bindings its source gives
// at every draw (so it always shows the keys in force), and a click on a
// hint runs it.
type Bar struct {
	*tview.Box
	theme  *style.Theme
	source func() []Binding
	spans  []span
}

type span struct {
	x0, x1 int
	b      Binding
}

// NewBar returns a hint bar drawing source's bindings.
func NewBar(theme *style.Theme, source func() []Binding) *Bar {
	return &Bar{Box: tview.NewBox(), theme: theme, source: source}
}

// Draw draws the hints that fit, in order, "key hint" separated by two
// spaces; pinned hints (help, quit) always keep their room at the end.
// Hints that do not fit give way from the last, and [MoreMarker] says so:
// a key is never dropped without a trace.
func (b *Bar) Draw(scr tcell.Screen) {
	x, y, w, _ := b.GetRect()
	style.Fill(scr, x, y, w, 1, b.theme.Bar)
	b.spans = b.spans[:0]
	var normal, pinned []Binding
	for _, bd := range b.source() {
		switch {
		case bd.Hidden || bd.Label == "":
		case bd.Pin:
			pinned = append(pinned, bd)
		default:
			normal = append(normal, bd)
		}
	}
	width := func(bd Binding) int { return style.Width(bd.Label) + 1 + style.Width(bd.Hint) }
	reserve := 0
	for _, bd := range pinned {
		reserve += width(bd) + 2
	}
	cx := x + 1
	end := x + w - 1 - reserve
	// Hints come in order of importance: the later ones give way first,
	// and a marker says that some did (the help lists them all).
	fit := func(end int) int {
		n, at := 0, cx
		for _, bd := range normal {
			if at+width(bd) > end {
				break
			}
			n, at = n+1, at+width(bd)+2
		}
		return n
	}
	n := fit(end)
	more := n < len(normal)
	if more {
		n = fit(end - style.Width(MoreMarker) - 2)
	}
	for _, bd := range normal[:n] {
		cx = b.put(scr, cx, y, bd) + 2
	}
	if more {
		cx += style.Print(scr, cx, y, x+w-1-cx, b.theme.Bar, MoreMarker) + 2
	}
	for _, bd := range pinned {
		if cx+width(bd) > x+w-1 {
			break
		}
		cx = b.put(scr, cx, y, bd) + 2
	}
}

// put draws one hint at cx and returns where it ends.
func (b *Bar) put(scr tcell.Screen, cx, y int, bd Binding) int {
	start := cx
	cx += style.Print(scr, cx, y, style.Width(bd.Label), b.theme.BarKey, bd.Label)
	cx += style.Print(scr, cx, y, 1, b.theme.Bar, " ")
	cx += style.Print(scr, cx, y, style.Width(bd.Hint), b.theme.Bar, bd.Hint)
	b.spans = append(b.spans, span{start, cx, bd})
	return cx
}

// MouseHandler runs the hint under a left click.
func (b *Bar) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return b.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, _ func(p tview.Primitive)) (bool, tview.Primitive) {
		if action != tview.MouseLeftClick || !b.InRect(ev.Position()) {
			return false, nil
		}
		mx, _ := ev.Position()
		for _, s := range b.spans {
			if mx >= s.x0 && mx < s.x1 && s.b.Run != nil {
				s.b.Run()
				return true, nil
			}
		}
		return true, nil
	})
}
