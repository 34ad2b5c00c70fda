package fairness_test

import (
	"bytes"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// Issue 15 point 3: in the two-player games a flight of dice shares alone
// comes only where a roll follows another seat's sealed choice. Cards and
// oceans had one a match at the set-up (their first roll is followed by
// another whatever its value, and the seat that sent its share of the
// first as a member could not pre-share the second); runs of rolls take
// both at once. Fresh matches of random bots over several seeds.
func TestRunsOfRollsLeaveNoAvoidableDiceOnlyFlight(t *testing.T) {
	for _, g := range []goldenMatch{{"cards", "standard", 2, 0}, {"cards", "beginner", 2, 0}, {"oceans", "standard", 2, 0}} {
		for seed := range uint64(4) {
			g.seed = seed + 1
			data := playGolden(t, g, true)
			f, err := fairness.CountFlights(bytes.NewReader(data), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if f.DiceOnly != f.DiceAfterChoice {
				t.Errorf("%s %s seed %d: %d dice-only flights, %d of them after another seat's choice: %+v", g.game, g.variant, g.seed, f.DiceOnly, f.DiceAfterChoice, f)
			}
		}
	}
}
