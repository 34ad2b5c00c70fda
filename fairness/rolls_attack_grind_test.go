package fairness

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Grinding through a run of rolls: seat 1, with no place after the run's
// first, closes its share of roll a with pre-shares of its next links
// (allowed: they take no place of the run). Seat 0's places follow, the
// last one at its chain's last link, which names its next chain, chosen
// freely; seat 0 may wait for seat 1's message and read those pre-shared
// links before it chooses. It gains nothing: naming a next chain voids
// seat 1's pending pre-shares (afterInput), so the later joint roll takes
// a link of seat 1's nobody has seen; and a last-link share that names no
// next chain, which would keep them, is refused. (The rolls game's solo
// variant: roll a of both seats, then rolls of seat 0 alone, then roll b
// of both.)
func TestAttackRollsRunNextChainAgainstPreshares(t *testing.T) {
	tb := helloRun(t, "solo", []int{3, 64}, []engine.Seat{0, 1}, [][3]int{{1, 0, 1}, {0, 0, 1}, {0, 1, 2}, {0, 2, 3}})
	tb.send(1, tb.share(1), tb.preAt(1, 2), tb.preAt(1, 3))
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	tb.take(tb.memberOf(0, 5, tb.shareAt(0, 2, 1)))
	last := tb.shareAt(0, 3, 2)
	if last.Next == "" {
		t.Fatal("seat 0's link 3 names no next chain")
	}
	keep := last
	keep.Next = ""
	tb.refusedEnvelope(0, ErrChain, tb.memberOf(0, 6, keep))
	tb.take(tb.memberOf(0, 6, last))
	if n := tb.m.Preshared(1); n != 0 || tb.m.used[1] != 3 {
		t.Fatalf("after seat 0 named its next chain seat 1 has %d pre-shares pending and %d links used, want 0 and 3 (its links 2 and 3 void)", n, tb.m.used[1])
	}
	if rep := tb.audit(tb.envs); rep.Verdict != Incomplete {
		t.Fatalf("audit: %s", rep.Summary())
	}
}
