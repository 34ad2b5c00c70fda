package session

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// cutGiveUp is the give-up time of both runs of the honest side in
// TestAttack2LinkCutThenRestartAdoptsForgedForfeit; its heartbeat beats
// every eighth of it.
const cutGiveUp = 4 * time.Second

// A second attack on resume (issue 12, class 8): the attacker does not
// wait for a long think with the link up, it cuts the link itself while
// the honest seat 1 thinks over its move, for less than the give-up time.
// The honest process, still running, beats its heartbeat and notes the
// outage it is in (down_since). Then it restarts (the player, seeing
// "reconnecting", quits and starts Salvo again, or it crashes): the
// restarted process gives the link a whole new give-up time, but dates its
// own absence from the link's loss. The attacker comes back inside that
// window, when the link has been down for more than the give-up time but
// the honest process was away for only a moment, and hands over its
// signed record of seat 1's abandon. The honest side was running all the
// while, save a moment: nothing shows it away, and its own transcript must
// not record its own forfeit (issue 12, resolved point 8: a claim about the
// adopter's own absence that it cannot confirm is the other side's claim).
func TestAttack2LinkCutThenRestartAdoptsForgedForfeit(t *testing.T) {
	if testing.Short() {
		t.Skip("a live attack of several give-up times")
	}
	game := "sea"
	a, b, ma, mb := newPair(t, game)
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	thinking := make(chan uint64, 1)
	var last atomic.Uint64
	observe := func(n fairness.Note) {
		if n.Dir == fairness.DirIn || n.Dir == fairness.DirOut {
			last.Store(n.Seq)
		}
	}
	cfg := func(s *netSide, seat engine.Seat) NetPlayConfig {
		ag := bot(t, game, uint64(seat)+1)
		var o func(fairness.Note)
		if seat == 1 {
			o = observe
			ag = &stallAgent{Agent: ag, strike: func() bool {
				if last.Load() < 4 {
					return false
				}
				thinking <- last.Load()
				return true
			}}
		}
		return NetPlayConfig{Key: s.key, Agent: ag, Store: s.store, Timeout: time.Minute, Logger: testLog(t),
			Observe: o, Reconnect: ReconnectConfig{GiveUp: cutGiveUp}}
	}
	actx, stopA := context.WithCancel(ctx)
	bctx, killB := context.WithCancel(ctx)
	aDone, bDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(aDone)
		_, _ = ma.PlayNet(actx, a.res, false, cfg(a, 0))
	}()
	go func() {
		defer close(bDone)
		_, _ = mb.PlayNet(bctx, b.res, true, cfg(b, 1))
	}()
	var seq uint64
	select {
	case seq = <-thinking:
	case <-bDone:
		t.Fatal("the match ended before the honest side thought")
	case <-ctx.Done():
		t.Fatal("no think")
	}
	// The honest side thinks; the attacker cuts the link (it stops its
	// match and answers no resume) ...
	stopA()
	<-aDone
	cut := time.Now()
	// ... for long enough that the honest heartbeat notes the outage, but
	// well under the give-up time; then the honest process restarts.
	time.Sleep(cutGiveUp * 3 / 8)
	killB()
	<-bDone
	_ = b.host.Close()
	restarted := startSide(t, b.key, b.store)
	restartedAt := time.Now()
	// The attacker writes seat 1's abandon and answers resumes with it
	// once the link has been down for more than the give-up time (the
	// restarted side's redials, doubling from RedialFirst, come at about
	// 1.5 s and 3.1 s after its start: the second one finds it).
	lie := forgeForfeit(t, a, id, seq, fairness.CloseAbandoned)
	go func() {
		serve := max(time.Until(cut.Add(cutGiveUp)), time.Until(restartedAt.Add(2*time.Second)))
		time.Sleep(serve)
		a.res.ServeEnded(a.store)
	}()
	rcfg := cfg(restarted, 1)
	rcfg.Agent, rcfg.Observe = bot(t, game, 9), nil
	res, err := Resume(ctx, restarted.res, id, rcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("link cut for %v, the honest process away for %v; its result: %+v", time.Since(cut).Round(time.Millisecond), restartedAt.Sub(cut.Add(cutGiveUp*3/8)).Round(time.Millisecond), res.Closing)
	if res.Closing != nil && *res.Closing == *lie {
		t.Fatalf("the honest side, away for a moment, adopted the attacker's record of its own forfeit after message %d: %+v", lie.Seq, res.Closing)
	}
}

