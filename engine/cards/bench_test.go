package cards

import (
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// BenchmarkMatchRandom plays whole random-vs-random matches through the test
// referee; it reports inputs and turns per match.
func BenchmarkMatchRandom(b *testing.B) {
	inputs, turns := 0, 0
	for i := 0; b.Loop(); i++ {
		r := rand.New(rand.NewPCG(uint64(i), 3))
		tb := newTable(b, VariantStandard, uint64(i), NewRandomBot(r), NewRandomBot(r))
		if _, err := tb.Play(maxInputs); err != nil {
			b.Fatal(err)
		}
		inputs += tb.Steps()
		turns += tb.Game.Turns()
	}
	b.ReportMetric(float64(inputs)/float64(b.N), "inputs/match")
	b.ReportMetric(float64(turns)/float64(b.N), "turns/match")
}

// BenchmarkStrongVsRandom plays the strong bot against the random bot, seats
// alternated, and reports the strong bot's win rate (run with
// -benchtime=1000x for the 1,000-game figure).
func BenchmarkStrongVsRandom(b *testing.B) {
	wins := 0
	for i := 0; b.Loop(); i++ {
		r := rand.New(rand.NewPCG(uint64(i), 77))
		strong := engine.Seat(i % 2)
		agents := [2]engine.Agent{}
		agents[strong] = NewStrongBot(r)
		agents[other(strong)] = NewRandomBot(r)
		o, _ := playMatch(b, VariantStandard, uint64(i), agents[0], agents[1])
		if len(o.Winners) == 1 && o.Winners[0] == strong {
			wins++
		}
	}
	b.ReportMetric(float64(wins)/float64(b.N), "winrate")
}

// midState is a state some turns into a random match.
func midState(b *testing.B) *table {
	r := rand.New(rand.NewPCG(5, 5))
	tb := newTable(b, VariantStandard, 5, NewRandomBot(r), NewRandomBot(r))
	if err := tb.RunUntil(func(n engine.Need) bool { return tb.Game.Turns() >= 20 && n.Kind == engine.NeedMove }, maxInputs); err != nil {
		b.Fatal(err)
	}
	return tb
}

func BenchmarkHash(b *testing.B) {
	g := midState(b).Game
	for b.Loop() {
		g.Hash()
	}
}

func BenchmarkApplyMove(b *testing.B) {
	tb := midState(b)
	n := tb.Game.Next()
	moves := tb.Game.LegalMoves(n.Seat, tb.Secrets(n.Seat))
	m := moves[0].Encode()
	slots, _ := tb.Game.MustOpen(n.Seat, m)
	in := engine.Input{Kind: engine.NeedMove, Seat: n.Seat, Move: m, Opened: tb.open(slots)}
	for b.Loop() {
		c := tb.Game.clone()
		if _, err := c.Apply(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStrongDecide(b *testing.B) {
	tb := midState(b)
	n := tb.Game.Next()
	bot := NewStrongBot(rand.New(rand.NewPCG(1, 1)))
	for b.Loop() {
		if _, err := bot.Decide(b.Context(), tb.Game, n.Seat, tb.Secrets(n.Seat), n); err != nil {
			b.Fatal(err)
		}
	}
}
