package oceans

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// maxInputs bounds a match played to its end.
const maxInputs = 5000

// harness is the honest referee of package enginetest playing a match of
// this game, with the scripted helpers of the rule tests below.
type harness struct {
	*enginetest.Harness[*Game]
	tb testing.TB
}

func newHarness(tb testing.TB, seed uint64, a, b engine.Agent) *harness {
	tb.Helper()
	g, err := New(engine.Setup{Seats: 2})
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	h := &harness{Harness: enginetest.New(g, []engine.Agent{a, b}, seed), tb: tb}
	h.Rand = rand.New(rand.NewPCG(seed, 99)) // the stream these tests' seeds were picked with
	return h
}

// commitInput stores leaves as seat's fleet deck and returns the commit input.
func (h *harness) commitInput(seat engine.Seat, leaves [][]byte) engine.Input {
	in, err := h.Commit(engine.Need{Kind: engine.NeedCommit, Seat: seat, Name: FleetName, Size: len(leaves)}, leaves)
	if err != nil {
		h.tb.Fatal(err)
	}
	return in
}

// openings opens slots from their owners' secrets.
func (h *harness) openings(slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, 0, len(slots))
	for _, s := range slots {
		op, err := h.Open(s.Owner, []engine.Slot{s})
		if err != nil {
			h.tb.Fatal(err)
		}
		out = append(out, op...)
	}
	return out
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
	ev, err := h.Apply(in)
	if err != nil {
		h.tb.Fatalf("apply %s from %s: %v (need %+v)", in.Kind, in.Seat, err, h.Game.Next())
	}
	return ev
}

// drawValue is the roll value that draws the given leaves, in order, from
// the deck of the seat the current need draws for.
func (h *harness) drawValue(leaves ...int) int {
	h.tb.Helper()
	n := h.Game.Next()
	if n.Kind != engine.NeedRandom || n.Seat == engine.NoSeat {
		h.tb.Fatalf("need %+v is not a draw", n)
	}
	deck := slices.Clone(h.Game.seats[n.Seat].deck)
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
	in, err := h.MoveInput(seat, m.Encode())
	if err != nil {
		h.tb.Fatalf("MustOpen %+v: %v", m, err)
	}
	return h.mustApply(in)
}

// try plays a move and returns Apply's error, checking that a failure
// leaves the state unchanged.
func (h *harness) try(seat engine.Seat, m Move) error {
	h.tb.Helper()
	in, err := h.MoveInput(seat, m.Encode())
	if err != nil {
		return err
	}
	return h.tryInput(in)
}

// tryInput applies in and checks that a failure leaves the hash unchanged.
func (h *harness) tryInput(in engine.Input) error {
	h.tb.Helper()
	before := h.Game.Hash()
	_, err := h.Apply(in)
	if err != nil && h.Game.Hash() != before {
		h.tb.Fatalf("failed input changed the state: %v", err)
	}
	return err
}

// open answers the current NeedOpen honestly.
func (h *harness) open() []engine.Event {
	h.tb.Helper()
	n := h.Game.Next()
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
