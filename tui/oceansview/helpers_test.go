package oceansview

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// table drives an ocean-card match as an honest referee would, for tests:
// it keeps both seats' leaves, rolls from a seeded source and lets a bot
// decide for each seat unless a test plays a move itself.
type table struct {
	t     testing.TB
	g     *oceans.Game
	known board.Known
	rng   *rand.Rand
	bots  [2]engine.Agent
}

func newTable(t testing.TB, seed uint64) *table {
	t.Helper()
	g, err := oceans.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, g: g, known: board.Known{}, rng: rand.New(rand.NewPCG(seed, 77))}
	for s := range tb.bots {
		tb.bots[s] = oceans.NewStrongBot(rand.New(rand.NewPCG(seed, uint64(s))))
	}
	return tb
}

// own returns seat's own known values.
func (tb *table) own(seat engine.Seat) board.Known {
	k := board.Known{}
	for s, v := range tb.known {
		if s.Owner == seat {
			k[s] = v
		}
	}
	return k
}

func (tb *table) opened(slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, len(slots))
	for i, s := range slots {
		v, ok := tb.known.Value(s)
		if !ok {
			tb.t.Fatalf("no value for %s", s)
		}
		out[i] = engine.Opened{Slot: s, Value: v}
	}
	return out
}

func (tb *table) apply(in engine.Input) []engine.Event {
	tb.t.Helper()
	evs, err := tb.g.Apply(in)
	if err != nil {
		tb.t.Fatalf("apply %v: %v", in.Kind, err)
	}
	return evs
}

func (tb *table) commit(leaves [][]byte) []engine.Event {
	tb.t.Helper()
	n := tb.g.Next()
	tb.known.Add(n.Seat, n.Name, leaves)
	return tb.apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}})
}

func (tb *table) playRaw(seat engine.Seat, b []byte) []engine.Event {
	tb.t.Helper()
	slots, err := tb.g.MustOpen(seat, b)
	if err != nil {
		tb.t.Fatal(err)
	}
	return tb.apply(engine.Input{Kind: engine.NeedMove, Seat: seat, Move: b, Opened: tb.opened(slots)})
}

// step feeds one honest input (the bots decide moves and commitments) and
// returns the engine's events.
func (tb *table) step() []engine.Event {
	tb.t.Helper()
	n := tb.g.Next()
	switch n.Kind {
	case engine.NeedCommit, engine.NeedMove:
		d, err := tb.bots[n.Seat].Decide(context.Background(), tb.g.Clone(), n.Seat, tb.own(n.Seat), n)
		if err != nil {
			tb.t.Fatal(err)
		}
		if n.Kind == engine.NeedCommit {
			return tb.commit(d.Leaves)
		}
		return tb.playRaw(n.Seat, d.Move)
	case engine.NeedOpen:
		return tb.apply(engine.Input{Kind: engine.NeedOpen, Seat: n.Seat, Opened: tb.opened(n.Open)})
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			vals[i] = tb.rng.IntN(n.Bound)
		}
		return tb.apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals})
	}
	tb.t.Fatalf("no input for %v", n.Kind)
	return nil
}

// until steps until stop holds (or the match is over) and reports whether
// stop held.
func (tb *table) until(stop func(*oceans.Game) bool) bool {
	tb.t.Helper()
	for range 100000 {
		if tb.g.Next().Kind == engine.NeedNone {
			return false
		}
		if stop(tb.g) {
			return true
		}
		tb.step()
	}
	tb.t.Fatal("the match did not end")
	return false
}

// moveOf reports whether seat must make a move now.
func moveOf(seat engine.Seat) func(*oceans.Game) bool {
	return func(g *oceans.Game) bool {
		n := g.Next()
		return n.Kind == engine.NeedMove && n.Seat == seat
	}
}

func newView() *View {
	return New(board.Env{Theme: style.New(false), Rand: rand.New(rand.NewPCG(7, 7))})
}

// show shows the table's game as seat sees it.
func (tb *table) show(v *View, seat engine.Seat) {
	v.Show(board.Snapshot{Game: tb.g.Clone(), Seat: seat, Secrets: tb.own(seat), Names: []string{"ann", "bot"}})
}

// ask hands the view the current need of seat.
func (tb *table) ask(v *View, seat engine.Seat) *board.Request {
	tb.t.Helper()
	tb.show(v, seat)
	req := board.NewRequest(tb.g.Next(), seat, tb.g.Clone(), tb.own(seat))
	v.Ask(req)
	return req
}

// answer applies the view's decision to the table.
func (tb *table) answer(req *board.Request) {
	tb.t.Helper()
	d, ok := req.Answer()
	if !ok {
		tb.t.Fatal("no decision")
	}
	switch req.Need.Kind {
	case engine.NeedCommit:
		tb.commit(d.Leaves)
	case engine.NeedMove:
		tb.playRaw(req.Seat, d.Move)
	}
}

// press sends keys to the view: a rune per character of a string, or named keys.
func press(v *View, ks ...any) {
	for _, k := range ks {
		var ev *tcell.EventKey
		switch k := k.(type) {
		case string:
			for _, r := range k {
				v.InputHandler()(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), func(tview.Primitive) {})
			}
			continue
		case tcell.Key:
			ev = tcell.NewEventKey(k, 0, tcell.ModNone)
		}
		v.InputHandler()(ev, func(tview.Primitive) {})
	}
}

// render draws the view on a w×h simulation screen and returns it and its text.
func render(t *testing.T, v *View, w, h int) (tcell.SimulationScreen, string) {
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
	cells, sw, sh := scr.GetContents()
	var b strings.Builder
	for y := range sh {
		for x := range sw {
			c := cells[y*sw+x]
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteRune(c.Runes[0])
			}
		}
		b.WriteByte('\n')
	}
	return scr, b.String()
}

func click(v *View, action tview.MouseAction, x, y int) {
	ev := tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone)
	v.MouseHandler()(action, ev, func(tview.Primitive) {})
}
