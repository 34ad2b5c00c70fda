package oceans

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// BenchmarkRandomMatch plays whole matches between two random bots through
// the test harness (commitments, draws, reveals and the final check).
func BenchmarkRandomMatch(b *testing.B) {
	inputs := 0
	for i := 0; b.Loop(); i++ {
		s := uint64(i)
		h := newHarness(b, s, NewRandomBot(rand.New(rand.NewPCG(s, 1))), NewRandomBot(rand.New(rand.NewPCG(s, 2))))
		if _, err := h.Play(maxInputs); err != nil {
			b.Fatal(err)
		}
		inputs += len(h.Inputs())
	}
	b.ReportMetric(float64(inputs)/float64(b.N), "inputs/match")
}

// BenchmarkStrongVsRandom plays matches of the strong bot against the
// random bot, seats alternated, and reports the strong bot's win rate.
func BenchmarkStrongVsRandom(b *testing.B) {
	wins := 0
	for i := 0; b.Loop(); i++ {
		if strongWins(b, i, uint64(5000+i)) {
			wins++
		}
	}
	b.ReportMetric(100*float64(wins)/float64(b.N), "strong-win-%")
}

// BenchmarkStrongDecision times one decision of the strong bot in the middle
// of a match.
func BenchmarkStrongDecision(b *testing.B) {
	h := newHarness(b, 7, NewRandomBot(rand.New(rand.NewPCG(7, 1))), NewRandomBot(rand.New(rand.NewPCG(7, 2))))
	for h.Game.phase != PhasePlay || h.Game.FleetSize(h.Game.turn) < 6 || h.Game.plays != 1 {
		if _, err := h.Step(); err != nil {
			b.Fatal(err)
		}
	}
	n := h.Game.Next()
	bot := NewStrongBot(rand.New(rand.NewPCG(7, 3)))
	for b.Loop() {
		if _, err := bot.Decide(context.Background(), h.Game, n.Seat, h.Secrets(n.Seat), n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApply times Apply alone, replaying a recorded random match.
func BenchmarkApply(b *testing.B) {
	h := newHarness(b, 9, NewRandomBot(rand.New(rand.NewPCG(9, 1))), NewRandomBot(rand.New(rand.NewPCG(9, 2))))
	if _, err := h.Play(maxInputs); err != nil {
		b.Fatal(err)
	}
	applied := 0
	for b.Loop() {
		g, _ := New(engine.Setup{Seats: 2})
		for _, in := range h.Inputs() {
			if _, err := g.Apply(in); err != nil {
				b.Fatal(err)
			}
		}
		applied += len(h.Inputs())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(applied), "ns/input")
}

// BenchmarkHash times the state digest in the middle of a match.
func BenchmarkHash(b *testing.B) {
	h := newHarness(b, 9, NewRandomBot(rand.New(rand.NewPCG(9, 1))), NewRandomBot(rand.New(rand.NewPCG(9, 2))))
	for range 80 {
		if _, err := h.Step(); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		h.Game.Hash()
	}
}

// BenchmarkStrongVsStrong plays the strong bot against itself and reports
// how often player #1 (six cards, three deployed, loses tied deck-outs) wins.
func BenchmarkStrongVsStrong(b *testing.B) {
	firstWins := 0
	for i := 0; b.Loop(); i++ {
		s := uint64(9000 + i)
		h := newHarness(b, s, NewStrongBot(rand.New(rand.NewPCG(s, 1))), NewStrongBot(rand.New(rand.NewPCG(s, 2))))
		if _, err := h.Play(maxInputs); err != nil {
			b.Fatal(err)
		}
		if w := h.Game.Outcome().Winners; len(w) == 1 && w[0] == h.Game.First() {
			firstWins++
		}
	}
	b.ReportMetric(100*float64(firstWins)/float64(b.N), "p1-win-%")
}
