package ubuild

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// midGame returns a classic or standard match in which the hunter (seat 0)
// has fired turns volleys against an idle opponent and must fire again.
func midGame(b *testing.B, variant string, turns int) *harness {
	b.Helper()
	r := rand.New(rand.NewPCG(42, 1))
	h := newHarness(b, variant, 42, NewHunterBot(r), nil)
	h.Agents[1] = &idleAgent{h: h, base: NewRandomBot(rand.New(rand.NewPCG(42, 2)))}
	if err := h.RunUntil(func(n engine.Need) bool {
		return n.Kind == engine.NeedMove && !n.Auto && n.Seat == 0 && h.Game.Turn() >= turns
	}, maxSteps); err != nil {
		b.Fatal(err)
	}
	return h
}

func benchDecide(b *testing.B, variant string, turns int) {
	h := midGame(b, variant, turns)
	bot := NewHunterBot(rand.New(rand.NewPCG(1, 1)))
	n := h.Game.Next()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bot.Decide(ctx, h.Game, 0, h.Secrets(0), n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHunterDecideOpening is the hunter's first shot of a classic match.
func BenchmarkHunterDecideOpening(b *testing.B) { benchDecide(b, Classic, 0) }

// BenchmarkHunterDecideClassic is one hunter shot in the middle of a classic
// match.
func BenchmarkHunterDecideClassic(b *testing.B) { benchDecide(b, Classic, 40) }

// BenchmarkHunterDecideVolley is one hunter volley (five shots) of a
// standard match.
func BenchmarkHunterDecideVolley(b *testing.B) { benchDecide(b, Standard, 4) }

// benchApply measures Apply of the honest input of the current need on a
// fresh copy of the match (the copy is not timed).
func benchApply(b *testing.B, h *harness) {
	in, err := h.Input()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		g := h.Game.Copy()
		b.StartTimer()
		if _, err := g.Apply(in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApplyFire is Apply of a five-shot standard volley.
func BenchmarkApplyFire(b *testing.B) { benchApply(b, midGame(b, Standard, 4)) }

// BenchmarkApplyAnswer is Apply of the answer to a five-shot volley, with
// its five openings.
func BenchmarkApplyAnswer(b *testing.B) {
	h := midGame(b, Standard, 4)
	if _, err := h.Step(); err != nil {
		b.Fatal(err)
	}
	benchApply(b, h)
}

// BenchmarkHash is the state digest of a match in progress.
func BenchmarkHash(b *testing.B) {
	h := midGame(b, Standard, 4)
	for b.Loop() {
		h.Game.Hash()
	}
}

// BenchmarkHunterClassicGame plays one classic match per op (the hunter
// against an idle opponent on a uniformly random layout) and reports the
// mean shots the hunter needed; -benchtime=10000x gives the 10,000-layout
// figure.
func BenchmarkHunterClassicGame(b *testing.B) {
	total, worst, n := 0, 0, 0
	for b.Loop() {
		shots, _ := hunterRun(b, Classic, uint64(1000+n))
		total += shots
		worst = max(worst, shots)
		n++
	}
	b.ReportMetric(float64(total)/float64(n), "shots/game")
	b.ReportMetric(float64(worst), "worst-shots")
}
