package boardtest

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/board"
)

// Table drives a match of a commitment game (every hidden value committed
// by its owner as leaves) as an honest referee would, for view tests: it
// keeps every seat's leaves, opens what the rules open, rolls from a seeded
// source and lets a bot decide for each seat unless a test plays a move
// itself. G is the game's concrete type, so that tests read its state.
type Table[G engine.Game] struct {
	// T is the test the table fails.
	T testing.TB
	// G is the game being played.
	G G
	// Known holds every seat's committed values.
	Known board.Known
	// Rng rolls the game's random values.
	Rng *rand.Rand
	// Bots decide for the seats, by seat.
	Bots []engine.Agent
	// Names are the players' names, by seat, in the snapshots views get.
	Names []string
}

// NewTable returns a table of game g rolling from rng, with bots deciding
// by seat.
func NewTable[G engine.Game](t testing.TB, g G, rng *rand.Rand, bots ...engine.Agent) *Table[G] {
	return &Table[G]{T: t, G: g, Known: board.Known{}, Rng: rng, Bots: bots}
}

// Own returns seat's own known values.
func (tb *Table[G]) Own(seat engine.Seat) board.Known { return Own(tb.Known, seat) }

// Open opens slots honestly (see [Open]).
func (tb *Table[G]) Open(slots []engine.Slot) []engine.Opened {
	tb.T.Helper()
	return Open(tb.T, tb.Known, slots)
}

// Apply applies in and returns the game's events; a refused input fails
// the test.
func (tb *Table[G]) Apply(in engine.Input) []engine.Event {
	tb.T.Helper()
	evs, err := tb.G.Apply(in)
	if err != nil {
		tb.T.Fatalf("apply %v: %v", in.Kind, err)
	}
	return evs
}

// Commit commits leaves for the current need, keeping them.
func (tb *Table[G]) Commit(leaves [][]byte) []engine.Event {
	tb.T.Helper()
	n := tb.G.Next()
	tb.Known.Add(n.Seat, n.Name, leaves)
	return tb.Apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}})
}

// Play applies encoded move b by seat with honest openings.
func (tb *Table[G]) Play(seat engine.Seat, b []byte) []engine.Event {
	tb.T.Helper()
	slots, err := tb.G.MustOpen(seat, b)
	if err != nil {
		tb.T.Fatal(err)
		return nil
	}
	return tb.Apply(engine.Input{Kind: engine.NeedMove, Seat: seat, Move: b, Opened: tb.Open(slots)})
}

// Step feeds one honest input (the bots decide moves and commitments) and
// returns the game's events. A need the table cannot meet fails the test.
func (tb *Table[G]) Step() []engine.Event {
	tb.T.Helper()
	n := tb.G.Next()
	switch n.Kind {
	case engine.NeedCommit, engine.NeedMove:
		if n.Seat < 0 || int(n.Seat) >= len(tb.Bots) {
			tb.T.Fatalf("no bot for %s", n.Seat)
			return nil
		}
		d, err := tb.Bots[n.Seat].Decide(context.Background(), tb.G.Clone(), n.Seat, tb.Own(n.Seat), n)
		if err != nil {
			tb.T.Fatal(err)
			return nil
		}
		if n.Kind == engine.NeedCommit {
			return tb.Commit(d.Leaves)
		}
		return tb.Play(n.Seat, d.Move)
	case engine.NeedOpen:
		return tb.Apply(engine.Input{Kind: engine.NeedOpen, Seat: n.Seat, Opened: tb.Open(n.Open)})
	case engine.NeedRandom:
		return tb.Apply(Roll(tb.Rng, n))
	}
	tb.T.Fatalf("no input for %v", n.Kind)
	return nil
}

// Until steps until stop holds (or the match is over) and reports whether
// stop held. A match that goes on for 100000 inputs fails the test.
func (tb *Table[G]) Until(stop func(G) bool) bool {
	tb.T.Helper()
	for range 100000 {
		if tb.G.Next().Kind == engine.NeedNone {
			return false
		}
		if stop(tb.G) {
			return true
		}
		tb.Step()
	}
	tb.T.Fatal("the match did not end")
	return false
}

// Show gives v a snapshot of the game as seat sees it.
func (tb *Table[G]) Show(v board.View, seat engine.Seat) {
	Show(v, tb.G, seat, tb.Own(seat), tb.Names...)
}

// Ask hands v the current need as a request of seat (see [Ask]).
func (tb *Table[G]) Ask(v board.View, seat engine.Seat) *board.Request {
	tb.T.Helper()
	return Ask(v, tb.G, seat, tb.Own(seat), tb.Names...)
}

// Answer applies the decision v made for req: its commitment or its move.
func (tb *Table[G]) Answer(req *board.Request) {
	tb.T.Helper()
	d := Answer(tb.T, req)
	switch req.Need.Kind {
	case engine.NeedCommit:
		tb.Commit(d.Leaves)
	case engine.NeedMove:
		tb.Play(req.Seat, d.Move)
	}
}
