package seaview

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// driver plays a match as an honest referee would, for tests: it keeps
// both seats' values, opens what the rules open, rolls dice from a seeded
// source, and lets bots decide for the seats the test does not drive.
type driver struct {
	t      testing.TB
	g      *sea.Game
	known  board.Known
	dice   *rand.Rand
	agents [2]engine.Agent
	loads  int
}

// newDriver starts a match with strong bots on both seats.
func newDriver(t testing.TB, seed uint64) *driver {
	t.Helper()
	g, err := sea.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &driver{t: t, g: g, known: board.Known{}, dice: rand.New(rand.NewPCG(seed, 0xd1ce)),
		agents: [2]engine.Agent{sea.NewStrongBot(rand.New(rand.NewPCG(seed, 1))), sea.NewStrongBot(rand.New(rand.NewPCG(seed, 2)))}}
}

// own returns seat's own known values.
func (d *driver) own(seat engine.Seat) board.Known {
	k := board.Known{}
	for s, v := range d.known {
		if s.Owner == seat {
			k[s] = v
		}
	}
	return k
}

// decide asks the seat's bot.
func (d *driver) decide(n engine.Need) engine.Decision {
	d.t.Helper()
	dec, err := d.agents[n.Seat].Decide(context.Background(), d.g.Clone(), n.Seat, d.own(n.Seat), n)
	if err != nil {
		d.t.Fatalf("bot %s for %s %s: %v", n.Seat, n.Kind, n.Name, err)
	}
	return dec
}

// apply builds the input for need n from decision dec (ignored for rolls
// and openings) and applies it, or returns why the engine refused it.
func (d *driver) apply(n engine.Need, dec engine.Decision) error {
	var in engine.Input
	switch n.Kind {
	case engine.NeedCommit:
		if len(dec.Leaves) != n.Size {
			return fmt.Errorf("%d leaves for %s", len(dec.Leaves), n.Name)
		}
		in = engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}}
	case engine.NeedMove:
		slots, err := d.g.MustOpen(n.Seat, dec.Move)
		if err != nil {
			return err
		}
		in = engine.Input{Kind: n.Kind, Seat: n.Seat, Move: dec.Move, Opened: d.opened(slots)}
	case engine.NeedOpen:
		in = engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: d.opened(n.Open)}
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			vals[i] = d.dice.IntN(n.Bound)
		}
		in = engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: vals}
	default:
		return fmt.Errorf("unexpected need %s", n.Kind)
	}
	if _, err := d.g.Apply(in); err != nil {
		return err
	}
	if n.Kind == engine.NeedCommit {
		d.known.Add(n.Seat, n.Name, dec.Leaves)
	}
	return nil
}

func (d *driver) opened(slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, len(slots))
	for i, s := range slots {
		v, ok := d.known.Value(s)
		if !ok {
			d.t.Fatalf("no value for %s", s)
		}
		out[i] = engine.Opened{Slot: s, Value: v}
	}
	return out
}

// step plays the next need with the bots and the dice.
func (d *driver) step() {
	d.t.Helper()
	n := d.g.Next()
	var dec engine.Decision
	if n.Kind == engine.NeedCommit || n.Kind == engine.NeedMove {
		dec = d.decide(n)
	}
	if err := d.apply(n, dec); err != nil {
		d.t.Fatalf("%s %s: %v", n.Kind, n.Name, err)
	}
}

// until plays with the bots until cond holds for the next need; it
// reports false if the match ended first or max inputs passed.
func (d *driver) until(cond func(n engine.Need) bool, max int) bool {
	d.t.Helper()
	for i := 0; i < max; i++ {
		n := d.g.Next()
		if n.Kind == engine.NeedNone {
			return false
		}
		if cond(n) {
			return true
		}
		d.step()
	}
	return false
}

// need reports whether n is a decision of seat named name.
func need(seat engine.Seat, kind engine.NeedKind, name string) func(engine.Need) bool {
	return func(n engine.Need) bool {
		return n.Seat == seat && n.Kind == kind && (name == "" || n.Name == name)
	}
}

// ask hands the current need to v as a request of its seat, with a
// snapshot of the game.
func (d *driver) ask(v *View) *board.Request {
	n := d.g.Next()
	d.show(v, n.Seat)
	req := board.NewRequest(n, n.Seat, d.g.Clone(), d.own(n.Seat))
	v.Ask(req)
	return req
}

// show gives v a snapshot as seen by seat.
func (d *driver) show(v *View, seat engine.Seat) {
	v.Show(board.Snapshot{Game: d.g.Clone(), Seat: seat, Secrets: d.own(seat), Names: []string{"ann", "bob"}})
}

// answer applies the answer v gave to req.
func (d *driver) answer(req *board.Request) {
	d.t.Helper()
	dec, ok := req.Answer()
	if !ok {
		d.t.Fatalf("no answer to %s %s", req.Need.Kind, req.Need.Name)
	}
	if err := d.apply(req.Need, dec); err != nil {
		d.t.Fatalf("the engine refused the view's answer to %s: %v", req.Need.Name, err)
	}
}

func newView() *View {
	return New(board.Env{Theme: style.New(false), Rand: rand.New(rand.NewPCG(7, 7))})
}

// press sends keys to the view: a rune per character of a string, or a
// named key.
func press(v *View, ks ...any) {
	h := v.InputHandler()
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				h(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), func(tview.Primitive) {})
			}
		case tcell.Key:
			h(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
		}
	}
}

// render draws the view on a w×h simulation screen and returns it.
func render(t testing.TB, v *View, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	v.SetRect(0, 0, w, h)
	v.Draw(scr)
	scr.Show()
	return scr
}

// screenText returns the screen as lines.
func screenText(scr tcell.SimulationScreen) string {
	cells, w, h := scr.GetContents()
	var b strings.Builder
	for y := range h {
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteRune(c.Runes[0])
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// glyphAt returns the glyph and style drawn for space c.
func glyphAt(scr tcell.SimulationScreen, v *View, c sea.Cell) (string, tcell.Style) {
	cells, w, _ := scr.GetContents()
	x, y := v.geo.screenOf(c)
	sc := cells[y*w+x]
	return string(sc.Runes), sc.Style
}

func cell(t testing.TB, s string) sea.Cell {
	t.Helper()
	c, err := sea.ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mouse(v *View, action tview.MouseAction, x, y int) {
	ev := tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone)
	v.MouseHandler()(action, ev, func(tview.Primitive) {})
}

// clickCell clicks space c.
func clickCell(v *View, c sea.Cell) {
	x, y := v.geo.screenOf(c)
	mouse(v, tview.MouseLeftClick, x, y)
}
