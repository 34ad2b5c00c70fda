package boardtest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// NewSim returns an initialised w×h simulation screen, finalised when the
// test ends.
func NewSim(t testing.TB, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
		return scr
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	return scr
}

// Render draws p in the whole of a fresh w×h simulation screen and returns
// the screen (see [Text]).
func Render(t testing.TB, p tview.Primitive, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := NewSim(t, w, h)
	if p == nil {
		t.Fatal("Render: no primitive")
		return scr
	}
	p.SetRect(0, 0, w, h)
	p.Draw(scr)
	scr.Show()
	return scr
}

// Press sends keys to p's input handler as the application would: a string
// rune by rune, a tcell.Key as a key press. Anything else fails the test.
func Press(t testing.TB, p tview.Primitive, ks ...any) {
	t.Helper()
	if p == nil {
		t.Fatal("Press: no primitive")
		return
	}
	h := p.InputHandler()
	if h == nil {
		t.Fatal("Press: the primitive takes no keys")
		return
	}
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				h(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), func(tview.Primitive) {})
			}
		case tcell.Key:
			h(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
		default:
			t.Fatalf("keys: %T", k)
		}
	}
}

// Mouse sends p's mouse handler one left-button action at x, y (nothing
// for a nil primitive).
func Mouse(p tview.Primitive, action tview.MouseAction, x, y int) {
	if p == nil {
		return
	}
	h := p.MouseHandler()
	if h == nil {
		return
	}
	h(action, tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone), func(tview.Primitive) {})
}

// Click clicks p at x, y as the application would: the button goes down,
// then the click.
func Click(p tview.Primitive, x, y int) {
	Mouse(p, tview.MouseLeftDown, x, y)
	Mouse(p, tview.MouseLeftClick, x, y)
}

// Fixture is a primitive (a board view) on its own simulation screen for a
// whole test: draw it, read it, press keys and click.
type Fixture struct {
	// T is the test the fixture fails.
	T testing.TB
	// P is the primitive drawn in the whole screen.
	P tview.Primitive
	// Sim is the screen it is drawn on.
	Sim tcell.SimulationScreen
	// W and H are the screen's size.
	W, H int
}

// NewFixture puts p in the whole of a fresh w×h simulation screen.
func NewFixture(t testing.TB, p tview.Primitive, w, h int) *Fixture {
	t.Helper()
	if p == nil {
		t.Fatal("NewFixture: no primitive")
	}
	f := &Fixture{T: t, P: p, Sim: NewSim(t, w, h), W: w, H: h}
	if p != nil {
		p.SetRect(0, 0, w, h)
	}
	return f
}

// Text clears the screen, draws the primitive and returns the screen as
// text.
func (f *Fixture) Text() string {
	if f.P == nil || f.Sim == nil {
		return ""
	}
	f.Sim.Clear()
	f.P.Draw(f.Sim)
	f.Sim.Show()
	return Text(f.Sim)
}

// Keys presses keys as [Press] does.
func (f *Fixture) Keys(ks ...any) {
	f.T.Helper()
	Press(f.T, f.P, ks...)
}

// Click clicks at x, y as [Click] does.
func (f *Fixture) Click(x, y int) { Click(f.P, x, y) }

// Find draws the primitive and returns where text is on screen.
func (f *Fixture) Find(text string) (x, y int, ok bool) {
	return Find(strings.Split(f.Text(), "\n"), text)
}

// Must draws the primitive and fails the test unless every one of texts is
// on screen; it returns the screen.
func (f *Fixture) Must(texts ...string) string {
	f.T.Helper()
	s := f.Text()
	for _, t := range texts {
		if !strings.Contains(s, t) {
			f.T.Fatalf("%q is not on screen:\n%s", t, s)
		}
	}
	return s
}

// RenderText draws p as [Render] does and returns the screen and its text.
func RenderText(t testing.TB, p tview.Primitive, w, h int) (tcell.SimulationScreen, string) {
	t.Helper()
	scr := Render(t, p, w, h)
	return scr, Text(scr)
}

// Env returns the environment the view tests build a board with: the
// theme (monochrome if mono) and a seeded source for the views' "random"
// keys.
func Env(mono bool) board.Env {
	return board.Env{Theme: style.New(mono), Rand: rand.New(rand.NewPCG(7, 7))}
}

// PickHand picks hand card i of a card board the way a player does: its
// digit key for the first nine, else tab until sel (the board's picked
// card) is i. A board that never gets there fails the test.
func PickHand(t testing.TB, p tview.Primitive, i int, sel func() int) {
	t.Helper()
	if i < 9 {
		Press(t, p, string(rune('1'+i)))
		return
	}
	for range 100 {
		if sel() == i {
			return
		}
		Press(t, p, tcell.KeyTab)
	}
	t.Fatalf("PickHand: tab never reached hand card %d", i)
}
