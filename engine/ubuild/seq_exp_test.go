package ubuild

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

type seqAgent struct {
	idleAgent
	r *rand.Rand
}

func (a *seqAgent) Decide(ctx context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if n.Kind == engine.NeedCommit && n.Name == GridName {
		for {
			var l Layout
			var all mask
			for s := range Ship(NumShips) {
				var ok []placement
				for _, p := range shipPlacements(s) {
					if !all.meets(p.cells) {
						ok = append(ok, p)
					}
				}
				p := ok[a.r.IntN(len(ok))]
				all = all.or(p.cells)
				l[s] = Placement{Start: p.start, Vertical: p.vertical}
			}
			return engine.Decision{Leaves: l.Leaves()}, nil
		}
	}
	return a.idleAgent.Decide(ctx, eg, seat, sec, n)
}

func TestSeqLayouts(t *testing.T) {
	if *tuneGames == 0 {
		t.Skip()
	}
	xs := make([]int, *tuneGames)
	for i := range xs {
		seed := uint64(50000 + i)
		r := rand.New(rand.NewPCG(seed, 77))
		h := newHarness(t, Classic, seed, NewHunterBot(r), nil)
		h.agents[1] = &seqAgent{idleAgent{h: h, base: NewRandomBot(rand.New(rand.NewPCG(seed, 78)))}, rand.New(rand.NewPCG(seed, 79))}
		if _, err := h.play(); err != nil {
			t.Fatal(err)
		}
		for _, m := range h.g.Received(1) {
			if m.Result != Unshot {
				xs[i]++
			}
		}
	}
	t.Logf("\n%s", summarise(xs))
}
