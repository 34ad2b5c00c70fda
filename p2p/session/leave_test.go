package session

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// Issue 14 point 3 and requirement 6: a player who leaves on purpose
// signs its own forfeit and keeps it in its own transcript, and hands it
// to the other peer, whose referee records that same record at once (not
// after its give-up time), whoever's turn it is: while the stayer thinks
// about its own move (a stayer's own claim of the leaver's abandonment
// there would be refused on its face: it owed the next message), and
// while the leaver owes the move. Both records end with the same closing
// and audit, alone and together, as the leaver's forfeit; the left match
// is no longer offered for resuming.
func TestLeaveSignsTheForfeitInBothRecords(t *testing.T) {
	for _, tc := range []struct {
		name       string
		leaverOwes bool
	}{
		{"while the stayer thinks", false},
		{"while the leaver owes the move", true},
	} {
		t.Run(tc.name, func(t *testing.T) { leaveMidMatch(t, tc.leaverOwes) })
	}
}

// leaveMidMatch plays a U-Build match in which b (seat 1) leaves, once
// four messages are through, at a step where the match waits for a
// decision of the stayer a (or of b itself, if leaverOwes): the deciding
// side's agent then stops deciding, b's referee stops without a word, and
// b leaves (Leave).
func leaveMidMatch(t *testing.T, leaverOwes bool) {
	a, b, ma, mb := newPair(t, "ubuild")
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	leaveNow := make(chan struct{})
	var once sync.Once
	// hold makes seat's agent stop deciding, and b leave, at the first
	// decision of seat's own after message 4.
	hold := func(seat engine.Seat, held *atomic.Bool) func(fairness.Note) {
		var last uint64 // the referee's goroutine only
		return func(n fairness.Note) {
			if n.Dir == fairness.DirIn || n.Dir == fairness.DirOut {
				last = n.Seq
			}
			if last < 4 || held.Load() || n.Game == nil {
				return
			}
			if need := n.Game.Next(); need.Kind == engine.NeedMove && need.Seat == seat && !need.Auto {
				held.Store(true)
				once.Do(func() { close(leaveNow) })
			}
		}
	}
	var heldA, heldB atomic.Bool
	observeA, observeB := func(fairness.Note) {}, hold(1, &heldB)
	if !leaverOwes {
		observeA, observeB = hold(0, &heldA), func(fairness.Note) {}
	}
	bctx, stopB := context.WithCancel(ctx)
	defer stopB()
	played := make(chan struct{})
	go func() {
		defer close(played)
		_, _ = mb.PlayNet(bctx, b.res, true, NetPlayConfig{Key: b.key, Agent: heldAgent{bot(t, "ubuild", 2), &heldB, nil}, Store: b.store, Observe: observeB})
	}()
	told := make(chan error, 1)
	var left time.Time
	go func() {
		select {
		case <-leaveNow:
		case <-played:
			told <- errors.New("the match ended before b could leave")
			return
		}
		stopB() // the player leaves: the referee stops without a word
		<-played
		left = time.Now()
		told <- Leave(ctx, b.host, b.store, b.key, id)
	}()
	res, err := ma.PlayNet(ctx, a.res, false, NetPlayConfig{Key: a.key, Agent: heldAgent{bot(t, "ubuild", 1), &heldA, nil}, Store: a.store, Timeout: time.Minute,
		Reconnect: ReconnectConfig{GiveUp: time.Minute}, Observe: observeA})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-told; err != nil {
		t.Fatalf("Leave: %v", err)
	}
	took := time.Since(left)
	if c := res.Closing; c == nil || c.Closing != fairness.CloseLeft || c.Seat != 1 || c.By != b.host.ID().String() {
		t.Fatalf("the stayer recorded %+v (outcome %+v), want the leaver's own record of its leaving", c, res.Outcome)
	}
	if took > 20*time.Second {
		t.Fatalf("the forfeit took %v: the end frame was not read", took)
	}
	if len(res.Outcome.Winners) != 1 || res.Outcome.Winners[0] != 0 {
		t.Fatalf("outcome %+v", res.Outcome)
	}
	var reps []*fairness.Report
	for name, st := range map[string]Store{"stayer": a.store, "leaver": b.store} {
		rep := audit(t, st.Transcript(id))
		if rep.Verdict != fairness.Forfeit || !slices.Equal(rep.Outcome.Winners, []engine.Seat{0}) || !strings.Contains(rep.Detail, "left the match after message") {
			t.Fatalf("audit of the %s's transcript: %s", name, rep.Summary())
		}
		if rep.Closing == nil || *rep.Closing != *res.Closing {
			t.Fatalf("the %s's transcript ends with %+v, want %+v", name, rep.Closing, res.Closing)
		}
		t.Logf("%s: %s", name, rep.Summary())
		reps = append(reps, rep)
	}
	j, err := fairness.AuditJoint(reps)
	if err != nil || j.Verdict != fairness.Forfeit || !slices.Equal(j.Outcome.Winners, []engine.Seat{0}) {
		t.Fatalf("joint audit: %v, %s", err, j.Summary())
	}
	saved, err := b.store.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range saved {
		if sv.InProgress() {
			t.Fatalf("the left match is still offered for resuming: %+v", sv)
		}
	}
	// Leaving again tells a peer that is no longer playing the match:
	// not an error, and nothing more is written.
	if err := Leave(ctx, b.host, b.store, b.key, id); err != nil {
		t.Fatalf("Leave after the match ended there: %v", err)
	}
	if rep := audit(t, b.store.Transcript(id)); rep.Closing == nil || *rep.Closing != *res.Closing {
		t.Fatalf("leaving again: %s", rep.Summary())
	}
}

