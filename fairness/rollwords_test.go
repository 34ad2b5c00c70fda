package fairness

import (
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// TestRollEventWordsAsBefore holds the event of a completed roll, whose
// format comes from a table (rollFormat) and whose values the engine's
// formatter writes without fmt, to the words it had when the format was
// built share by share and fmt wrote the values: with seats apart, for any
// count of shares.
func TestRollEventWordsAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 44))
	for n := range 12 {
		vals := make([]int, 1+r.IntN(3))
		for i := range vals {
			vals[i] = r.IntN(1000)
		}
		format, args := "roll %d (%s) = %v from", []any{n, "draw", vals}
		newArgs := []any{n, "draw", vals}
		for s := range n {
			var d Digest
			d[0], d[5] = byte(r.IntN(256)), byte(s)
			format += " %s:%s"
			args = append(args, engine.Seat(s), d.Short())
			newArgs = append(newArgs, engine.Seat(s), d.Short())
		}
		old := engine.Eventf(engine.NoSeat, "roll", format, args...)
		got := engine.Eventf(engine.NoSeat, "roll", rollFormat(n), newArgs...)
		if got.Text != old.Text || got.Words() != old.Words() {
			t.Fatalf("%d shares: %q, before %q", n, got.Text, old.Text)
		}
	}
}
