package airview

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// driver plays a match as an honest referee would, for tests: it keeps the
// secret order of every shuffled deck, knows whom each card was dealt to,
// opens chosen cards, rolls dice from a seeded source, and lets strong bots
// decide for the seats the test does not drive.
type driver struct {
	t      testing.TB
	g      *air.Game
	rng    *rand.Rand
	decks  map[string][]int
	next   map[string]int
	holder map[engine.Slot]engine.Seat
	opened map[engine.Slot]bool
	agents []engine.Agent
	// human, if set, decides for seat 0 instead of its bot.
	human func(n engine.Need) engine.Decision
}

func newDriver(t testing.TB, seats int, variant string, seed uint64) *driver {
	t.Helper()
	g, err := air.New(engine.Setup{Seats: seats, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	d := &driver{t: t, g: g, rng: rand.New(rand.NewPCG(seed, 0xa1)), decks: map[string][]int{}, next: map[string]int{},
		holder: map[engine.Slot]engine.Seat{}, opened: map[engine.Slot]bool{}}
	for s := range seats {
		d.agents = append(d.agents, air.NewStrongBot(rand.New(rand.NewPCG(seed, uint64(s)))))
	}
	return d
}

// known returns the values seat knows: the cards dealt to it and every
// card turned over.
func (d *driver) known(seat engine.Seat) board.Known {
	k := board.Known{}
	for name, deck := range d.decks {
		for i, num := range deck {
			s := engine.Slot{Owner: engine.NoSeat, Name: name, Index: i}
			if h, ok := d.holder[s]; ok && h == seat || d.opened[s] {
				k[s] = []byte{byte(num)}
			}
		}
	}
	return k
}

// input builds the honest input for the current need, asking the bots (or
// the human, for seat 0) for decisions.
func (d *driver) input() engine.Input {
	d.t.Helper()
	n := d.g.Next()
	ask := func(seat engine.Seat) engine.Decision {
		if seat == 0 && d.human != nil {
			return d.human(n)
		}
		dec, err := d.agents[seat].Decide(context.Background(), d.g.Clone(), seat, d.known(seat), n)
		if err != nil {
			d.t.Fatalf("bot %s for %s: %v", seat, n.Kind, err)
		}
		return dec
	}
	switch n.Kind {
	case engine.NeedShuffle:
		var vals []int
		if len(n.Open) == 0 {
			for v := 1; v <= n.Size; v++ {
				vals = append(vals, v)
			}
		} else {
			for _, s := range n.Open {
				vals = append(vals, d.decks[s.Name][s.Index])
			}
		}
		d.rng.Shuffle(len(vals), func(i, j int) { vals[i], vals[j] = vals[j], vals[i] })
		d.decks[n.Name] = vals
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat}
	case engine.NeedDeal:
		var cards []int
		for i := range n.Count {
			cards = append(cards, d.next[n.Name]+i)
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Cards: cards}
	case engine.NeedChoice:
		var ch [][]byte
		for _, s := range n.Seats {
			ch = append(ch, ask(s).Choice)
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Choices: ch}
	case engine.NeedOpen:
		var op []engine.Opened
		k := d.known(n.Seat)
		for _, s := range n.Open {
			op = append(op, engine.Opened{Slot: s, Value: k[s]})
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: op}
	case engine.NeedRandom:
		return boardtest.Roll(d.rng, n)
	case engine.NeedMove:
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Move: ask(n.Seat).Move}
	}
	d.t.Fatalf("no input for a %s need", n.Kind)
	return engine.Input{}
}

// apply feeds an input and records what the referee learns from it.
func (d *driver) apply(in engine.Input) {
	d.t.Helper()
	n := d.g.Next()
	if _, err := d.g.Apply(in); err != nil {
		d.t.Fatalf("apply %s: %v", n.Kind, err)
	}
	switch n.Kind {
	case engine.NeedDeal:
		for _, p := range in.Cards {
			d.holder[engine.Slot{Owner: engine.NoSeat, Name: n.Name, Index: p}] = n.Seat
		}
		d.next[n.Name] += len(in.Cards)
	case engine.NeedOpen:
		for _, o := range in.Opened {
			d.opened[o.Slot] = true
		}
	}
}

// step plays one need with the bots.
func (d *driver) step() { d.apply(d.input()) }

// runTo plays until stop holds for the next need.
func (d *driver) runTo(stop func(engine.Need) bool) {
	d.t.Helper()
	for i := 0; ; i++ {
		n := d.g.Next()
		if stop(n) {
			return
		}
		if n.Kind == engine.NeedNone || i > 100000 {
			d.t.Fatalf("never reached the wanted need (at %s)", n.Kind)
		}
		d.step()
	}
}

// choiceFor stops at the card choice.
func choiceFor(n engine.Need) bool { return n.Kind == engine.NeedChoice }

// moveOf stops at a move of seat.
func moveOf(seat engine.Seat) func(engine.Need) bool {
	return func(n engine.Need) bool { return n.Kind == engine.NeedMove && n.Seat == seat }
}

// fixture is a view on a simulation screen.
type fixture struct {
	*boardtest.Fixture
	v *View
}

func newFixture(t testing.TB, mono bool, w, h int) *fixture {
	t.Helper()
	env := boardtest.Env(mono)
	env.Spec = air.Spec
	v := New(env)
	return &fixture{Fixture: boardtest.NewFixture(t, v, w, h), v: v}
}

var names = []string{"ann", "bob", "cy", "dee"}

// show shows the driver's game as seat sees it.
func (f *fixture) show(d *driver, seat engine.Seat) {
	boardtest.Show(f.v, d.g, seat, d.known(seat), names...)
}

// ask hands the view the driver's current need for seat, as the human's
// request.
func (f *fixture) ask(d *driver, seat engine.Seat) *board.Request {
	return boardtest.Ask(f.v, d.g, seat, d.known(seat), names...)
}

// randomAgents makes the driver's bots random ones.
func (d *driver) randomAgents(seed uint64) {
	for s := range d.agents {
		d.agents[s] = air.NewRandomBot(rand.New(rand.NewPCG(seed, uint64(s)+10)))
	}
}
