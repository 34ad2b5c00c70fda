package air

import (
	"flag"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

var long = flag.Bool("long", false, "run the 1,000-game bot win-rate measurement")

// winRate plays games of one strong bot against random bots, the strong
// seat rotating, and returns the strong bot's wins, draws and the games.
func winRate(t testing.TB, seats int, variant string, games int) (wins, draws int) {
	t.Helper()
	for i := range games {
		strong := engine.Seat(i % seats)
		seed := uint64(1000 + i)
		agents := randomAgents(seats, seed)
		agents[strong] = NewStrongBot(rand.New(rand.NewPCG(seed, 99)))
		r := newReferee(t, seats, variant, seed, agents)
		r.play(t, 1000000, nil)
		o := r.Game.Outcome()
		if o.Draw {
			draws++
		}
		if slices.Contains(o.Winners, strong) {
			wins++
		}
	}
	return wins, draws
}

func TestStrongBotBeatsRandom(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 20
	}
	if *long {
		games = 1000
	}
	for _, c := range []struct {
		seats   int
		variant string
		min     float64 // a random bot would win 1/seats
	}{{2, VariantStandard, 0.75}, {4, VariantFreeForAll, 0.4}} {
		wins, draws := winRate(t, c.seats, c.variant, games)
		rate := float64(wins) / float64(games)
		t.Logf("%d players %s: strong bot won %d of %d games (%.1f%%), %d draws", c.seats, c.variant, wins, games, 100*rate, draws)
		if rate < c.min {
			t.Errorf("strong bot won only %.1f%% (want at least %.0f%%)", 100*rate, 100*c.min)
		}
	}
}

func TestStrongBotsPlayEveryVariant(t *testing.T) {
	for _, c := range []struct {
		seats   int
		variant string
	}{{2, VariantStandard}, {3, VariantFreeForAll}, {4, VariantTeam}, {2, VariantMaxDamage}} {
		var agents []engine.Agent
		for s := range c.seats {
			agents = append(agents, NewStrongBot(rand.New(rand.NewPCG(7, uint64(s)))))
		}
		r := newReferee(t, c.seats, c.variant, 7, agents)
		r.play(t, 1000000, func() { invariants(t, r.Game) })
	}
}

// BenchmarkRandomGame is one whole 2-player match of random bots.
func BenchmarkRandomGame(b *testing.B) {
	i := uint64(0)
	for b.Loop() {
		i++
		r := newReferee(b, 2, VariantStandard, i, randomAgents(2, i))
		r.play(b, 1000000, nil)
	}
}

// BenchmarkApply is one Apply (with its Hash) on average over random matches.
func BenchmarkApply(b *testing.B) {
	steps := 0
	i := uint64(0)
	for b.Loop() {
		i++
		r := newReferee(b, 2, VariantStandard, i, randomAgents(2, i))
		for r.Game.Next().Kind != engine.NeedNone {
			in, err := r.Input()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Apply(in); err != nil {
				b.Fatal(err)
			}
			_ = r.Game.Hash()
			steps++
		}
	}
	b.ReportMetric(float64(steps)/float64(b.N), "applies/op")
}
