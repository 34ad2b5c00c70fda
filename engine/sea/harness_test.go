package sea

import (
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// harness is the honest referee of package enginetest playing a match of
// this game: the stand-in for package fairness in these tests.
type harness = enginetest.Harness[*Game]

// maxInputs bounds a match played to its end; maxSetup bounds the play
// towards a state a test or benchmark starts from.
const (
	maxInputs = 1_000_000
	maxSetup  = 100_000
)

func newHarness(t testing.TB, seed uint64, a0, a1 engine.Agent) *harness {
	g, err := New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	h := enginetest.New(g, []engine.Agent{a0, a1}, seed)
	h.Rand = rand.New(rand.NewPCG(seed, 0xd1ce)) // the stream these tests' seeds were picked with
	return h
}
