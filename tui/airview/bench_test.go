package airview

import (
	"testing"

	"github.com/gdamore/tcell/v2"
)

// BenchmarkDraw draws a four-player board mid-turn at the match screen's
// board size on a 100x30 terminal.
func BenchmarkDraw(b *testing.B) {
	d := firstMoveB(b)
	f := newFixture(b, false, 71, 28)
	f.ask(d, 0)
	scr := f.Sim
	b.ResetTimer()
	for b.Loop() {
		f.v.Draw(scr)
	}
}

// BenchmarkKey answers a key during a turn (the prompt and the hint bar are
// rebuilt from the legal moves after every key).
func BenchmarkKey(b *testing.B) {
	d := firstMoveB(b)
	f := newFixture(b, false, 71, 28)
	f.ask(d, 0)
	h := f.v.InputHandler()
	ev := tcell.NewEventKey(tcell.KeyTab, 0, tcell.ModNone)
	for b.Loop() {
		h(ev, nil)
		_ = f.v.Prompt()
		_ = f.v.Bindings()
	}
}

func firstMoveB(b *testing.B) *driver {
	d := newDriver(b, 4, "", 1)
	d.runTo(moveOf(0))
	return d
}
