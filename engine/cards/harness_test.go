package cards

import (
	"errors"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// maxInputs bounds a match played by the table.
const maxInputs = 100000

// table is the honest referee of package enginetest playing a match of
// this game, with this package's scripted helpers (here and in
// fixture_test.go).
type table struct {
	*enginetest.Harness[*Game]
	// commit, when set, supplies the leaves of a commitment instead of the
	// agent (nil leaves leave it to the agent).
	commit func(n engine.Need) [][]byte
}

func newTable(t testing.TB, variant string, seed uint64, a0, a1 engine.Agent) *table {
	t.Helper()
	g, err := New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	tb := &table{Harness: enginetest.New(g, []engine.Agent{a0, a1}, seed)}
	tb.Answers = map[engine.NeedKind]func(engine.Need) (engine.Input, error){engine.NeedCommit: tb.commitInput}
	return tb
}

// commitInput commits the leaves tb.commit supplies, or else the agent's.
func (tb *table) commitInput(n engine.Need) (engine.Input, error) {
	if tb.commit != nil {
		if leaves := tb.commit(n); leaves != nil {
			return tb.Commit(n, leaves)
		}
	}
	return tb.Honest(n)
}

// leaf returns the committed value at slot, from its owner's secrets.
func (tb *table) leaf(s engine.Slot) []byte { return tb.Secrets(s.Owner)[s] }

// open opens slots from their owners' secrets; a slot nobody committed
// opens to nil (fuzzed moves name such slots).
func (tb *table) open(slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, 0, len(slots))
	for _, sl := range slots {
		out = append(out, engine.Opened{Slot: sl, Value: tb.leaf(sl)})
	}
	return out
}

// playMove applies m for seat s with honest openings.
func (tb *table) playMove(s engine.Seat, m Move) ([]engine.Event, error) {
	in, err := tb.MoveInput(s, m.Encode())
	if err != nil {
		return nil, err
	}
	return tb.Apply(in)
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

// settle feeds honest inputs for non-move needs until the match needs a
// move (or is over), failing the test on an error.
func (tb *table) settle(t *testing.T) {
	t.Helper()
	if err := tb.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedMove || n.Kind == engine.NeedNone }, maxInputs); err != nil {
		t.Fatal(err)
	}
}

func isIllegal(err error) bool { return errors.Is(err, engine.ErrIllegal) }
