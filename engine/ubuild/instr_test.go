package ubuild

import (
	"math/rand/v2"
	"testing"
)

func TestInstr(t *testing.T) {
	if *tuneGames == 0 {
		t.Skip()
	}
	var huntMiss, targMiss, huntHit, targHit int
	var firstHitTurn [NumShips]int
	var finds [6]int // shots to find the k-th ship
	for i := range *tuneGames {
		seed := uint64(50000 + i)
		r := rand.New(rand.NewPCG(seed, 77))
		h := newHarness(t, Classic, seed, NewHunterBot(r), nil)
		h.agents[1] = &idleAgent{h: h, base: NewRandomBot(rand.New(rand.NewPCG(seed, 78)))}
		shots := 0
		found := 0
		for h.g.Next().Kind != 0 {
			n := h.g.Next()
			mode := 0
			if n.Kind == 1 && !n.Auto && n.Seat == 0 {
				k := knowledgeOf(h.g, 1)
				for s := range NumShips {
					if !k.sunk[s] && !k.ship[s].empty() {
						mode = 1
					}
				}
			}
			if _, err := h.step(); err != nil {
				t.Fatal(err)
			}
			if n.Kind == 1 && n.Auto && n.Seat == 1 {
				shots++
				v, _ := h.g.LastVolley()
				r := v.Results[0]
				k := knowledgeOf(h.g, 1)
				_ = k
				if r.Result == Miss {
					if lastMode == 1 {
						targMiss++
					} else {
						huntMiss++
					}
				} else {
					if lastMode == 1 {
						targHit++
					} else {
						huntHit++
						found++
						finds[found] += shots
						firstHitTurn[r.Ship] += shots
					}
				}
			}
			if n.Kind == 1 && !n.Auto && n.Seat == 0 {
				lastMode = mode
			}
		}
	}
	N := float64(*tuneGames)
	t.Logf("hunt miss %.2f hit %.2f; target miss %.2f hit %.2f", float64(huntMiss)/N, float64(huntHit)/N, float64(targMiss)/N, float64(targHit)/N)
	for s := range NumShips {
		t.Logf("%s first hit at shot %.1f (avg)", Ship(s), float64(firstHitTurn[s])/N)
	}
	for k := 1; k <= 5; k++ {
		t.Logf("ship #%d found at shot %.1f", k, float64(finds[k])/N)
	}
}

var lastMode int
