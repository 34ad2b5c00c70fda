package fairness_test

import (
	"testing"

	"github.com/salvo-game/salvo/fairness"
)

// The run of rolls at Oceans' set-up (the roll for the first player and
// both opening deals) gives seat 0 two places in a row: its shares of the
// first roll and of the first deal. Sending both in one chained message is
// legal but breaks the run, orphaning seat 1's members of the deals sent
// at once. Live, seat 1 must neither wedge nor blame itself: it drops its
// orphans, signs its shares again in their new places, and holds the
// breaker (mute afterwards) to its silence; every record and the joint
// audit blame the breaker alone.
func TestAttackRollsRunBrokenLive(t *testing.T) {
	if testing.Short() {
		t.Skip("an Oceans match to a give-up time")
	}
	breakRunLive(t, groupOpts{n: 2, game: "oceans", variant: "standard"}, 0, [2]fairness.InputKind{fairness.InShare, fairness.InShare})
}
