package seaview

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
)

// BenchmarkDrawScramble draws the board at the match screen's 100x30 size
// while a scramble is planned (reach previews from the engine each draw).
func BenchmarkDrawScramble(b *testing.B) {
	d := newDriver(b, 1)
	if !d.until(func(n engine.Need) bool { return n.Seat == 0 && isMove(n, sea.NeedScramble) && d.g.Turn() > 4 }, 20000) {
		b.Fatal("no scramble")
	}
	v := newView()
	d.ask(v)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(71, 27)
	v.SetRect(0, 0, 71, 27)
	b.ResetTimer()
	for range b.N {
		v.move(1, 0) // the path to the cursor changes every draw
		v.Draw(scr)
	}
}

// BenchmarkDrawIdle draws a mid-game board between decisions.
func BenchmarkDrawIdle(b *testing.B) {
	d := newDriver(b, 1)
	d.until(func(engine.Need) bool { return d.g.Turn() > 6 }, 20000)
	v := newView()
	d.show(v, 0)
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		b.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(71, 27)
	v.SetRect(0, 0, 71, 27)
	b.ResetTimer()
	for range b.N {
		v.Draw(scr)
	}
}
