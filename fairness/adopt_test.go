package fairness

import (
	"fmt"
	"strings"
	"testing"
)

// Regression test for issue 12, class 8: a forfeit record dated before a
// message the late side holds (one it signed that the other side never
// received) is refused, since that message refutes it: the late side
// records the connection loss, naming the refusal, and never its own
// forfeit. (A record dated at the late side's last message is taken:
// TestAdoptNeedsTheMatchToWaitForTheBlamedSeat, and the session tests of
// a peer that comes back late.)
func TestAttackForfeitDatedBeforeOurMessageIsRefused(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("cut after %d frames", n), func(t *testing.T) {
			out := playCut(t, n, nil)
			for s := range 2 {
				if out[s].err != nil {
					t.Fatalf("seat %d: %v", s, out[s].err)
				}
			}
			c0, c1 := out[0].res.Closing, out[1].res.Closing
			if c0 == nil || c0.Closing != CloseTimeout || c0.Seat != 1 {
				t.Fatalf("seat 0 closing %+v, want a timeout of seat 1", c0)
			}
			if c1 == nil || c1.Seat == 1 || c1.Seq <= c0.Seq || !strings.Contains(c1.Detail, "before message") {
				t.Fatalf("seat 1 closing %+v, want its own record naming the refusal of %+v", c1, c0)
			}
			rep := auditFile(t, out[1].path)
			if w := rep.Outcome.Winners; len(w) == 1 && w[0] == 0 {
				t.Fatalf("audit of seat 1's transcript gives seat 0 the match: %s", rep.Summary())
			}
			t.Logf("seat 1: %s", rep.Summary())
		})
	}
}
