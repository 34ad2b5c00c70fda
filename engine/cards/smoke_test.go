package cards

import (
	"math/rand/v2"
	"testing"
)

func TestSmokeRandomGames(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		r := rand.New(rand.NewPCG(seed, 1))
		tb := newTable(t, "", seed, NewRandomBot(r), NewRandomBot(r))
		if err := tb.run(nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		o := tb.g.Outcome()
		t.Logf("seed %d: %+v turns %d inputs %d", seed, o, tb.g.Turns(), tb.inputs)
	}
}
