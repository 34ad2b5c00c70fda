package fairness

import (
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// A run of rolls broken by one message that holds two of its places (legal,
// see TestAttackRunBrokenByTwoPlacesInOneMessage) must leave the sender and
// every peer waiting for the same seat. The relay variant: after both
// hellos, seat 1 rolls r1 and r2 alone, then both roll a; seat 1 sends its
// shares of r1 and r2 in one chained message, which starts roll a. A
// sender asks what comes next after each input it stages, to know whether
// its message goes on (the referee does); a peer that accepts the message
// asks only once it is in. Before, roll a's order depended on which came
// first: asked while the broken group still stood it was the run's seat
// order (seat 0 first); asked after the message broke it, the order after
// the last sender (seat 1 first): the sender's match and its peers' parted
// (one in about 5000 random scripts of TestAttackPresharePropertyRandomScripts,
// seed 10074068829941458257, match 536).
func TestAttackRollsRunBrokenLeavesOneOrder(t *testing.T) {
	tb := helloRun(t, "relay", []int{64, 64}, []engine.Seat{1, 0}, [][3]int{{1, 0, 1}, {1, 1, 2}, {0, 2, 1}, {1, 2, 3}})
	ins := []WireInput{tb.shareAt(1, 1, 0), tb.shareAt(1, 2, 1)}
	for _, in := range ins {
		if _, err := tb.m.Stage(1, in); err != nil {
			t.Fatal(err)
		}
		tb.m.Next() // the sender asks whether its message goes on
	}
	e, err := tb.m.Seal(1, ins, tb.keys[1])
	if err != nil {
		t.Fatal(err)
	}
	tb.envs = append(tb.envs, e)
	sender, _ := tb.m.Next()
	peer, _ := tb.replay().Next()
	if sender.Seat != peer.Seat || sender.Kind != peer.Kind {
		t.Fatalf("the sender waits for %s's %s, a peer that accepted its message for %s's %s", sender.Seat, sender.Kind, peer.Seat, peer.Kind)
	}
	tb.send(peer.Seat, tb.share(peer.Seat))
	if rep := tb.audit(tb.envs); rep.Verdict != Incomplete {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

// helloRun starts a rolls match of variant, seat s's dice chains having
// links[s] links, each seat saying hello alone in the order given, and
// checks the places (seat, roll, link) of the run of rolls it is then at.
func helloRun(t *testing.T, variant string, links []int, hellos []engine.Seat, want [][3]int) *preTable {
	t.Helper()
	tb := newPreTableOf(t, variant, links)
	for _, s := range hellos {
		tb.send(s, tb.hello(s))
	}
	if got := placesOf(tb.m); !slices.Equal(got, want) {
		t.Fatalf("places %v, want %v (seat, roll, link)", got, want)
	}
	return tb
}
