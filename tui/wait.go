package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// waitScreen says what the program is doing while it sets a match up
// (starting hosts, dialing, a handshake), for how long, and lets the player
// cancel.
type waitScreen struct {
	base
	a      *App
	title  string
	doing  string
	since  time.Time
	err    error
	cancel func()
}

func newWaitScreen(a *App, title, doing string, cancel func()) *waitScreen {
	return &waitScreen{a: a, title: title, doing: doing, since: time.Now(), cancel: cancel}
}

// fail shows why the setup failed.
func (w *waitScreen) fail(err error) { w.err = err }

func (w *waitScreen) draw(scr tcell.Screen, x, y, width, h int) {
	th := w.a.th
	titleBar(scr, th, x, y, width, []style.Seg{style.S("Salvo · "+w.title, th.Base)}, nil)
	cy := y + h/2 - 1
	if w.err != nil {
		for i, l := range style.Wrap(style.Fail+" "+w.err.Error(), width-8, "  ") {
			style.Print(scr, x+4, cy+i, width-8, th.Bad, l)
		}
		return
	}
	style.PrintSegs(scr, x+4, cy, width-8, style.S(w.a.spinner()+" ", th.Warn), style.S(w.doing, th.Base),
		style.S(fmt.Sprintf(" · %s", waited(time.Since(w.since))), th.Dim))
}

func (w *waitScreen) bindings() []keys.Binding {
	return []keys.Binding{{Keys: []keys.Key{keyEsc, keys.R('q')}, Label: "esc", Hint: "back", Pin: true, Help: "stop and go back to the lobby", Run: func() {
		if w.cancel != nil {
			w.cancel()
		}
		w.a.toLobby()
	}}}
}