// The proven absence of a restart vouches only for what happened while
// the process was away: a record that the other side hands over later,
// once the match went on after the return, is about a time when this side
// was here. The honest seat 1 comes back after a real outage, longer than
// its give-up time (the attacker waits for it), the match goes on, and
// when seat 1 next thinks over a move the attacker ends the match on the
// live stream with its signed record of seat 1's abandon. On land the
// outage measured when the stream came back stood for the stream's whole
// life, and seat 1 recorded its own forfeit.
func TestAttack2ForfeitLongAfterALongAbsenceIsAdopted(t *testing.T) {
	if testing.Short() {
		t.Skip("a live attack of several give-up times")
	}
	game := "sea"
	const giveUp = time.Second
	a, b, ma, mb := newPair(t, game)
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var last atomic.Uint64
	observe := func(n fairness.Note) {
		if n.Dir == fairness.DirIn || n.Dir == fairness.DirOut {
			last.Store(n.Seq)
		}
	}
	cfg := func(s *netSide, seat engine.Seat) NetPlayConfig {
		c := NetPlayConfig{Key: s.key, Agent: bot(t, game, uint64(seat)+1), Store: s.store, Timeout: time.Minute, Logger: testLog(t),
			Reconnect: ReconnectConfig{GiveUp: giveUp}}
		if seat == 0 {
			c.Reconnect.GiveUp = time.Minute // the attacker waits for seat 1
		} else {
			c.Observe = observe
		}
		return c
	}
	bctx, killB := context.WithCancel(ctx)
	bDone := make(chan struct{})
	go func() { _, _ = ma.PlayNet(ctx, a.res, false, cfg(a, 0)) }()
	go func() {
		defer close(bDone)
		_, _ = mb.PlayNet(bctx, b.res, true, cfg(b, 1))
	}()
	for last.Load() < 4 {
		select {
		case <-bDone:
			t.Fatal("the match ended early")
		case <-time.After(10 * time.Millisecond):
		}
	}
	// A real outage of seat 1, longer than its give-up time.
	killB()
	<-bDone
	_ = b.host.Close()
	time.Sleep(giveUp * 3 / 2)
	restarted := startSide(t, b.key, b.store)
	back := last.Load()
	thinking, decide := make(chan uint64, 1), make(chan struct{})
	rcfg := cfg(restarted, 1)
	rcfg.Agent = &thinkAgent{Agent: bot(t, game, 9), decide: decide, strike: func() bool {
		if last.Load() < back+4 {
			return false
		}
		thinking <- last.Load()
		return true
	}}
	type result struct {
		res *fairness.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := Resume(ctx, restarted.res, id, rcfg)
		done <- result{res, err}
	}()
	var seq uint64
	select {
	case seq = <-thinking:
	case r := <-done:
		t.Fatalf("the resumed match ended before seat 1 thought: %+v, %v", r.res, r.err)
	case <-ctx.Done():
		t.Fatal("no think")
	}
	// Seat 1 has been back for several messages; the attacker ends the
	// match on the live stream with its record of seat 1's abandon.
	a.res.mu.Lock()
	rc := a.res.live[id]
	a.res.mu.Unlock()
	if rc == nil {
		t.Fatal("the attacker's match transport is gone")
	}
	lie := &fairness.Closing{Closing: fairness.CloseAbandoned, Match: id, Seat: 1, Seq: seq, Detail: "connection lost: bob never came back"}
	if err := lie.Sign(a.key); err != nil {
		t.Fatal(err)
	}
	if err := rc.closeWithForfeit(lie); err != nil {
		t.Fatal(err)
	}
	// Once the end is in, seat 1 makes its move (an honest player does
	// not stop thinking because the other side says it left).
	for {
		restarted.res.mu.Lock()
		mine := restarted.res.live[id]
		restarted.res.mu.Unlock()
		if mine != nil {
			if _, seen := mine.EndSeenAt(); seen {
				break
			}
		}
		select {
		case r := <-done:
			t.Fatalf("the resumed match ended before seat 1 moved: %+v, %v", r.res, r.err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	close(decide)
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Logf("seat 1 back after message %d, thinking after %d; its result: %+v", back, seq, r.res.Closing)
	if r.res.Closing != nil && *r.res.Closing == *lie {
		t.Fatalf("seat 1, here since message %d, adopted the attacker's record of its own forfeit after message %d", back, seq)
	}
}

// thinkAgent decides as its agent does until strike says it is time to
// think; it then holds that decision until decide is closed.
type thinkAgent struct {
	engine.Agent
	strike  func() bool
	decide  <-chan struct{}
	thought atomic.Bool
}

func (a *thinkAgent) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if !a.thought.Load() && a.strike() {
		a.thought.Store(true)
		select {
		case <-a.decide:
		case <-ctx.Done():
			return engine.Decision{}, ctx.Err()
		}
	}
	return a.Agent.Decide(ctx, g, seat, sec, n)
}
