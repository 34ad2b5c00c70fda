package sea

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"golang.org/x/crypto/blake2b"
)

// secretStore is one seat's committed leaves, as its referee would keep them.
type secretStore struct {
	seat   engine.Seat
	leaves map[string][][]byte
}

func (s *secretStore) Value(slot engine.Slot) ([]byte, bool) {
	if slot.Owner != s.seat {
		return nil, false
	}
	l, ok := s.leaves[slot.Name]
	if !ok || slot.Index < 0 || slot.Index >= len(l) {
		return nil, false
	}
	return l[slot.Index], true
}

// harness plays the referee's role honestly: it keeps each seat's leaves,
// answers commitments and openings from them, and rolls dice from a seeded
// source. It is the stand-in for package fairness in these tests.
type harness struct {
	t      testing.TB
	g      *Game
	shadow *Game // fed the same inputs; must agree on every hash
	agents [2]engine.Agent
	sec    [2]*secretStore
	dice   *rand.Rand
	steps  int
	events []engine.Event
	// onApply, when set, runs before every input is applied (property
	// checks such as illegal-input probes).
	onApply func(h *harness, n engine.Need, in engine.Input)
}

func newHarness(t testing.TB, seed uint64, a0, a1 engine.Agent) *harness {
	g, err := New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{
		t: t, g: g, agents: [2]engine.Agent{a0, a1},
		sec:  [2]*secretStore{{seat: 0, leaves: map[string][][]byte{}}, {seat: 1, leaves: map[string][][]byte{}}},
		dice: rand.New(rand.NewPCG(seed, 0xd1ce)),
	}
}

func fakeRoot(leaves [][]byte) engine.Digest {
	h, _ := blake2b.New256(nil)
	for _, l := range leaves {
		h.Write([]byte{byte(len(l))})
		h.Write(l)
	}
	var d engine.Digest
	copy(d[:], h.Sum(nil))
	return d
}

// open returns honest openings of slots from their owners' secrets.
func (h *harness) open(slots []engine.Slot) ([]engine.Opened, error) {
	var out []engine.Opened
	for _, s := range slots {
		if s.Owner != 0 && s.Owner != 1 {
			return nil, fmt.Errorf("slot %s has no owner", s)
		}
		v, ok := h.sec[s.Owner].Value(s)
		if !ok {
			return nil, fmt.Errorf("no secret for %s", s)
		}
		out = append(out, engine.Opened{Slot: s, Value: v})
	}
	return out, nil
}

// input builds the honest input for need n.
func (h *harness) input(n engine.Need) (engine.Input, error) {
	ctx := context.Background()
	switch n.Kind {
	case engine.NeedCommit:
		d, err := h.agents[n.Seat].Decide(ctx, h.g.Clone(), n.Seat, h.sec[n.Seat], n)
		if err != nil {
			return engine.Input{}, err
		}
		if len(d.Leaves) != n.Size {
			return engine.Input{}, fmt.Errorf("%d leaves for %s, want %d", len(d.Leaves), n.Name, n.Size)
		}
		h.sec[n.Seat].leaves[n.Name] = d.Leaves
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size, Root: fakeRoot(d.Leaves)}}, nil
	case engine.NeedMove:
		d, err := h.agents[n.Seat].Decide(ctx, h.g.Clone(), n.Seat, h.sec[n.Seat], n)
		if err != nil {
			return engine.Input{}, err
		}
		slots, err := h.g.MustOpen(n.Seat, d.Move)
		if err != nil {
			return engine.Input{}, fmt.Errorf("must open %s: %w", d.Move, err)
		}
		op, err := h.open(slots)
		if err != nil {
			return engine.Input{}, err
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Move: d.Move, Opened: op}, nil
	case engine.NeedOpen:
		op, err := h.open(n.Open)
		if err != nil {
			return engine.Input{}, err
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: op}, nil
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			vals[i] = h.dice.IntN(n.Bound)
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: vals}, nil
	}
	return engine.Input{}, fmt.Errorf("unexpected need %s", n.Kind)
}

// apply feeds in to the game (and the shadow) and checks they agree.
func (h *harness) apply(in engine.Input) error {
	evs, err := h.g.Apply(in)
	if err != nil {
		return err
	}
	h.events = append(h.events, evs...)
	if h.shadow != nil {
		if _, err := h.shadow.Apply(in); err != nil {
			return fmt.Errorf("shadow engine refused what the main engine took: %w", err)
		}
		if h.shadow.Hash() != h.g.Hash() {
			return errors.New("shadow engine hash differs")
		}
	}
	return nil
}

// step plays one need.
func (h *harness) step() error {
	n := h.g.Next()
	in, err := h.input(n)
	if err != nil {
		return fmt.Errorf("step %d (%s %s): %w", h.steps, n.Kind, n.Name, err)
	}
	if h.onApply != nil {
		h.onApply(h, n, in)
	}
	if err := h.apply(in); err != nil {
		return fmt.Errorf("step %d (%s %s, move %s): %w", h.steps, n.Kind, n.Name, in.Move, err)
	}
	h.steps++
	return nil
}

// play runs the match to its end (or maxSteps inputs).
func (h *harness) play(maxSteps int) error {
	for h.g.Next().Kind != engine.NeedNone {
		if h.steps >= maxSteps {
			return fmt.Errorf("match not over after %d inputs", maxSteps)
		}
		if err := h.step(); err != nil {
			return err
		}
	}
	return nil
}

// playUntil plays until cond holds for the game.
func (h *harness) playUntil(cond func(*Game) bool, maxSteps int) error {
	for !cond(h.g) {
		if h.g.Next().Kind == engine.NeedNone || h.steps >= maxSteps {
			return errors.New("condition never reached")
		}
		if err := h.step(); err != nil {
			return err
		}
	}
	return nil
}
