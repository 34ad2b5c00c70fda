package fairness_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

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
				if note.Dir != fairness.DirWait || !ok || !o.Out(engine.Seat(seat)) {
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

// shortRelease is an out seat's transport that drops the last share of its
// release, signing the doctored envelope with its own key.
type shortRelease struct {
	fairness.GroupTransport
	key crypto.PrivKey
}

func (s *shortRelease) Send(ctx context.Context, b []byte) error {
	e, err := fairness.DecodeEnvelope(b)
	if err != nil {
		return s.GroupTransport.Send(ctx, b)
	}
	body, err := fairness.DecodeBody(e.Body)
	if err != nil {
		return s.GroupTransport.Send(ctx, b)
	}
	cheat := false
	for i, in := range body.Inputs {
		if in.T == fairness.InRelease && len(in.Shares) > 0 {
			body.Inputs[i].Shares = in.Shares[:len(in.Shares)-1]
			cheat = true
		}
	}
	if cheat {
		if e.Body, err = fairness.EncodeBody(body); err != nil {
			return err
		}
		if err := e.Sign(s.key); err != nil {
			return err
		}
		if b, err = fairness.EncodeEnvelope(e); err != nil {
			return err
		}
	}
	return s.GroupTransport.Send(ctx, b)
}

// A shot-down seat that withholds one share of its release (a card of the
// draw pile it could later block) is caught as a violation at once by the
// seats still playing, blamed on it.
func TestShortReleaseIsAViolation(t *testing.T) {
	if testing.Short() {
		t.Skip("a multi-player Air match takes a few seconds")
	}
	// The cheater, stopped by nobody, gives up on the others after this.
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	gt := playGroupOpts(t, groupOpts{n: 4, timeout: giveUp, silent: -1,
		hook: func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
			return a, &shortRelease{GroupTransport: tr, key: cfg.Key}
		}})
	caught := 0
	for i := range 4 {
		v := gt.results[i].Violation
		if v == nil {
			continue
		}
		if !strings.Contains(v.Err.Error(), "release") {
			t.Fatalf("seat %d: violation %v is not about the release", i, v.Err)
		}
		caught++
	}
	if caught == 0 {
		for i := range 4 {
			t.Logf("seat %d: %v %+v", i, gt.errs[i], gt.results[i].Outcome)
		}
		t.Fatal("nobody caught the short release")
	}
}
