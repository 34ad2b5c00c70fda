package oceans

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// secrets is one seat's committed leaves, as the referee keeps them.
type secrets map[engine.Slot][]byte

// Value implements engine.Secrets.
func (s secrets) Value(sl engine.Slot) ([]byte, bool) {
	v, ok := s[sl]
	return v, ok
}

// harness plays the referee's role honestly: it keeps each seat's leaves,
// answers commitments, openings and rolls, and records every input.
type harness struct {
	tb     testing.TB
	g      *Game
	sec    [2]secrets
	rng    *rand.Rand // joint random values
	agents [2]engine.Agent
	inputs []engine.Input
	events []engine.Event
}

func newHarness(tb testing.TB, seed uint64, a, b engine.Agent) *harness {
	tb.Helper()
	g, err := New(engine.Setup{Seats: 2})
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	return &harness{tb: tb, g: g, sec: [2]secrets{{}, {}}, rng: rand.New(rand.NewPCG(seed, 99)), agents: [2]engine.Agent{a, b}}
}

// root is a stand-in Merkle root: the engine only stores it.
func root(leaves [][]byte) engine.Digest {
	h := engine.NewHasher("test/root")
	for _, l := range leaves {
		h.Bytes(l)
	}
	return h.Sum()
}

// commitInput stores leaves as seat's secrets and returns the commit input.
func (h *harness) commitInput(seat engine.Seat, leaves [][]byte) engine.Input {
	for i, l := range leaves {
		h.sec[seat][slot(seat, i)] = l
	}
	return engine.Input{Kind: engine.NeedCommit, Seat: seat,
		Commitment: &engine.Commitment{Owner: seat, Name: FleetName, Size: len(leaves), Root: root(leaves)}}
}

// openings opens slots from their owners' secrets.
func (h *harness) openings(slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, 0, len(slots))
	for _, s := range slots {
		v, ok := h.sec[s.Owner][s]
		if !ok {
			h.tb.Fatalf("harness has no secret for %v", s)
		}
		out = append(out, engine.Opened{Slot: s, Value: v})
	}
	return out
}

// moveInput builds the input for move by seat, with the openings it must carry.
func (h *harness) moveInput(seat engine.Seat, move []byte) (engine.Input, error) {
	slots, err := h.g.MustOpen(seat, move)
	if err != nil {
		return engine.Input{}, err
	}
	return engine.Input{Kind: engine.NeedMove, Seat: seat, Move: move, Opened: h.openings(slots)}, nil
}

// apply feeds one input and records it.
func (h *harness) apply(in engine.Input) ([]engine.Event, error) {
	ev, err := h.g.Apply(in)
	if err == nil {
		h.inputs = append(h.inputs, in)
		h.events = append(h.events, ev...)
	}
	return ev, err
}

// input answers the current need honestly, asking the agents for decisions.
func (h *harness) input() (engine.Input, error) {
	n := h.g.Next()
	switch n.Kind {
	case engine.NeedCommit:
		d, err := h.agents[n.Seat].Decide(context.Background(), h.g.Clone(), n.Seat, h.sec[n.Seat], n)
		if err != nil {
			return engine.Input{}, err
		}
		return h.commitInput(n.Seat, d.Leaves), nil
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			vals[i] = h.rng.IntN(n.Bound)
		}
		return engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}, nil
	case engine.NeedOpen:
		return engine.Input{Kind: engine.NeedOpen, Seat: n.Seat, Opened: h.openings(n.Open)}, nil
	case engine.NeedMove:
		d, err := h.agents[n.Seat].Decide(context.Background(), h.g.Clone(), n.Seat, h.sec[n.Seat], n)
		if err != nil {
			return engine.Input{}, err
		}
		return h.moveInput(n.Seat, d.Move)
	}
	return engine.Input{}, fmt.Errorf("harness cannot answer a %s need", n.Kind)
}

// step answers one need.
func (h *harness) step() error {
	in, err := h.input()
	if err != nil {
		return err
	}
	if _, err := h.apply(in); err != nil {
		return fmt.Errorf("apply %s from %s: %w", in.Kind, in.Seat, err)
	}
	return nil
}

