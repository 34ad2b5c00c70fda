package fairness_test

import (
	"errors"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// Issue 14 point 18: in a 4-player Air match a shot-down player is asked
// once for its shares of the undealt cards (if any), then leaves as soon as
// it owes nothing; the others play on to the game's own end without
// waiting for it (a give-up of one second would have recorded its forfeit
// at its first owed dice share), dealing and reshuffling without it, and
// their records audit clean. The leaver's own record stops, and its audit
// says it left after being shot down, with no forfeit.
func TestShotDownSeatLeavesAndOthersFinish(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	const n = 4
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	var mu sync.Mutex
	cancels := map[int]context.CancelFunc{}
	left := map[int]bool{}
	gt := playGroupOpts(t, groupOpts{n: n, timeout: giveUp, silent: -1,
		leave: func(seat int, ctx context.Context) context.Context {
			c, cancel := context.WithCancel(ctx)
			mu.Lock()
			cancels[seat] = cancel
			mu.Unlock()
			return c
		},
		hook: func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
			cfg.Observe = func(note fairness.Note) {
				// Waiting for another seat while out: it owes nothing now
				// and never will again, so its player leaves.
				o, ok := note.Game.(engine.Outer)
				if note.Dir != "wait" || !ok || !o.Out(engine.Seat(seat)) {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				left[seat] = true
				cancels[seat]()
			}
			return a, tr
		}})
	mu.Lock()
	defer mu.Unlock()
	if len(left) == 0 {
		t.Fatal("nobody was shot down before the end: the test checked nothing")
	}
	for i := range n {
		if left[i] {
			if !errors.Is(gt.errs[i], context.Canceled) {
				t.Fatalf("seat %d, which left: %v", i, gt.errs[i])
			}
			rep := auditFile(t, gt.paths[i])
			if rep.Verdict != fairness.Incomplete || !strings.Contains(rep.Detail, "left after being shot down, no forfeit") {
				t.Fatalf("seat %d, which left: %s", i, rep.Summary())
			}
			continue
		}
		r := gt.results[i]
		if gt.errs[i] != nil || r.Closing != nil || !r.Outcome.Done {
			t.Fatalf("seat %d, still playing: %v, %+v", i, gt.errs[i], r)
		}
		for s := range left {
			if slices.Contains(r.Outcome.Winners, engine.Seat(s)) {
				t.Fatalf("seat %d: the shot-down seat %d is among the winners %v", i, s, r.Outcome.Winners)
			}
		}
		if rep := auditFile(t, gt.paths[i]); rep.Verdict != fairness.Clean {
			t.Fatalf("seat %d: %s", i, rep.Summary())
		}
	}
	t.Logf("left after being shot down: %v; %s", left, gt.results[slices.IndexFunc([]int{0, 1, 2, 3}, func(i int) bool { return !left[i] })].Outcome.Reason)
}

// Issue 14 point 17: in Air's team game (Fire and Eagle against Blue and
// Tiger) Fire goes silent; its forfeit counts as its squadron eliminated,
// so Blue and Tiger win and Eagle, Fire's teammate, loses with it. Every
// live result and every audit of the records says the same.
func TestTeamForfeitOtherTeamWins(t *testing.T) {
	if testing.Short() {
		t.Skip("a multi-player Air match takes a few seconds")
	}
	const silent = 1
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	gt := playGroupOpts(t, groupOpts{n: 4, timeout: giveUp, silent: silent, decisions: 2, variant: "team"})
	want := []engine.Seat{0, 3}
	for _, s := range []int{0, 2, 3} {
		r := gt.results[s]
		if gt.errs[s] != nil || r.Closing == nil || r.Closing.Seat != silent {
			t.Fatalf("seat %d: %v, closing %+v; want the forfeit of seat %d", s, gt.errs[s], r.Closing, silent)
		}
		if !slices.Equal(r.Outcome.Winners, want) {
			t.Fatalf("seat %d, live: winners %v (%s), want %v", s, r.Outcome.Winners, r.Outcome.Reason, want)
		}
		rep := auditFile(t, gt.paths[s])
		if rep.Verdict != fairness.Forfeit || !slices.Equal(rep.Outcome.Winners, want) {
			t.Fatalf("seat %d, audit: %s, winners %v", s, rep.Summary(), rep.Outcome.Winners)
		}
		if !strings.Contains(r.Outcome.Reason, "other team wins") || !strings.Contains(rep.Outcome.Reason, "other team wins") {
			t.Fatalf("seat %d: the reasons do not say the team rule: %q / %q", s, r.Outcome.Reason, rep.Outcome.Reason)
		}
	}
	t.Log(gt.results[0].Outcome.Reason)
}
