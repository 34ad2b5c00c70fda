package sea

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// BenchmarkRandomGame plays whole random-vs-random matches through the
// honest harness.
func BenchmarkRandomGame(b *testing.B) {
	inputs := 0
	for i := range b.N {
		s := uint64(i)
		h := newHarness(b, s, NewRandomBot(rand.New(rand.NewPCG(s, 1))), NewRandomBot(rand.New(rand.NewPCG(s, 2))))
		if _, err := h.Play(maxInputs); err != nil {
			b.Fatal(err)
		}
		inputs += h.Steps()
	}
	b.ReportMetric(float64(inputs)/float64(b.N), "inputs/game")
}

// BenchmarkStrongVsRandom plays the strong bot against the random bot,
// seats alternated, and reports the strong bot's win rate. Run with
// -benchtime=1000x for the figure over 1,000 games.
func BenchmarkStrongVsRandom(b *testing.B) {
	w, l, d, turns := strongVsRandom(b, b.N, 1)
	b.ReportMetric(100*float64(w)/float64(b.N), "win%")
	b.ReportMetric(100*float64(l)/float64(b.N), "loss%")
	b.ReportMetric(100*float64(d)/float64(b.N), "draw%")
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
}

// benchState returns a match in the middle of play (turn 8 or so).
func benchState(b *testing.B) (*harness, *Game) {
	h := newHarness(b, 42, NewRandomBot(rand.New(rand.NewPCG(42, 1))), NewRandomBot(rand.New(rand.NewPCG(42, 2))))
	if err := h.RunUntil(func(n engine.Need) bool { return h.Game.Turn() >= 8 && n.Kind == engine.NeedMove }, maxSetup); err != nil {
		b.Fatal(err)
	}
	return h, h.Game
}

func BenchmarkHash(b *testing.B) {
	_, g := benchState(b)
	for b.Loop() {
		g.Hash()
	}
}

func BenchmarkClone(b *testing.B) {
	_, g := benchState(b)
	for b.Loop() {
		g.Clone()
	}
}

// BenchmarkApply measures one honest input (a roll) including the
// copy-on-write that keeps refused inputs from changing anything.
func BenchmarkApply(b *testing.B) {
	tg := newTestGame(&testing.T{})
	g0 := tg.Game
	in := rollInput(3, 4, 5, 6)
	for b.Loop() {
		g := g0.clone()
		if _, err := g.Apply(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStrongScramble measures the strong bot's costliest decision.
func BenchmarkStrongScramble(b *testing.B) {
	h := newHarness(b, 7, NewStrongBot(rand.New(rand.NewPCG(7, 1))), NewRandomBot(rand.New(rand.NewPCG(7, 2))))
	if err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedMove && n.Name == NeedScramble }, maxSetup); err != nil {
		b.Fatal(err)
	}
	n := h.Game.Next()
	bot := NewStrongBot(rand.New(rand.NewPCG(1, 1)))
	for b.Loop() {
		if _, err := bot.Decide(context.Background(), h.Game, n.Seat, h.Secrets(n.Seat), n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStrongVsStrong plays the strong bot against itself and reports
// how often the seat that plays first wins (a balance check).
func BenchmarkStrongVsStrong(b *testing.B) {
	firstWins, draws, turns := 0, 0, 0
	for i := range b.N {
		s := uint64(i)
		h := newHarness(b, s, NewStrongBot(rand.New(rand.NewPCG(s, 1))), NewStrongBot(rand.New(rand.NewPCG(s, 2))))
		if _, err := h.Play(maxInputs); err != nil {
			b.Fatal(err)
		}
		o := h.Game.Outcome()
		turns += h.Game.Turn()
		switch {
		case o.Draw:
			draws++
		case o.Winners[0] == h.Game.First():
			firstWins++
		}
	}
	b.ReportMetric(100*float64(firstWins)/float64(b.N), "first-win%")
	b.ReportMetric(100*float64(draws)/float64(b.N), "draw%")
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
}
