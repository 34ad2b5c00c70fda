package air

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// referee plays the referee's part honestly for tests: it keeps the secret
// order of every shuffled deck, tells each seat the cards dealt to it,
// opens chosen cards, and rolls dice from a seeded source.
type referee struct {
	g      *Game
	rng    *rand.Rand
	decks  map[string][]int // deck name → card number at each position
	next   map[string]int
	holder map[engine.Slot]engine.Seat
	opened map[engine.Slot]bool
	events []engine.Event
	steps  int
}

func newReferee(t testing.TB, seats int, variant string, seed uint64) *referee {
	t.Helper()
	g, err := New(engine.Setup{Seats: seats, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	return &referee{
		g:      g,
		rng:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		decks:  map[string][]int{},
		next:   map[string]int{},
		holder: map[engine.Slot]engine.Seat{},
		opened: map[engine.Slot]bool{},
	}
}

type secrets struct {
	r    *referee
	seat engine.Seat
}

func (s secrets) Value(slot engine.Slot) ([]byte, bool) {
	d, ok := s.r.decks[slot.Name]
	if !ok || slot.Index < 0 || slot.Index >= len(d) {
		return nil, false
	}
	if h, ok := s.r.holder[slot]; (ok && h == s.seat) || s.r.opened[slot] {
		return []byte{byte(d[slot.Index])}, true
	}
	return nil, false
}

func (r *referee) secrets(seat engine.Seat) engine.Secrets { return secrets{r: r, seat: seat} }

// input builds the honest input for the current need, asking agents for
// decisions.
func (r *referee) input(agents []engine.Agent) (engine.Input, error) {
	n := r.g.Next()
	ctx := context.Background()
	switch n.Kind {
	case engine.NeedShuffle:
		var vals []int
		if len(n.Open) == 0 {
			for v := 1; v <= n.Size; v++ {
				vals = append(vals, v)
			}
		} else {
			for _, s := range n.Open {
				vals = append(vals, r.decks[s.Name][s.Index])
			}
		}
		r.rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		r.decks[n.Name] = vals
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat}, nil
	case engine.NeedDeal:
		var cards []int
		for i := range n.Count {
			cards = append(cards, r.next[n.Name]+i)
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Cards: cards}, nil
	case engine.NeedChoice:
		var ch [][]byte
		for _, s := range n.Seats {
			d, err := agents[s].Decide(ctx, r.g.Clone(), s, r.secrets(s), n)
			if err != nil {
				return engine.Input{}, err
			}
			ch = append(ch, d.Choice)
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Choices: ch}, nil
	case engine.NeedOpen:
		var op []engine.Opened
		for _, s := range n.Open {
			v, ok := r.secrets(n.Seat).Value(s)
			if !ok {
				return engine.Input{}, fmt.Errorf("%s cannot open %s", n.Seat, s)
			}
			op = append(op, engine.Opened{Slot: s, Value: v})
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: op}, nil
	case engine.NeedRandom:
		vals := make([]int, n.Count)
		for i := range vals {
			vals[i] = r.rng.IntN(n.Bound)
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: vals}, nil
	case engine.NeedMove:
		d, err := agents[n.Seat].Decide(ctx, r.g.Clone(), n.Seat, r.secrets(n.Seat), n)
		if err != nil {
			return engine.Input{}, err
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Move: d.Move}, nil
	}
	return engine.Input{}, fmt.Errorf("no input for a %s need", n.Kind)
}

// apply feeds an input and records what the referee learns from it.
func (r *referee) apply(in engine.Input) error {
	n := r.g.Next()
	ev, err := r.g.Apply(in)
	if err != nil {
		return err
	}
	r.steps++
	r.events = append(r.events, ev...)
	switch n.Kind {
	case engine.NeedDeal:
		for _, p := range in.Cards {
			r.holder[engine.Slot{Owner: engine.NoSeat, Name: n.Name, Index: p}] = n.Seat
		}
		r.next[n.Name] += len(in.Cards)
	case engine.NeedOpen:
		for _, o := range in.Opened {
			r.opened[o.Slot] = true
		}
	}
	return nil
}

func (r *referee) step(agents []engine.Agent) error {
	in, err := r.input(agents)
	if err != nil {
		return err
	}
	return r.apply(in)
}

// play runs the match to its end (or maxSteps), calling check after every
// step.
func (r *referee) play(t testing.TB, agents []engine.Agent, maxSteps int, check func()) {
	t.Helper()
	for r.g.Next().Kind != engine.NeedNone {
		if r.steps >= maxSteps {
			t.Fatalf("no end after %d steps (round %d)", maxSteps, r.g.Round())
		}
		before := r.g.Hash()
		if err := r.step(agents); err != nil {
			t.Fatalf("step %d (%s): %v", r.steps, r.g.Next().Kind, err)
		}
		if r.g.Hash() == before {
			t.Fatalf("step %d (%s) was accepted but changed nothing", r.steps, r.g.Next().Kind)
		}
		if check != nil {
			check()
		}
	}
}

// runTo steps until the need satisfies stop (or fails the test).
func (r *referee) runTo(t testing.TB, agents []engine.Agent, stop func(engine.Need) bool) {
	t.Helper()
	for i := 0; ; i++ {
		n := r.g.Next()
		if stop(n) {
			return
		}
		if n.Kind == engine.NeedNone || i > 100000 {
			t.Fatalf("never reached the wanted need (at %s)", n.Kind)
		}
		if err := r.step(agents); err != nil {
			t.Fatalf("step: %v", err)
		}
	}
}

func randomAgents(seats int, seed uint64) []engine.Agent {
	var out []engine.Agent
	for s := range seats {
		out = append(out, NewRandomBot(rand.New(rand.NewPCG(seed, uint64(s)))))
	}
	return out
}

// invariants checks what must hold in every state.
func invariants(t testing.TB, g *Game) {
	t.Helper()
	seen := map[Pos]int{}
	for _, p := range g.planes {
		if p.Down {
			if p.Missiles != 0 {
				t.Fatalf("%s is down with %d missiles", p.Name(), p.Missiles)
			}
			continue
		}
		if !p.Pos.OnBoard() {
			t.Fatalf("%s off the board at %+v", p.Name(), p.Pos)
		}
		if o, ok := seen[p.Pos]; ok {
			t.Fatalf("%s and plane %d share %s", p.Name(), o, p.Pos)
		}
		seen[p.Pos] = p.ID
		max := F35Missiles
		if p.Kind == F22 {
			max = F22Missiles
		}
		if p.Missiles < 0 || p.Missiles > max {
			t.Fatalf("%s has %d missiles", p.Name(), p.Missiles)
		}
		for loc, d := range p.Damage {
			if d >= ShotDownAt(p.Kind, Location(loc)) {
				t.Fatalf("%s flies with %d hits in the %s", p.Name(), d, Location(loc))
			}
		}
	}
	// Every card is in exactly one place: a draw pile, a hand, this round's
	// chosen cards, the discard pile or out of play.
	total := g.outOfPlay + len(g.discard) + len(g.order) - discardOverlap(g)
	for _, h := range g.hands {
		total += len(h)
		if len(h) > HandSize {
			t.Fatalf("a hand holds %d cards", len(h))
		}
	}
	if len(g.decks) > 0 {
		total += g.remaining()
		for _, d := range g.decks[:len(g.decks)-1] {
			if d.next != d.size {
				t.Fatalf("an old deck still has %d undealt cards", d.size-d.next)
			}
		}
	} else {
		total += DeckSize
	}
	if total != DeckSize {
		t.Fatalf("%d cards accounted for, want %d (phase %d)", total, DeckSize, g.phase)
	}
}

// discardOverlap is the number of this round's cards already discarded
// (they sit in both lists until the round ends).
func discardOverlap(g *Game) int {
	n := 0
	for _, p := range g.order {
		if slices.Contains(g.discard, p) {
			n++
		}
	}
	return n
}
