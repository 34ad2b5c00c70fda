package sea

import (
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

var long = flag.Bool("long", false, "run the long statistical tests (1,000 games)")

// strongVsRandom plays n games, the strong bot taking seat 0 in even games
// and seat 1 in odd ones, and returns its wins, losses and draws.
func strongVsRandom(t testing.TB, n int, seed uint64) (wins, losses, draws, turns int) {
	for i := range n {
		s := seed + uint64(i)
		strong := NewStrongBot(rand.New(rand.NewPCG(s, 11)))
		random := NewRandomBot(rand.New(rand.NewPCG(s, 12)))
		seat := engine.Seat(i % 2)
		a := [2]engine.Agent{strong, random}
		if seat == 1 {
			a = [2]engine.Agent{random, strong}
		}
		h := newHarness(t, s, a[0], a[1])
		if _, err := h.Play(maxInputs); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		o := h.Game.Outcome()
		turns += h.Game.Turn()
		switch {
		case o.Draw:
			draws++
		case o.Winners[0] == seat:
			wins++
		default:
			losses++
		}
	}
	return
}

func TestStrongBeatsRandom(t *testing.T) {
	n := 40
	if *long {
		n = 1000
	} else if testing.Short() {
		n = 20
	}
	w, l, d, turns := strongVsRandom(t, n, 1000)
	t.Logf("strong vs random over %d games: %d wins, %d losses, %d draws (%.1f%% wins), %.1f turns a game",
		n, w, l, d, 100*float64(w)/float64(n), float64(turns)/float64(n))
	if float64(w) < 0.75*float64(n) {
		t.Errorf("strong bot won only %d of %d games", w, n)
	}
}
