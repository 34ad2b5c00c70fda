//go:build !race

package fairness

import (
	"bytes"
	"os"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
)

// The race detector allocates on its own: the budget is counted without it.

// TestAuditAllocationBudget: auditing the U-Build standard match (30
// lines) allocates within a budget that issue 15's audit work set: at
// most 2,700 objects, where it took 5,190 before (a string for every cell,
// result and ship of every move, decoded twice; every path digest by
// digest; each event's words twice). A count, not a time: it holds on any
// machine, and a change that puts an allocation back into every line or
// every opening fails it.
func TestAuditAllocationBudget(t *testing.T) {
	data, err := os.ReadFile(perfFile("ubuild"))
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		rep, err := Audit(bytes.NewReader(data), games.Spec)
		if err != nil || rep.Verdict != Clean {
			t.Fatalf("%v %v", err, rep.Summary())
		}
	})
	if allocs > 2700 {
		t.Fatalf("an audit of the U-Build standard match allocates %.0f objects, over the budget of 2,700", allocs)
	}
	t.Logf("%.0f allocations", allocs)
}
