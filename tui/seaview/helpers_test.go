package seaview

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
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
func (d *driver) own(seat engine.Seat) board.Known { return boardtest.Own(d.known, seat) }

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
		in = engine.Input{Kind: n.Kind, Seat: n.Seat, Move: dec.Move, Opened: boardtest.Open(d.t, d.known, slots)}
	case engine.NeedOpen:
		in = engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: boardtest.Open(d.t, d.known, n.Open)}
	case engine.NeedRandom:
		in = boardtest.Roll(d.dice, n)
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
	seat := d.g.Next().Seat
	return boardtest.Ask(v, d.g, seat, d.own(seat), "ann", "bob")
}

// show gives v a snapshot as seen by seat.
func (d *driver) show(v *View, seat engine.Seat) {
	boardtest.Show(v, d.g, seat, d.own(seat), "ann", "bob")
}

// answer applies the answer v gave to req.
func (d *driver) answer(req *board.Request) {
	d.t.Helper()
	dec := boardtest.Answer(d.t, req)
	if err := d.apply(req.Need, dec); err != nil {
		d.t.Fatalf("the engine refused the view's answer to %s: %v", req.Need.Name, err)
	}
}

func newView() *View {
	return New(boardtest.Env(false))
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

// clickCell clicks space c.
func clickCell(v *View, c sea.Cell) {
	x, y := v.geo.screenOf(c)
	boardtest.Mouse(v, tview.MouseLeftClick, x, y)
}
