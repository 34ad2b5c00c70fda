package ubuild

import (
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// harness is the honest referee of package enginetest, playing a match of
// this game.
type harness = enginetest.Harness[*Game]

// maxSteps bounds a match played to its end (a classic match, one shot a
// volley, cannot take 300 volleys).
const maxSteps = 10000

// newHarness starts a two-seat match of variant played by a0 and a1, with
// joint values drawn from the stream these tests' seeds were picked with.
func newHarness(t testing.TB, variant string, seed uint64, a0, a1 engine.Agent) *harness {
	t.Helper()
	g, err := New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	h := enginetest.New(g, []engine.Agent{a0, a1}, seed)
	h.Rand = rand.New(rand.NewPCG(seed, 0x5a17))
	return h
}
