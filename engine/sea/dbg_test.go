package sea

import (
	"math/rand/v2"
	"testing"
)

func TestDebugGame(t *testing.T) {
	seed := uint64(1)
	h := newHarness(t, seed, NewRandomBot(rand.New(rand.NewPCG(seed, 1))), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
	if err := h.play(200000); err != nil {
		t.Fatal(err)
	}
	for _, e := range h.events {
		t.Log(e.Seat, e.Kind, e.Text)
	}
}
