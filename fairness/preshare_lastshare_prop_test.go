package fairness_test

import (
	"bytes"
	"flag"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// The honest side of the pre-shares that close a group's last share
// (runs.go): random two-player matches of every variant of every game,
// between honest referees whose members are sent at once (so their
// order against the other seat's messages varies from run to run), end
// without a violation (playGolden fails on one: an honest last-place
// member refused would be ErrBadMember, a provable fault), and the record
// audits clean. CountFlights reads the same record without error (it
// stages members' pre-shares unchecked, like the TUI's shadow match).
// The test also counts the members closed with pre-shares, so that a
// referee that stopped sending them shows in the log.
func TestHonestLastShareMembersWithPresharesAuditClean(t *testing.T) {
	seeds := []uint64{1}
	if f := flag.Lookup("long"); f != nil && f.Value.String() == "true" {
		seeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	}
	closed := 0
	for _, e := range games.All() {
		if e.Spec.MinSeats > 2 {
			continue
		}
		for _, v := range e.Spec.Variants {
			if _, err := e.Spec.New(engine.Setup{Variant: v, Seats: 2}); err != nil {
				continue // a variant for more seats (air ffa)
			}
			for _, seed := range seeds {
				data := playGolden(t, goldenMatch{e.Spec.Name, v, 2, 1000 + seed}, true)
				rep, err := fairness.Audit(bytes.NewReader(data), games.Spec)
				if err != nil {
					t.Fatalf("%s %s seed %d: %v", e.Spec.Name, v, seed, err)
				}
				if rep.Verdict != fairness.Clean {
					t.Fatalf("%s %s seed %d: %s", e.Spec.Name, v, seed, rep.Summary())
				}
				if _, err := fairness.CountFlights(bytes.NewReader(data), games.Spec); err != nil {
					t.Fatalf("%s %s seed %d: CountFlights: %v", e.Spec.Name, v, seed, err)
				}
				for _, st := range rep.Steps {
					if st.Member && len(st.Inputs) > 1 && slices.Contains(st.Inputs, fairness.InPreshare) {
						closed++
					}
				}
			}
		}
	}
	t.Logf("members closed with pre-shares: %d", closed)
}
