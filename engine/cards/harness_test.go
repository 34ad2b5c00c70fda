package cards

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"golang.org/x/crypto/blake2b"
)

// table plays the referee's role honestly for tests: it keeps every seat's
// committed leaves, answers commit, open and random needs, and asks the
// agents for their decisions. Random values come from rng unless a test
// queues its own in script.
type table struct {
	g      *Game
	leaves map[engine.Slot][]byte
	rng    *rand.Rand
	agents [2]engine.Agent
	script []int // queued roll values, used before rng
	// commit, when set, supplies the leaves of a commitment instead of the agent.
	commit func(n engine.Need) [][]byte
	// observe, when set, sees every input before it is applied.
	observe func(in engine.Input)
	inputs  int
}

// secrets is one seat's view of the table's leaves.
type secrets struct {
	t    *table
	seat engine.Seat
}

// Value implements engine.Secrets.
func (s secrets) Value(sl engine.Slot) ([]byte, bool) {
	if sl.Owner != s.seat {
		return nil, false
	}
	v, ok := s.t.leaves[sl]
	return v, ok
}

func newTable(t testing.TB, variant string, seed uint64, a0, a1 engine.Agent) *table {
	t.Helper()
	g, err := New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &table{g: g, leaves: map[engine.Slot][]byte{}, rng: rand.New(rand.NewPCG(seed, 0x5a1f0)), agents: [2]engine.Agent{a0, a1}}
}

func (tb *table) sec(s engine.Seat) engine.Secrets { return secrets{t: tb, seat: s} }

// input builds the honest input for the current need.
func (tb *table) input() (engine.Input, error) {
	n := tb.g.Next()
	switch n.Kind {
	case engine.NeedCommit:
		var leaves [][]byte
		if tb.commit != nil {
			leaves = tb.commit(n)
		}
		if leaves == nil {
			d, err := tb.agents[n.Seat].Decide(context.Background(), tb.g.Clone(), n.Seat, tb.sec(n.Seat), n)
			if err != nil {
				return engine.Input{}, fmt.Errorf("decide commit: %w", err)
			}
			leaves = d.Leaves
		}
		if len(leaves) != n.Size {
			return engine.Input{}, fmt.Errorf("%d leaves for %q, want %d", len(leaves), n.Name, n.Size)
		}
		h, _ := blake2b.New256(nil)
		for i, v := range leaves {
			tb.leaves[engine.Slot{Owner: n.Seat, Name: n.Name, Index: i}] = v
			h.Write(v)
		}
		var root engine.Digest
		copy(root[:], h.Sum(nil))
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size, Root: root}}, nil
	case engine.NeedMove:
		d, err := tb.agents[n.Seat].Decide(context.Background(), tb.g.Clone(), n.Seat, tb.sec(n.Seat), n)
		if err != nil {
			return engine.Input{}, fmt.Errorf("decide move: %w", err)
		}
		return tb.moveInput(n.Seat, d.Move)
	case engine.NeedOpen:
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: tb.open(n.Open)}, nil
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			if len(tb.script) > 0 {
				vals[i], tb.script = tb.script[0], tb.script[1:]
			} else {
				vals[i] = tb.rng.IntN(n.Bound)
			}
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: vals}, nil
	}
	return engine.Input{}, fmt.Errorf("no input for a %s need", n.Kind)
}

// moveInput attaches the openings MustOpen asks for to a move.
func (tb *table) moveInput(s engine.Seat, move []byte) (engine.Input, error) {
	slots, err := tb.g.MustOpen(s, move)
	if err != nil {
		return engine.Input{}, fmt.Errorf("must open: %w", err)
	}
	return engine.Input{Kind: engine.NeedMove, Seat: s, Move: move, Opened: tb.open(slots)}, nil
}

func (tb *table) open(slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, 0, len(slots))
	for _, sl := range slots {
		out = append(out, engine.Opened{Slot: sl, Value: tb.leaves[sl]})
	}
	return out
}

func (tb *table) apply(in engine.Input) ([]engine.Event, error) {
	if tb.observe != nil {
		tb.observe(in)
	}
	tb.inputs++
	return tb.g.Apply(in)
}

// step feeds the honest input for the current need.
func (tb *table) step() error {
	in, err := tb.input()
	if err != nil {
		return err
	}
	if _, err := tb.apply(in); err != nil {
		return fmt.Errorf("apply %s: %w", in.Kind, err)
	}
	return nil
}

// run plays until the match needs nothing more, or until stop says so.
func (tb *table) run(stop func(engine.Need) bool) error {
	for i := 0; ; i++ {
		n := tb.g.Next()
		if n.Kind == engine.NeedNone || (stop != nil && stop(n)) {
			return nil
		}
		if i > 100000 {
			return fmt.Errorf("match did not end after %d inputs", i)
		}
		if err := tb.step(); err != nil {
			return err
		}
	}
}

// playMove applies m for seat s with honest openings.
func (tb *table) playMove(s engine.Seat, m Move) ([]engine.Event, error) {
	in, err := tb.moveInput(s, m.Encode())
	if err != nil {
		return nil, err
	}
	return tb.apply(in)
}

// mustPlay applies m and fails the test on an error.
func (tb *table) mustPlay(t *testing.T, s engine.Seat, m Move) []engine.Event {
	t.Helper()
	evs, err := tb.playMove(s, m)
	if err != nil {
		t.Fatalf("play %v: %v", m, err)
	}
	return evs
}

// mustStep feeds honest inputs for non-move needs until the match needs a move
// (or is over), failing the test on an error.
func (tb *table) settle(t *testing.T) {
	t.Helper()
	if err := tb.run(func(n engine.Need) bool { return n.Kind == engine.NeedMove }); err != nil {
		t.Fatal(err)
	}
}

func isIllegal(err error) bool { return errors.Is(err, engine.ErrIllegal) }
