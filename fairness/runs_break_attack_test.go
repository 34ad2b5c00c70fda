package fairness_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// mergeRun is the transport of a seat that holds two places in a row of
// a run (in Air's set-up its hello and its deck key share, both sent at
// once as members; kinds names them) and sends them instead as one
// chained message, legal but
// breaking the run: the others' members for the places after it are
// orphaned. It signs the message on a shadow match fed with what it
// receives, and then goes mute.
type mergeRun struct {
	fairness.GroupTransport
	seat  engine.Seat
	key   crypto.PrivKey
	h     fairness.Header
	kinds [2]fairness.InputKind // the inputs of its two places

	mu     sync.Mutex
	got    map[uint64]*fairness.Envelope // received, first of each number
	held   []fairness.WireInput          // the seat's hello and deck key share
	at     uint64                        // the hello's number
	merged chan *fairness.Envelope       // the message sent, once
	muted  bool
}

func (m *mergeRun) RecvFrom(ctx context.Context) ([]byte, string, error) {
	b, from, err := m.GroupTransport.RecvFrom(ctx)
	if err == nil {
		if e, derr := fairness.DecodeEnvelope(b); derr == nil {
			m.mu.Lock()
			if m.got[e.Seq] == nil {
				m.got[e.Seq] = e
			}
			m.mu.Unlock()
		}
	}
	return b, from, err
}

func (m *mergeRun) Send(ctx context.Context, b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.muted {
		return nil
	}
	e, err := fairness.DecodeEnvelope(b)
	if err != nil {
		return m.GroupTransport.Send(ctx, b)
	}
	body, _ := fairness.DecodeBody(e.Body)
	if body == nil || len(body.Inputs) != 1 {
		m.keep(e)
		return m.GroupTransport.Send(ctx, b)
	}
	switch in := body.Inputs[0]; {
	case in.T == m.kinds[0] && len(m.held) == 0:
		m.held, m.at = []fairness.WireInput{in}, e.Seq
		return nil
	case in.T == m.kinds[1] && len(m.held) == 1 && e.Seq == m.at+1:
		m.held = append(m.held, in)
		m.muted = true
		go m.sendMerged(ctx)
		return nil
	}
	m.keep(e)
	return m.GroupTransport.Send(ctx, b)
}

// keep notes a message the seat sends as it goes out: sendMerged steps its
// shadow across the seat's own messages too (in Oceans its hello and
// commitment come before its two places).
func (m *mergeRun) keep(e *fairness.Envelope) {
	if m.got[e.Seq] == nil {
		m.got[e.Seq] = e
	}
}

// sendMerged waits for the messages before the hello's place, steps a
// shadow match across them and sends the seat's two inputs chained on
// them in one message.
func (m *mergeRun) sendMerged(ctx context.Context) {
	spec, _ := games.Spec(m.h.Game)
	sm, err := fairness.NewMatch(spec, m.h)
	if err != nil {
		return
	}
	for seq := uint64(1); seq < m.at; {
		m.mu.Lock()
		e := m.got[seq]
		m.mu.Unlock()
		if e == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
			continue
		}
		c := *e
		if _, err := sm.Accept(&c); err != nil {
			return
		}
		seq++
	}
	for _, in := range m.held {
		if _, err := sm.Stage(m.seat, in); err != nil {
			return
		}
	}
	e, err := sm.Seal(m.seat, m.held, m.key)
	if err != nil {
		return
	}
	b, err := fairness.EncodeEnvelope(e)
	if err != nil {
		return
	}
	if m.GroupTransport.Send(ctx, b) == nil {
		m.merged <- e
	}
}

// A seat that breaks the set-up run live, by sending its hello and its
// deck key share in one chained message after the others have sent their
// deck key shares at once, neither wedges nor blames an honest seat: the
// others drop their orphaned members, sign their shares again in their new
// places, agree on one record and play on without the cheat (taken off
// the table when it goes silent), and only the cheat is blamed: live, in
// each record, and jointly (its own record holds the hello it signed
// singly for the same place: an equivocation).
func TestAttackRunBrokenLive(t *testing.T) {
	if testing.Short() {
		t.Skip("a multi-player Air match to a give-up time")
	}
	breakRunLive(t, groupOpts{n: 3}, 2, [2]fairness.InputKind{fairness.InHello, fairness.InDeckKey})
}

// breakRunLive plays o's game with seat cheat sending its two places of
// the kinds given in one chained message, then going mute, and checks that
// the others play on, agree on one record holding that message, and blame
// nobody but the cheat, on their own and jointly.
func breakRunLive(t *testing.T, o groupOpts, cheat engine.Seat, kinds [2]fairness.InputKind) {
	t.Helper()
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	n := o.n
	var mr *mergeRun
	o.hook = func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
		if engine.Seat(seat) != cheat {
			return a, tr
		}
		mr = &mergeRun{GroupTransport: tr, seat: cheat, key: cfg.Key, h: cfg.Match.Header(), kinds: kinds,
			got: map[uint64]*fairness.Envelope{}, merged: make(chan *fairness.Envelope, 1)}
		return a, mr
	}
	o.timeout, o.silent, o.decisions = giveUp, int(cheat), 1<<20
	gt := playGroupOpts(t, o)
	var merged *fairness.Envelope
	select {
	case merged = <-mr.merged:
	default:
		t.Fatal("the cheat never sent its merged message")
	}
	var first []byte
	var reps []*fairness.Report
	for i := range n {
		rep := auditFile(t, gt.paths[i])
		reps = append(reps, rep)
		if engine.Seat(i) == cheat {
			continue
		}
		r := gt.results[i]
		if gt.errs[i] != nil {
			t.Fatalf("seat %d: %v", i, gt.errs[i])
		}
		if r.Violation != nil && r.Violation.Seat != cheat || r.Closing != nil && engine.Seat(r.Closing.Seat) != cheat {
			t.Fatalf("seat %d blames an honest seat: %+v %+v", i, r.Violation, r.Closing)
		}
		if r.Closing == nil && !r.Outcome.Done {
			t.Fatalf("seat %d stopped with neither an outcome nor a closing record: %+v", i, r)
		}
		if rep.Violation != nil && rep.Violation.Seat != cheat {
			t.Fatalf("seat %d's record blames an honest seat: %s", i, rep.Summary())
		}
		data, _ := os.ReadFile(gt.paths[i])
		if !strings.Contains(string(data), merged.Sig) {
			t.Fatalf("seat %d's record does not hold the merged message %d", i, merged.Seq)
		}
		if first == nil {
			first = data
		} else if string(data) != string(first) {
			t.Fatalf("seat %d's record differs from seat 0's", i)
		}
		t.Logf("seat %d: %d dropped; %s", i, r.Dropped, rep.Summary())
	}
	j, err := fairness.AuditJoint(reps)
	if err != nil {
		t.Fatal(err)
	}
	if j.Violation != nil && j.Violation.Seat != cheat {
		t.Fatalf("the joint audit blames an honest seat: %s", j.Summary())
	}
	t.Log(j.Summary())
}
