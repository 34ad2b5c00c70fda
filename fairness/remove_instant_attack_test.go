package fairness_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// instantClaim is the transport of a claimant that does not wait: each
// time its referee starts waiting for victim it reports victim gone past
// the give-up time at once, as a player who patched out its own give-up
// time would see it. Its referee then claims victim's silence with the
// honest code, in a message that is valid in the chain: nothing in a
// record shows how long a claimant waited.
type instantClaim struct {
	fairness.GroupTransport
	victim  engine.Seat
	armed   atomic.Bool // set when the referee starts waiting for victim
	claimed atomic.Bool // set once the false report was handed over
}

func (a *instantClaim) observe(n fairness.Note) {
	if n.Dir == fairness.DirWait {
		// A move: the victim's person thinks before it answers.
		a.armed.Store(n.Wait == a.victim && n.Need.Kind == engine.NeedMove)
	}
}

func (a *instantClaim) RecvFrom(ctx context.Context) ([]byte, string, error) {
	for {
		if a.armed.CompareAndSwap(true, false) {
			a.claimed.Store(true)
			return nil, "", &fairness.SeatGone{Seat: a.victim, Err: errors.New("gone (not really: the claimant did not wait)")}
		}
		rctx, cancel := context.WithTimeout(ctx, 5*time.Millisecond)
		b, from, err := a.GroupTransport.RecvFrom(rctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			continue
		}
		return b, from, err
	}
}

// slowAgent decides as a person does: after a moment's thought, well
// within the give-up time.
type slowAgent struct {
	engine.Agent
	think time.Duration
}

func (a *slowAgent) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, need engine.Need) (engine.Decision, error) {
	select {
	case <-time.After(a.think):
	case <-ctx.Done():
		return engine.Decision{}, ctx.Err()
	}
	return a.Agent.Decide(ctx, g, seat, sec, need)
}

// The seats of the instant-claim attacks: the attacker is the victim's
// claimant (the first seat after it).
const victim, attacker, bystander = 0, 1, 2

// stepTime skips a short run and returns the step timeout of a test:
// plain, or under the race detector, which slows the shared deck tenfold.
func stepTime(t *testing.T, plain, race time.Duration) time.Duration {
	if testing.Short() {
		t.Skip("a multi-player Air match takes a few seconds")
	}
	if raceEnabled {
		return race
	}
	return plain
}

// playInstantClaim plays a 3-player free-for-all whose victim thinks for
// think before each decision and whose attacker claims the victim's
// silence the moment the match waits for its move; down says every
// transport reports the awaited seat's link down (the attacker's too, so
// that no step timeout ends its part first).
func playInstantClaim(t *testing.T, step, think time.Duration, down bool) *groupTable {
	t.Helper()
	var claim *instantClaim
	wrap := func(tr fairness.GroupTransport) fairness.GroupTransport {
		if down {
			return linkDown{tr}
		}
		return tr
	}
	hook := func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
		switch seat {
		case victim:
			return &slowAgent{Agent: a, think: think}, wrap(tr)
		case attacker:
			claim = &instantClaim{GroupTransport: tr, victim: victim}
			cfg.Observe = claim.observe
			cfg.Hooks = &fairness.Hooks{Done: claim.claimed.Load}
			if down {
				return a, claimLinkDown{claim}
			}
			return a, claim
		}
		return a, wrap(tr)
	}
	gt := playGroupOpts(t, groupOpts{n: 3, timeout: step, silent: -1, hook: hook})
	if !claim.claimed.Load() {
		t.Fatal("the attacker never claimed: the test checked nothing")
	}
	return gt
}

// namesTheClaimant fails t unless seat's referee kept the victim at the
// table and named the attacker for a signed message out of turn.
func namesTheClaimant(t *testing.T, gt *groupTable, seat int) {
	t.Helper()
	r := gt.results[seat]
	if gt.errs[seat] != nil || r == nil {
		t.Fatalf("seat %d: %v", seat, gt.errs[seat])
	}
	if r.Removed {
		t.Fatalf("seat %d: the live victim was taken off the table by a claim that did not wait", seat)
	}
	if r.Violation == nil || r.Violation.Seat != attacker || !r.Violation.Signed || !strings.Contains(r.Violation.Error(), "out of turn") {
		t.Fatalf("seat %d: violation %v, outcome %+v; want the claimant named for a message out of turn", seat, r.Violation, r.Outcome)
	}
}

// A claimant that claims the seat before it silent the moment the match
// waits for that seat (one message after the one that made the match wait
// for it, so the first-input rule of TestAttackRemovalInTheMessageThatMadeTheSeatAwaited
// does not stop it) must not take a live player off the table: every
// honest referee holds a claim of silence until its own give-up time for
// the seat has passed, so the seat's own message, sent well within that
// time, lands first and the claim is the claimant's signed message out of
// turn, live and in the audit.
func TestAttackInstantClaimOfSilence(t *testing.T) {
	gt := playInstantClaim(t, stepTime(t, 4*time.Second, 15*time.Second), 100*time.Millisecond, false)
	for _, s := range []int{victim, bystander} {
		namesTheClaimant(t, gt, s)
		if rep := auditFile(t, gt.paths[s]); rep.Verdict != fairness.Violated || rep.Violation.Seat != attacker {
			t.Fatalf("seat %d's record: %s", s, rep.Summary())
		}
	}
}

// linkDown is a transport that says the link of the seat awaited is down
// (fairness.LinkWatcher), as a table's guard does while that seat is away
// but not yet for the give-up time.
type linkDown struct{ fairness.GroupTransport }

func (linkDown) LinkDown() bool { return true }

// claimLinkDown is instantClaim's transport with the link down as well.
type claimLinkDown struct{ *instantClaim }

func (claimLinkDown) LinkDown() bool { return true }

// While the awaited seat's link is down, only the give-up time counts,
// not the step's timeout (a seat cut for longer than the step timeout but
// back within give-up plays on): a claim that did not wait is held past
// the step's timeout too, and the seat's message, once it comes, lands
// first.
func TestAttackInstantClaimWhileTheSeatsLinkIsDown(t *testing.T) {
	step := stepTime(t, 300*time.Millisecond, 3*time.Second)
	gt := playInstantClaim(t, step, 3*step, true)
	namesTheClaimant(t, gt, bystander)
}