func TestForgetNeedsAMatchID(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	for _, bad := range []string{"../x", strings.Repeat("../", 21) + "x", strings.Repeat("AB", 32)} {
		if err := s.Forget(bad); err == nil {
			t.Fatalf("Forget took %q for a match ID", bad)
		}
		if _, err := s.readPeer(bad); err == nil {
			t.Fatalf("readPeer took %q for a match ID", bad)
		}
	}
	if err := s.Forget(strings.Repeat("ab", 32)); err != nil {
		t.Fatalf("forgetting an unknown match: %v", err)
	}
}

// A peer that comes back after the other side gave up on it gets that
// side's signed closing record and records it: both transcripts end with
// the same forfeit, instead of each claiming the other's.
func TestLateSideRecordsTheOtherSidesForfeitRecord(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	a, b, id, res := gaveUpOnKilledPeer(ctx, t)
	// The killed peer restarts and resumes, long after the give-up time
	// of the other side but well within its own.
	restarted := startSide(t, b.key, b.store)
	start := time.Now()
	late, err := Resume(ctx, restarted.res, id, NetPlayConfig{Key: b.key, Agent: bot(t, "ubuild", 3), Store: b.store, Timeout: time.Minute,
		Reconnect: ReconnectConfig{GiveUp: lateGiveUp}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the late side learnt of its forfeit %v after restarting", time.Since(start))
	if late.Closing == nil || *late.Closing != *res.Closing {
		t.Fatalf("the late side recorded %+v, want the other side's own record %+v", late.Closing, res.Closing)
	}
	if len(late.Outcome.Winners) != 1 || late.Outcome.Winners[0] != 0 {
		t.Fatalf("the late side's outcome %+v", late.Outcome)
	}
	for name, st := range map[string]Store{"waiting": a.store, "late": b.store} {
		rep, err := fairness.AuditFile(st.Transcript(id), games.Spec)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != fairness.Forfeit || len(rep.Outcome.Winners) != 1 || rep.Outcome.Winners[0] != 0 {
			t.Fatalf("audit of the %s side: %s", name, rep.Summary())
		}
		t.Logf("%s side: %s", name, rep.Summary())
	}
	if sv, err := b.store.Load(id); err != nil || sv.InProgress() {
		t.Fatalf("the late side's store still offers the match: %+v, %v", sv, err)
	}
}

func FuzzDecodeEnd(f *testing.F) {
	f.Add([]byte(`{"t":"end"}`))
	f.Add([]byte(`{"t":"end","closing":{"closing":"timeout","match":"ab","seat":1,"seq":4,"detail":"x","by":"p","sig":"s"}}`))
	f.Add([]byte(`{"t":"end"}{"t":"end"}`))
	f.Add([]byte(`{"match":"ab","seq":3}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		e, ok, err := decodeEnd(b)
		if !ok {
			if err != nil || e != (endBody{}) {
				t.Fatalf("%q is no end frame, yet %+v, %v", b, e, err)
			}
			return
		}
		if err != nil {
			return
		}
		// An end frame read is one frame of known fields: it encodes and
		// reads back the same.
		enc, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		back, ok, err := decodeEnd(enc)
		if !ok || err != nil || back.T != e.T || (back.Closing == nil) != (e.Closing == nil) || (e.Closing != nil && *back.Closing != *e.Closing) {
			t.Fatalf("%q read as %+v, which reads back as %+v (%v, %v)", b, e, back, ok, err)
		}
	})
}

// The forfeit record outlives the process that wrote it: a side that
// gave up on its peer, then stopped and started again, still answers the
// peer's late resume from its store.
func TestForfeitRecordOutlivesTheProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	a, b, id, res := gaveUpOnKilledPeer(ctx, t)
	// The side that gave up stops too, and starts again on its address.
	var listen []string
	for _, addr := range a.host.Libp2p().Network().ListenAddresses() {
		listen = append(listen, addr.String())
	}
	_ = a.host.Close()
	again := startSide(t, a.key, a.store, listen...)
	again.res.ServeEnded(a.store)
	// Now the late peer comes back.
	restarted := startSide(t, b.key, b.store)
	late, err := Resume(ctx, restarted.res, id, NetPlayConfig{Key: b.key, Agent: bot(t, "ubuild", 3), Store: b.store, Timeout: time.Minute,
		Reconnect: ReconnectConfig{GiveUp: lateGiveUp}})
	if err != nil {
		t.Fatal(err)
	}
	if late.Closing == nil || *late.Closing != *res.Closing {
		t.Fatalf("the late side recorded %+v, want the other side's own record %+v", late.Closing, res.Closing)
	}
	rep, err := fairness.AuditFile(b.store.Transcript(id), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != fairness.Forfeit || rep.Outcome.Winners[0] != 0 {
		t.Fatalf("audit of the late side: %s", rep.Summary())
	}
	// Closing the resumers ends the transports that would otherwise wait
	// ForfeitLinger for a peer.
	for _, res := range []*Resumer{a.res, again.res} {
		res.Close()
		res.mu.Lock()
		n := len(res.live)
		res.mu.Unlock()
		if n != 0 {
			t.Fatalf("%d match transports outlive their resumer", n)
		}
	}
}

// lateGiveUp is the give-up time of both sides in the tests of a peer
// that comes back late: the late side takes the other's forfeit record
// only after an outage of at least its own give-up time.
const lateGiveUp = time.Second

// gaveUpOnKilledPeer plays a U-Build match whose joiner b is killed when the
// match first waits for a move it chooses and stays away until host a gives up on it (lateGiveUp) and
// records its forfeit; it returns once b's process is gone.
func gaveUpOnKilledPeer(ctx context.Context, t *testing.T) (a, b *netSide, id string, res *fairness.Result) {
	t.Helper()
	a, b, ma, mb := newPair(t, "ubuild")
	bctx, kill := context.WithCancel(ctx)
	var killAt atomic.Uint64 // the message after which b dies, once a holds it
	died := make(chan struct{})
	go func() {
		defer close(died)
		// Its bot never makes a move: a move sent in the instant before
		// the kill would leave b holding its own message that a never got,
		// and b rightly refuses a forfeit claim dated before it.
		_, _ = mb.PlayNet(bctx, b.res, true, NetPlayConfig{Key: b.key, Agent: noMoves{bot(t, "ubuild", 2)}, Store: b.store,
			Observe: func(n fairness.Note) {
				// The process dies once the match waits for a move it
				// chooses (which noMoves never makes) and the other side
				// holds every message it sent: set-up members travel at
				// once, and a message of its own sent the instant before the
				// kill might never reach the other side, which would then
				// date its claim before it (a claim this side rightly
				// refuses).
				if next := nextOf(n); next.Kind == engine.NeedMove && next.Seat == 1 && !next.Auto {
					killAt.CompareAndSwap(0, n.Seq)
				}
			}})
		_ = b.host.Close()
	}()
	var once sync.Once
	res, err := ma.PlayNet(ctx, a.res, false, NetPlayConfig{Key: a.key, Agent: bot(t, "ubuild", 1), Store: a.store, Timeout: time.Minute,
		Reconnect: ReconnectConfig{GiveUp: lateGiveUp}, Observe: func(n fairness.Note) {
			if at := killAt.Load(); at > 0 && n.Seq >= at {
				once.Do(kill) // the process dies
			}
		}})
	if err != nil || res.Closing == nil || res.Closing.Seat != 1 {
		t.Fatalf("the waiting side: %v, closing %+v", err, res)
	}
	<-died
	return a, b, ma.Header.Match, res
}

// nextOf is what the match waits for after note n (none: no seat).
func nextOf(n fairness.Note) engine.Need {
	if n.Game == nil {
		return engine.Need{Seat: engine.NoSeat}
	}
	return n.Game.Next()
}

// noMoves decides as its agent does but for moves, which it never makes
// (it waits for the end of the match instead).
type noMoves struct{ engine.Agent }

func (a noMoves) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if n.Kind == engine.NeedMove {
		<-ctx.Done()
		return engine.Decision{}, ctx.Err()
	}
	return a.Agent.Decide(ctx, g, seat, sec, n)
}

// heldAgent decides as its agent does until held is set; then it waits
// for the end of the match instead of deciding.
type heldAgent struct {
	engine.Agent
	held    *atomic.Bool
	release <-chan struct{} // a player who decides after all once closed; nil: never
}

func (h heldAgent) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if h.held.Load() {
		select {
		case <-h.release:
		case <-ctx.Done():
			return engine.Decision{}, ctx.Err()
		}
	}
	return h.Agent.Decide(ctx, g, seat, sec, n)
}

// On a link that never broke, a peer that hands over a record of our
// forfeit is a peer leaving: we record its abandonment, not its word.
func TestForfeitRecordOnALiveLinkIsNotTaken(t *testing.T) {
	a, b, ma, mb := newPair(t, "ubuild")
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var held atomic.Bool
	var lastIn uint64 // the referee's goroutine only
	rcs := make(chan *Reconnecting, 1)
	lie := make(chan uint64, 1)
	actx, stopA := context.WithCancel(ctx)
	defer stopA()
	go func() {
		_, _ = ma.PlayNet(actx, a.res, false, NetPlayConfig{Key: a.key, Agent: heldAgent{bot(t, "ubuild", 1), &held, nil}, Store: a.store, Timeout: time.Minute,
			OnTransport: func(rc *Reconnecting) { rcs <- rc },
			Observe: func(n fairness.Note) {
				// Once b has fired and the match waits for our own
				// decision, we stop deciding and claim b's forfeit.
				if n.Dir == fairness.DirIn {
					lastIn = n.Seq
				}
				if lastIn >= 4 && !held.Load() && n.Game != nil {
					if need := n.Game.Next(); need.Kind == engine.NeedMove && need.Seat == 0 && !need.Auto {
						held.Store(true)
						lie <- lastIn
					}
				}
			}})
	}()
	rc := <-rcs
	go func() {
		seq := <-lie
		c := &fairness.Closing{Closing: fairness.CloseAbandoned, Match: id, Seat: 1, Seq: seq, Detail: "a lie: bob never left"}
		handOver(t, rc, c, a.key)
	}()
	res, err := mb.PlayNet(ctx, b.res, true, NetPlayConfig{Key: b.key, Agent: bot(t, "ubuild", 2), Store: b.store, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	refusedTheLie(t, res, held.Load())
}

// A blip is no give-up: a peer that breaks the stream for a moment and
// then hands over a record of our forfeit, dated while the match waits
// for us, is a peer leaving. (Taking its word after any drop would let it
// write our forfeit into our own transcript whenever it likes.)
func TestForfeitRecordAfterABlipIsNotTaken(t *testing.T) {
	a, b, ma, mb := newPair(t, "ubuild")
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var held atomic.Bool
	release := make(chan struct{})
	var lastSeq uint64 // a's referee goroutine only
	rcs := make(chan *Reconnecting, 1)
	lie := make(chan uint64, 1)
	actx, stopA := context.WithCancel(ctx)
	defer stopA()
	go func() {
		_, _ = ma.PlayNet(actx, a.res, false, NetPlayConfig{Key: a.key, Agent: bot(t, "ubuild", 1), Store: a.store, Timeout: time.Minute,
			OnTransport: func(rc *Reconnecting) { rcs <- rc },
			Observe: func(n fairness.Note) {
				if n.Dir == fairness.DirIn || n.Dir == fairness.DirOut {
					lastSeq = n.Seq
				}
				// Once a's message is out and the match waits for b, a
				// strikes (and b's next decision never comes).
				if n.Dir == fairness.DirOut && lastSeq >= 4 && !held.Load() && n.Game != nil {
					if need := n.Game.Next(); need.Kind != engine.NeedNone && need.Seat == 1 {
						held.Store(true)
						lie <- lastSeq
					}
				}
			}})
	}()
	rc := <-rcs
	go func() {
		seq := <-lie
		rc.mu.Lock()
		cur := rc.cur
		rc.mu.Unlock()
		if cur != nil {
			cur.Abort() // the blip
		}
		if err := waitStream(ctx, rc); err != nil {
			t.Error(err)
			return
		}
		c := &fairness.Closing{Closing: fairness.CloseAbandoned, Match: id, Seat: 1, Seq: seq, Detail: "a lie: bob was away for a moment"}
		handOver(t, rc, c, a.key)
		// b refuses the lie, and makes the move it owes: a forfeit it
		// claimed at its own turn would be refused (errOwnTurn).
		close(release)
	}()
	res, err := mb.PlayNet(ctx, b.res, true, NetPlayConfig{Key: b.key, Agent: heldAgent{bot(t, "ubuild", 2), &held, release}, Store: b.store, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	refusedTheLie(t, res, held.Load())
}

// handOver signs c with key and ends the match on rc with it, as a side
// that recorded the other's forfeit does.
func handOver(t *testing.T, rc *Reconnecting, c *fairness.Closing, key crypto.PrivKey) {
	if err := c.Sign(key); err != nil {
		t.Error(err)
		return
	}
	_ = rc.closeWithForfeit(c)
}

// refusedTheLie checks that b, handed a record of its forfeit it must not
// take (sent is whether it was really sent), recorded a's abandonment.
func refusedTheLie(t *testing.T, res *fairness.Result, sent bool) {
	t.Helper()
	if !sent {
		t.Fatalf("the match ended (%+v) before a could hand over its record", res.Outcome)
	}
	if res.Closing == nil || res.Closing.Seat != 0 || res.Closing.Closing != fairness.CloseAbandoned {
		t.Fatalf("b recorded %+v (result %+v), want its own record of a's abandonment", res.Closing, res)
	}
	if len(res.Outcome.Winners) != 1 || res.Outcome.Winners[0] != 1 {
		t.Fatalf("outcome %+v", res.Outcome)
	}
}

// waitStream waits until the match has a stream up (or ctx ends): for a
// resumed match, the moment the other side is back.
func waitStream(ctx context.Context, rc *Reconnecting) error {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		rc.mu.Lock()
		up := rc.cur != nil
		rc.mu.Unlock()
		if up {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-rc.gone:
			return rc.goneErr
		case <-t.C:
		}
	}
}
