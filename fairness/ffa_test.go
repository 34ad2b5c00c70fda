package fairness_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/fairness"
)

// Issue 14 requirement 4 and point 17: in a free-for-all of three or four
// one player goes silent mid-match (as a player who quits does); the seat
// after it takes it off the table in the signed chain once its give-up
// time has passed, and the others play on to the game's own end (the last
// player standing) instead of sharing a win by its forfeit. The remaining
// records are identical, each audits clean, and their joint audit agrees;
// the departed seat is never among the winners, and its own referee
// learns that it was taken off the table.
func TestFreeForAllPlaysOnAfterADeparture(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			const silent = 1
			gt := playGroup(t, n, giveUp, silent, 4)
			var first []byte
			var reps []*fairness.Report
			for i := range n {
				if i == silent {
					continue
				}
				r := gt.results[i]
				if gt.errs[i] != nil || r.Closing != nil || !r.Outcome.Done {
					t.Fatalf("seat %d: %v, %+v", i, gt.errs[i], r)
				}
				if slices.Contains(r.Outcome.Winners, silent) {
					t.Fatalf("seat %d: the departed seat is among the winners %v", i, r.Outcome.Winners)
				}
				if !r.Outcome.Draw && r.Outcome.Reason != "last player standing" {
					t.Fatalf("seat %d: reason %q, want the last player standing", i, r.Outcome.Reason)
				}
				data, _ := os.ReadFile(gt.paths[i])
				if first == nil {
					first = data
				} else if string(data) != string(first) {
					t.Fatalf("seat %d's record differs from the first remaining seat's", i)
				}
				rep := auditFile(t, gt.paths[i])
				if rep.Verdict != fairness.Clean {
					t.Fatalf("seat %d: %s", i, rep.Summary())
				}
				reps = append(reps, rep)
			}
			if !strings.Contains(string(first), `"t":"remove"`) {
				t.Fatal("the records hold no removal")
			}
			j, err := fairness.AuditJoint(reps)
			if err != nil || j.Verdict != fairness.Clean {
				t.Fatalf("joint audit: %v %s", err, j.Summary())
			}
			if r := gt.results[silent]; r == nil || !r.Removed {
				t.Fatalf("the silent seat was not told it was taken off the table: %+v %v", r, gt.errs[silent])
			}
			t.Logf("%d players: %s; winners %v", n, gt.results[0].Outcome.Reason, gt.results[0].Outcome.Winners)
		})
	}
}