// run plays the match to its end.
func (h *harness) run() error {
	for i := 0; h.g.Next().Kind != engine.NeedNone; i++ {
		if i > 5000 {
			return fmt.Errorf("match did not end after %d inputs", i)
		}
		if err := h.step(); err != nil {
			return err
		}
	}
	return nil
}

// --- scripted play, for rule tests ---

// sortedLeaves is the deck in DeckList order: leaf i holds DeckList()[i].
func sortedLeaves() [][]byte {
	cards := DeckList()
	out := make([][]byte, len(cards))
	for i, c := range cards {
		out[i] = EncodeCard(c)
	}
	return out
}

// leafOf returns the n-th leaf (from 0) holding card c in the sorted deck.
func leafOf(c Card, n int) int {
	i := 0
	for k := Card(1); k < c; k++ {
		i += deckCounts[k]
	}
	return i + n
}

// mustApply applies an input and fails the test on error.
func (h *harness) mustApply(in engine.Input) []engine.Event {
	h.tb.Helper()
	ev, err := h.apply(in)
	if err != nil {
		h.tb.Fatalf("apply %s from %s: %v (need %+v)", in.Kind, in.Seat, err, h.g.Next())
	}
	return ev
}

// drawValue is the roll value that draws the given leaves, in order, from
// the deck of the seat the current need draws for.
func (h *harness) drawValue(leaves ...int) int {
	h.tb.Helper()
	n := h.g.Next()
	if n.Kind != engine.NeedRandom || n.Seat == engine.NoSeat {
		h.tb.Fatalf("need %+v is not a draw", n)
	}
	deck := slices.Clone(h.g.seats[n.Seat].deck)
	v, mult := 0, 1
	for _, l := range leaves {
		d := slices.Index(deck, l)
		if d < 0 {
			h.tb.Fatalf("leaf %d is not in %s's deck", l, n.Seat)
		}
		v += d * mult
		mult *= len(deck)
		deck = slices.Delete(deck, d, d+1)
	}
	return v
}

// drawInput is the roll input that draws the given leaves.
func (h *harness) drawInput(leaves ...int) engine.Input {
	return engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{h.drawValue(leaves...)}}
}

// draw feeds the roll that draws the given leaves.
func (h *harness) draw(leaves ...int) { h.tb.Helper(); h.mustApply(h.drawInput(leaves...)) }

// do plays a move and fails the test on error.
func (h *harness) do(seat engine.Seat, m Move) []engine.Event {
	h.tb.Helper()
	in, err := h.moveInput(seat, m.Encode())
	if err != nil {
		h.tb.Fatalf("MustOpen %+v: %v", m, err)
	}
	return h.mustApply(in)
}

// try plays a move and returns Apply's error, checking that a failure
// leaves the state unchanged.
func (h *harness) try(seat engine.Seat, m Move) error {
	h.tb.Helper()
	in, err := h.moveInput(seat, m.Encode())
	if err != nil {
		return err
	}
	return h.tryInput(in)
}

// tryInput applies in and checks that a failure leaves the hash unchanged.
func (h *harness) tryInput(in engine.Input) error {
	h.tb.Helper()
	before := h.g.Hash()
	_, err := h.apply(in)
	if err != nil && h.g.Hash() != before {
		h.tb.Fatalf("failed input changed the state: %v", err)
	}
	return err
}

// open answers the current NeedOpen honestly.
func (h *harness) open() []engine.Event {
	h.tb.Helper()
	n := h.g.Next()
	if n.Kind != engine.NeedOpen {
		h.tb.Fatalf("need %+v is not an opening", n)
	}
	return h.mustApply(engine.Input{Kind: engine.NeedOpen, Seat: n.Seat, Opened: h.openings(n.Open)})
}

// setup commits sorted decks for both seats, makes first player #1 and
// deals the given leaves.
func (h *harness) setup(first engine.Seat, hand1, hand2 []int) {
	h.tb.Helper()
	for s := range engine.Seat(2) {
		h.mustApply(h.commitInput(s, sortedLeaves()))
	}
	h.mustApply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{int(first)}})
	h.draw(hand1...)
	h.draw(hand2...)
}
