package ubuild

import (
	"math/rand/v2"
	"testing"
)

func TestTraceHunter(t *testing.T) {
	seed := uint64(1003)
	r := rand.New(rand.NewPCG(seed, 77))
	h := newHarness(t, Classic, seed, NewHunterBot(r), nil)
	h.agents[1] = &idleAgent{h: h, base: NewRandomBot(rand.New(rand.NewPCG(seed, 78)))}
	for h.g.Next().Kind != 0 {
		ev, err := h.step()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			if e.Seat == 1 && e.Kind != "commit" {
				t.Log(e.Text)
			}
		}
	}
	g, _ := CellsFromSecrets(h.sec[1], 1)
	t.Log("\n" + drawCells(g))
}
