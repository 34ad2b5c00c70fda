package ubuild

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// secrets is one seat's committed leaves, as its referee would keep them.
type secrets map[engine.Slot][]byte

func (s secrets) Value(sl engine.Slot) ([]byte, bool) {
	v, ok := s[sl]
	return v, ok
}

// harness plays the referee's role honestly for tests: it keeps each seat's
// leaves, asks the agents, answers Auto needs and reveals from the secrets,
// and draws joint values from a seeded source.
type harness struct {
	g      *Game
	agents [2]engine.Agent
	sec    [2]secrets
	r      *rand.Rand
	check  func(*Game) // called after every applied input, if set
	steps  int
}

func newHarness(t testing.TB, variant string, seed uint64, a0, a1 engine.Agent) *harness {
	t.Helper()
	g, err := New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{g: g, agents: [2]engine.Agent{a0, a1}, sec: [2]secrets{{}, {}},
		r: rand.New(rand.NewPCG(seed, 0x5a17))}
}

// input builds the input that satisfies the current need honestly.
func (h *harness) input() (engine.Input, error) {
	n := h.g.Next()
	ctx := context.Background()
	switch n.Kind {
	case engine.NeedCommit:
		d, err := h.agents[n.Seat].Decide(ctx, h.g, n.Seat, h.sec[n.Seat], n)
		if err != nil {
			return engine.Input{}, err
		}
		if len(d.Leaves) != n.Size {
			return engine.Input{}, fmt.Errorf("%d leaves, want %d", len(d.Leaves), n.Size)
		}
		hs := sha256.New()
		for i, v := range d.Leaves {
			h.sec[n.Seat][engine.Slot{Owner: n.Seat, Name: n.Name, Index: i}] = v
			hs.Write(v)
		}
		c := &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}
		copy(c.Root[:], hs.Sum(nil))
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: c}, nil
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			vals[i] = h.r.IntN(n.Bound)
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: vals}, nil
	case engine.NeedMove:
		var move []byte
		if n.Auto {
			b, err := h.g.Answer(n.Seat, n, h.sec[n.Seat])
			if err != nil {
				return engine.Input{}, err
			}
			move = b
		} else {
			d, err := h.agents[n.Seat].Decide(ctx, h.g, n.Seat, h.sec[n.Seat], n)
			if err != nil {
				return engine.Input{}, err
			}
			move = d.Move
		}
		slots, err := h.g.MustOpen(n.Seat, move)
		if err != nil {
			return engine.Input{}, err
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Move: move, Opened: h.open(n.Seat, slots)}, nil
	case engine.NeedOpen:
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: h.open(n.Seat, n.Open)}, nil
	}
	return engine.Input{}, fmt.Errorf("unexpected need %s", n.Kind)
}

func (h *harness) open(seat engine.Seat, slots []engine.Slot) []engine.Opened {
	out := make([]engine.Opened, len(slots))
	for i, s := range slots {
		out[i] = engine.Opened{Slot: s, Value: h.sec[seat][s]}
	}
	return out
}

// step satisfies one need.
func (h *harness) step() ([]engine.Event, error) {
	in, err := h.input()
	if err != nil {
		return nil, err
	}
	ev, err := h.g.Apply(in)
	if err != nil {
		return nil, err
	}
	h.steps++
	if h.check != nil {
		h.check(h.g)
	}
	return ev, nil
}

// play runs the match to its end.
func (h *harness) play() (engine.Outcome, error) {
	for h.g.Next().Kind != engine.NeedNone {
		if h.steps > 10000 {
			return engine.Outcome{}, fmt.Errorf("match does not end")
		}
		if _, err := h.step(); err != nil {
			return engine.Outcome{}, fmt.Errorf("step %d (%s): %w", h.steps, h.g.Next().Prompt, err)
		}
	}
	return h.g.Outcome(), nil
}

// runUntil steps until cond holds (or the match ends).
func (h *harness) runUntil(t testing.TB, cond func(*Game) bool) {
	t.Helper()
	for !cond(h.g) {
		if h.g.Next().Kind == engine.NeedNone {
			t.Fatal("match ended before the condition held")
		}
		if _, err := h.step(); err != nil {
			t.Fatalf("step %d: %v", h.steps, err)
		}
	}
}

// fixedAgent commits a given layout and weapons and fires the given volleys
// in order; it answers nothing else.
type fixedAgent struct {
	layout  Layout
	weapons [NumShips]int
	fire    []fireStep
	next    int
}

type fireStep struct {
	ship  Ship
	shots []string
}

func (a *fixedAgent) Decide(_ context.Context, _ engine.Game, _ engine.Seat, _ engine.Secrets, n engine.Need) (engine.Decision, error) {
	switch {
	case n.Kind == engine.NeedCommit && n.Name == GridName:
		return engine.Decision{Leaves: a.layout.Leaves()}, nil
	case n.Kind == engine.NeedCommit && n.Name == WeaponsName:
		return engine.Decision{Leaves: WeaponLeaves(a.weapons)}, nil
	case n.Kind == engine.NeedMove && a.next < len(a.fire):
		f := a.fire[a.next]
		a.next++
		return engine.Decision{Move: engine.MustEncodeMove(Fire{Ship: f.ship.Key(), Shots: f.shots})}, nil
	}
	return engine.Decision{}, fmt.Errorf("fixed agent: nothing scripted for %s", n.Kind)
}
