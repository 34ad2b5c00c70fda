package oceansview

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
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
func (tb *table) own(seat engine.Seat) board.Known { return boardtest.Own(tb.known, seat) }

func (tb *table) opened(slots []engine.Slot) []engine.Opened {
	return boardtest.Open(tb.t, tb.known, slots)
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
		return tb.apply(boardtest.Roll(tb.rng, n))
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
	boardtest.Show(v, tb.g, seat, tb.own(seat), "ann", "bot")
}

// ask hands the view the current need of seat.
func (tb *table) ask(v *View, seat engine.Seat) *board.Request {
	tb.t.Helper()
	return boardtest.Ask(v, tb.g, seat, tb.own(seat), "ann", "bot")
}

// answer applies the view's decision to the table.
func (tb *table) answer(req *board.Request) {
	tb.t.Helper()
	d := boardtest.Answer(tb.t, req)
	switch req.Need.Kind {
	case engine.NeedCommit:
		tb.commit(d.Leaves)
	case engine.NeedMove:
		tb.playRaw(req.Seat, d.Move)
	}
}

// render draws the view on a w×h simulation screen and returns it and its text.
func render(t testing.TB, v *View, w, h int) (tcell.SimulationScreen, string) {
	t.Helper()
	scr := boardtest.Render(t, v, w, h)
	return scr, boardtest.Text(scr)
}
