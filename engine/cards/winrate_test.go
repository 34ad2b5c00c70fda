package cards

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

var long = flag.Bool("long", false, "run the long statistical tests (1,000-game win rate)")

// playMatch plays one full match between two agents and returns its outcome
// and the number of turns.
func playMatch(t testing.TB, variant string, seed uint64, a0, a1 engine.Agent) (engine.Outcome, int) {
	t.Helper()
	tb := newTable(t, variant, seed, a0, a1)
	if _, err := tb.Play(maxInputs); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return tb.Game.Outcome(), tb.Game.Turns()
}

// winRate plays games matches of a strong bot against a random bot, seats
// alternated, and returns the strong bot's wins, draws and the mean turns.
func winRate(t testing.TB, variant string, games int) (wins, draws int, meanTurns float64) {
	turns := 0
	for i := range games {
		r := rand.New(rand.NewPCG(uint64(i), 77))
		strong := engine.Seat(i % 2)
		agents := [2]engine.Agent{}
		agents[strong] = NewStrongBot(r)
		agents[other(strong)] = NewRandomBot(r)
		o, n := playMatch(t, variant, uint64(i), agents[0], agents[1])
		turns += n
		switch {
		case o.Draw:
			draws++
		case len(o.Winners) == 1 && o.Winners[0] == strong:
			wins++
		}
	}
	return wins, draws, float64(turns) / float64(games)
}

func TestStrongBeatsRandom(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 40
	}
	if *long {
		games = 1000
	}
	for _, v := range Spec.Variants {
		wins, draws, turns := winRate(t, v, games)
		rate := float64(wins) / float64(games)
		t.Logf("%s: strong bot won %d of %d (%.1f%%), %d draws, %.1f turns a match", v, wins, games, 100*rate, draws, turns)
		if rate < 0.7 {
			t.Errorf("%s: strong bot won only %.1f%% against the random bot", v, 100*rate)
		}
	}
}

// TestMatchLengths (with -long) reports how long random matches last, to
// justify MaxTurns.
func TestMatchLengths(t *testing.T) {
	if !*long {
		t.Skip("run with -long")
	}
	for _, v := range Spec.Variants {
		total, longest, draws := 0, 0, 0
		const games = 1000
		for i := range games {
			r := rand.New(rand.NewPCG(uint64(i), 11))
			o, n := playMatch(t, v, uint64(i), NewRandomBot(r), NewRandomBot(r))
			total += n
			longest = max(longest, n)
			if o.Draw {
				draws++
			}
		}
		t.Logf("%s: random vs random over %d matches: %.1f turns on average, longest %d, %d draws", v, games, float64(total)/games, longest, draws)
	}
}
