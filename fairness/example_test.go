package fairness_test

import (
	"bytes"
	"fmt"
	"os"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// A seat commits to hidden values by sending only the root of their
// vector; later it opens one leaf, and anyone holding the root checks the
// opening. The salt keeps the value hidden until then; the hash keeps the
// seat from opening anything but what it committed.
func ExampleNewVector() {
	var match fairness.Digest // the ID of the match the values belong to
	grid, err := fairness.NewVector(match, 0, "grid", [][]byte{{0}, {1}, {1}, {0}})
	if err != nil {
		fmt.Println(err)
		return
	}
	root := grid.Root() // all that goes over the wire at first

	o, _ := grid.Open(2) // the rules call for leaf 2: its value, salt and path
	fmt.Println(o.Slot, o.Value[0], o.Verify(match, root, grid.Size()) == nil)

	o.Value = fairness.Hex{0} // a seat that opens something else is caught
	fmt.Println(o.Verify(match, root, grid.Size()) != nil)
	// Output:
	// seat 0/grid[2] 1 true
	// true
}

// The audit replays a transcript through every check the live referees
// made, with no seat of its own, and says who cheated, if anyone.
func ExampleAudit() {
	f, err := os.Open("testdata/ubuild-standard.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	rep, err := fairness.Audit(f, games.Spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, len(rep.Steps), "messages,", rep.Outcome.Reason)

	// In this match seat 1 answered "miss" to a shot that hit: its own
	// committed grid gives it away, and the audit names the seat and the
	// message that carries the lie.
	cheat, err := os.ReadFile("testdata/ubuild-miss-on-hit.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err = fairness.Audit(bytes.NewReader(cheat), games.Spec)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, "by", rep.Violation.Seat, "in message", rep.Violation.Seq)
	// Output:
	// clean 30 messages, sank the whole fleet
	// violation by seat 1 in message 12
}
