package cardsview

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// table drives a coordinate-card match as an honest referee would, for
// tests: it keeps both seats' leaves, rolls from a seeded source and lets
// the strong bot decide for both seats unless a test plays a move itself.
type table struct {
	t     *testing.T
	g     *cards.Game
	known board.Known
	rng   *rand.Rand
	bots  [2]engine.Agent
}

func newTable(t *testing.T, variant string, seed uint64) *table {
	t.Helper()
	g, err := cards.New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{t: t, g: g, known: board.Known{}, rng: rand.New(rand.NewPCG(seed, 99))}
	for s := range tb.bots {
		tb.bots[s] = cards.NewStrongBot(rand.New(rand.NewPCG(seed, uint64(s))))
	}
	return tb
}

// own returns seat's own known values.
func (tb *table) own(seat engine.Seat) board.Known { return boardtest.Own(tb.known, seat) }

func (tb *table) opened(slots []engine.Slot) []engine.Opened {
	return boardtest.Open(tb.t, tb.known, slots)
}

// commit commits leaves for the current need.
func (tb *table) commit(leaves [][]byte) {
	tb.t.Helper()
	n := tb.g.Next()
	tb.known.Add(n.Seat, n.Name, leaves)
	tb.apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}})
}

func (tb *table) apply(in engine.Input) []engine.Event {
	tb.t.Helper()
	evs, err := tb.g.Apply(in)
	if err != nil {
		tb.t.Fatalf("apply %v: %v", in.Kind, err)
	}
	return evs
}

// play applies a move of the seat on move with honest openings.
func (tb *table) play(m cards.Move) {
	tb.t.Helper()
	tb.playRaw(tb.g.Next().Seat, m.Encode())
}

func (tb *table) playRaw(seat engine.Seat, b []byte) {
	tb.t.Helper()
	slots, err := tb.g.MustOpen(seat, b)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.apply(engine.Input{Kind: engine.NeedMove, Seat: seat, Move: b, Opened: tb.opened(slots)})
}

// step feeds one honest input: bots decide moves and commitments.
func (tb *table) step() {
	tb.t.Helper()
	n := tb.g.Next()
	switch n.Kind {
	case engine.NeedCommit, engine.NeedMove:
		d, err := tb.bots[n.Seat].Decide(context.Background(), tb.g.Clone(), n.Seat, tb.own(n.Seat), n)
		if err != nil {
			tb.t.Fatal(err)
		}
		if n.Kind == engine.NeedCommit {
			tb.commit(d.Leaves)
			return
		}
		tb.playRaw(n.Seat, d.Move)
	case engine.NeedOpen:
		tb.apply(engine.Input{Kind: engine.NeedOpen, Seat: n.Seat, Opened: tb.opened(n.Open)})
	case engine.NeedRandom:
		tb.apply(boardtest.Roll(tb.rng, n))
	default:
		tb.t.Fatalf("no input for %v", n.Kind)
	}
}

// until steps until stop holds (or the match is over) and reports whether
// stop held.
func (tb *table) until(stop func(*cards.Game) bool) bool {
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

// fixed commits both seats' coordinate cards and decks in list order.
func (tb *table) fixed(variant string) {
	tb.t.Helper()
	for tb.g.Next().Kind == engine.NeedCommit {
		n := tb.g.Next()
		var leaves [][]byte
		if n.Name == cards.CoordsName {
			for _, k := range cards.CoordList() {
				leaves = append(leaves, cards.EncodeCoord(k))
			}
		} else {
			deck, err := cards.DeckList(variant)
			if err != nil {
				tb.t.Fatal(err)
			}
			for _, f := range deck {
				leaves = append(leaves, cards.EncodeCard(f))
			}
		}
		tb.commit(leaves)
	}
}

// myTurn reports whether seat must play a card now.
func myTurn(seat engine.Seat) func(*cards.Game) bool {
	return func(g *cards.Game) bool {
		n := g.Next()
		return n.Kind == engine.NeedMove && n.Seat == seat && !isStartNeed(g, seat)
	}
}

func isStartNeed(g *cards.Game, seat engine.Seat) bool {
	return strings.Contains(g.Next().Prompt, "PT Boat")
}

func newView() *View {
	return New(board.Env{Theme: style.New(false), Rand: rand.New(rand.NewPCG(7, 7))})
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
