package fairness

import (
	mrand "math/rand/v2"
	"slices"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
	"github.com/salvo-game/salvo/engine/games"
)

// Attack on the prediction of a run of rolls (runs.go, rollsAfter): a
// wrong guess shifts places, so honest members are refused or peers
// disagree. TestRunOfRollsPredictsTheRolls follows the one outcome each
// random match draws; the promise is "whatever the values", so here, at
// every roll of random matches of every two-player game without a shared
// deck, the predicted rolls are walked from every outcome where the match
// itself plays them all (Cards), else from the extreme outcomes and random
// ones (Oceans' deals), each later roll the same way: each must be a roll
// of the predicted seats, for every outcome tried.
func TestAttackRollsPredictionWhateverTheValues(t *testing.T) {
	tried := overPredictableGames(t, 3, walkPredictions)
	t.Logf("outcomes walked past a predicted roll: %v", tried)
}

// overPredictableGames plays random two-player matches of every variant of
// every game without a shared deck (those have no runs of rolls:
// rollsAfter), seeds of each, with play, and sums what play counts by
// game; cards and oceans must count some.
func overPredictableGames(t *testing.T, seeds uint64, play func(*testing.T, games.Entry, string, uint64) int) map[string]int {
	t.Helper()
	counts := map[string]int{}
	for _, e := range games.All() {
		if e.Spec.Name == "air" {
			continue
		}
		for _, v := range e.Spec.Variants {
			for seed := range seeds {
				counts[e.Spec.Name] += play(t, e, v, seed)
			}
		}
	}
	for _, name := range []string{"cards", "oceans"} {
		if counts[name] == 0 {
			t.Errorf("%s: no run of rolls predicted in any match", name)
		}
	}
	return counts
}

// randomMatch starts a two-player match of e's variant v between random
// bots seeded by seed.
func randomMatch(t *testing.T, e games.Entry, v string, seed uint64) *enginetest.Harness[engine.Game] {
	t.Helper()
	g, err := e.Spec.New(engine.Setup{Seats: 2, Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	var agents []engine.Agent
	for s := range 2 {
		agents = append(agents, e.Bots["random"](mrand.New(mrand.NewPCG(seed, uint64(s)))))
	}
	return enginetest.New(g, agents, seed)
}

// walkPredictions plays one random match of e's variant v and, at every
// roll with later rolls predicted, walks them from several outcomes; it
// returns how many outcomes it walked.
func walkPredictions(t *testing.T, e games.Entry, v string, seed uint64) int {
	t.Helper()
	h := randomMatch(t, e, v, seed)
	r := mrand.New(mrand.NewPCG(seed, 99))
	m := &Match{keys: make([]crypto.PubKey, 2)}
	n := 0
	for steps := 0; h.Game.Next().Kind != engine.NeedNone && steps < 5000; steps++ {
		if need := h.Game.Next(); need.Kind == engine.NeedRandom {
			m.game = h.Game
			if after := m.rollsAfter(need); len(after) > 0 {
				n += walkOutcome(t, m, h.Game, need, after, r)
			}
		}
		if _, err := h.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// walkOutcome draws roll need on a copy of g, every outcome where they
// are few enough for the match to play them all (rollOutcomes), else the
// extremes (every value 0, every value its bound's last) and two random
// ones, then each predicted roll the same way, and fails unless each is
// asked next of its seats; it returns how many outcomes it walked to the
// run's end.
func walkOutcome(t *testing.T, m *Match, g engine.Game, need engine.Need, after []engine.Need, r *mrand.Rand) int {
	t.Helper()
	n := 0
	for _, vals := range outcomesToTry(need, r) {
		c := g.Clone()
		if _, err := c.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}); err != nil {
			t.Fatalf("roll %q values %v: %v", need.Name, vals, err)
		}
		if len(after) == 0 {
			n++
			continue
		}
		next := c.Next()
		if next.Kind != engine.NeedRandom || !slices.Equal(m.jointSeats(next), m.jointSeats(after[0])) {
			t.Fatalf("after roll %q drew %v the run predicts %+v, the game asks %+v", need.Name, vals, after[0], next)
		}
		n += walkOutcome(t, m, c, next, after[1:], r)
	}
	return n
}

// outcomesToTry lists the value vectors of roll need walkOutcome tries.
func outcomesToTry(need engine.Need, r *mrand.Rand) [][]int {
	if all, ok := rollOutcomes(need); ok {
		return all
	}
	var out [][]int
	for pick := range 4 {
		vals := make([]int, need.Count)
		for i := range vals {
			switch pick {
			case 0:
			case 1:
				vals[i] = need.Bound - 1
			default:
				vals[i] = r.IntN(need.Bound)
			}
		}
		out = append(out, vals)
	}
	return out
}
