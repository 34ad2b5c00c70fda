package air

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// referee is the honest referee of package enginetest playing a match of
// this game, plus the one thing this game needs beyond it: the shared
// Navigation deck, shuffled and dealt in the clear (deckplay_test.go plays
// it with the real protocol instead). Each seat's secrets hold the cards
// dealt to it and every card opened so far.
type referee struct {
	*enginetest.Harness[*Game]
	decks map[string][]int // deck name → card number at each position
	next  map[string]int   // deck name → the next position to deal
}

func newReferee(t testing.TB, seats int, variant string, seed uint64, agents []engine.Agent) *referee {
	t.Helper()
	g, err := New(engine.Setup{Seats: seats, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	r := &referee{Harness: enginetest.New(g, agents, seed), decks: map[string][]int{}, next: map[string]int{}}
	r.Rand = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) // the stream these tests' seeds were picked with
	r.RequireChange = true
	r.Answers = map[engine.NeedKind]func(engine.Need) (engine.Input, error){
		engine.NeedShuffle: r.shuffle,
		engine.NeedDeal:    r.deal,
	}
	r.AfterApply(r.learn)
	return r
}

// shuffle orders the deck at random: the numbers 1 to Size for the first
// deck, the opened numbers of the discard pile for a reshuffle.
func (r *referee) shuffle(n engine.Need) (engine.Input, error) {
	vals := r.deckValues(n)
	r.Rand.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
	r.decks[n.Name] = vals
	return engine.Input{Kind: n.Kind, Seat: engine.NoSeat}, nil
}

// deckValues returns the card numbers a NeedShuffle puts in its deck.
func (r *referee) deckValues(n engine.Need) []int {
	var vals []int
	if len(n.Open) == 0 {
		for v := 1; v <= n.Size; v++ {
			vals = append(vals, v)
		}
		return vals
	}
	for _, s := range n.Open {
		vals = append(vals, r.decks[s.Name][s.Index]) // public: opened earlier
	}
	return vals
}

// deal deals the next positions of the deck.
func (r *referee) deal(n engine.Need) (engine.Input, error) {
	var cards []int
	for i := range n.Count {
		cards = append(cards, r.next[n.Name]+i)
	}
	return engine.Input{Kind: n.Kind, Seat: n.Seat, Cards: cards}, nil
}

// learn records what the seats learn from an applied input: the receiver
// of a deal its cards, everybody an opened card.
func (r *referee) learn(n engine.Need, in engine.Input, _ []engine.Event) error {
	card := func(s engine.Slot) []byte { return []byte{byte(r.decks[s.Name][s.Index])} }
	switch n.Kind {
	case engine.NeedDeal:
		for _, p := range in.Cards {
			s := engine.Slot{Owner: engine.NoSeat, Name: n.Name, Index: p}
			r.Secrets(n.Seat)[s] = card(s)
		}
		r.next[n.Name] += len(in.Cards)
	case engine.NeedOpen:
		for _, o := range in.Opened {
			for seat := range engine.Seat(len(r.Agents)) {
				r.Secrets(seat)[o.Slot] = card(o.Slot)
			}
		}
	}
	return nil
}

// play runs the match to its end (or maxSteps), calling check after every
// step.
func (r *referee) play(t testing.TB, maxSteps int, check func()) {
	t.Helper()
	if check != nil {
		r.AfterApply(func(engine.Need, engine.Input, []engine.Event) error { check(); return nil })
	}
	if _, err := r.Play(maxSteps); err != nil {
		t.Fatalf("round %d: %v", r.Game.Round(), err)
	}
}

// runTo steps until the need satisfies stop (or fails the test).
func (r *referee) runTo(t testing.TB, stop func(engine.Need) bool) {
	t.Helper()
	if err := r.RunUntil(stop, 100000); err != nil {
		t.Fatalf("never reached the wanted need: %v", err)
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
