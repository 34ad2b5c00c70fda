package sea

import (
	"math/rand/v2"
	"testing"
)

func TestRandomGamesFinish(t *testing.T) {
	for seed := range uint64(20) {
		h := newHarness(t, seed, NewRandomBot(rand.New(rand.NewPCG(seed, 1))), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
		if err := h.play(200000); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		o := h.g.Outcome()
		t.Logf("seed %d: turns %d steps %d outcome %+v", seed, h.g.Turn(), h.steps, o)
	}
}
