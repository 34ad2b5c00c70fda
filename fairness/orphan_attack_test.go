package fairness_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// muteInGroup is a seat's transport that goes mute (sends nothing more)
// the moment the seat is to send the first contribution of a parallel
// group of which another seat's member has already reached it: that
// member is orphaned when the seat is taken off the table and the group
// breaks up.
type muteInGroup struct {
	fairness.GroupTransport
	mu      sync.Mutex
	seen    map[uint64]string // a received envelope's Prev by its number
	muted   bool
	mutedAt uint64
	kind    fairness.InputKind
}

func (m *muteInGroup) RecvFrom(ctx context.Context) ([]byte, string, error) {
	b, from, err := m.GroupTransport.RecvFrom(ctx)
	if err == nil {
		if e, derr := fairness.DecodeEnvelope(b); derr == nil {
			m.mu.Lock()
			m.seen[e.Seq] = e.Prev
			m.mu.Unlock()
		}
	}
	return b, from, err
}

func (m *muteInGroup) Send(ctx context.Context, b []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.muted {
		return nil
	}
	e, err := fairness.DecodeEnvelope(b)
	if err != nil {
		return m.GroupTransport.Send(ctx, b)
	}
	for seq, prev := range m.seen {
		if seq > e.Seq && prev == e.Prev {
			body, _ := fairness.DecodeBody(e.Body)
			m.muted, m.mutedAt = true, e.Seq
			if body != nil && len(body.Inputs) > 0 {
				m.kind = body.Inputs[0].T
			}
			return nil
		}
	}
	return m.GroupTransport.Send(ctx, b)
}

// A seat that goes silent as the first contributor of a parallel group,
// after the others have sent their members at once, is taken off the
// table; the removal breaks the group, so those members are orphaned
// (numbered for places after the base the removal now follows). The
// others must drop them, sign their contributions again in their new
// places, and play on: identical records, each clean, the joint audit
// clean, and no honest seat blamed for two versions of one place.
func TestAttackOrphanedMembersAfterARemoval(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	for _, n := range []int{3, 4} {
		t.Run(strings.Repeat("n", n), func(t *testing.T) {
			const silent = 1
			var mute *muteInGroup
			hook := func(seat int, a engine.Agent, tr fairness.GroupTransport, cfg *fairness.Config) (engine.Agent, fairness.GroupTransport) {
				if seat != silent {
					return a, tr
				}
				mute = &muteInGroup{GroupTransport: tr, seen: map[uint64]string{}}
				return a, mute
			}
			gt := playGroupOpts(t, groupOpts{n: n, timeout: giveUp, silent: silent, decisions: 1 << 20, hook: hook})
			if !mute.muted {
				t.Fatal("the silent seat never stood first in a group whose members it had received")
			}
			t.Logf("%d players: seat %d went mute at message %d (%s group)", n, silent, mute.mutedAt, mute.kind)
			var first []byte
			var reps []*fairness.Report
			for i := range n {
				if i == silent {
					continue
				}
				r := gt.results[i]
				if gt.errs[i] != nil || r.Closing != nil || r.Violation != nil || !r.Outcome.Done {
					t.Fatalf("seat %d: %v, %+v", i, gt.errs[i], r)
				}
				data, _ := os.ReadFile(gt.paths[i])
				if first == nil {
					first = data
				} else if string(data) != string(first) {
					t.Fatalf("seat %d's record differs from the first remaining seat's", i)
				}
				rep := auditFile(t, gt.paths[i])
				if rep.Verdict != fairness.Clean {
					t.Fatalf("seat %d: %s", i, rep.Summary())
				}
				reps = append(reps, rep)
			}
			if !strings.Contains(string(first), `"t":"remove"`) {
				t.Fatal("the records hold no removal")
			}
			// The silent seat's own record holds orphaned members it
			// received (in its chain they follow its message), beside the
			// same seats' second versions of those places in the others':
			// the joint audit must not call either an equivocation.
			silentData, _ := os.ReadFile(gt.paths[silent])
			if !twoVersionsOfAPlace(t, first, silentData, silent) {
				t.Log("no orphaned member re-signed in a new place this time")
			}
			j, err := fairness.AuditJoint(append(reps, auditFile(t, gt.paths[silent])))
			if err != nil || j.Verdict != fairness.Clean {
				t.Fatalf("joint audit: %v %s", err, j.Summary())
			}
		})
	}
}

// twoVersionsOfAPlace reports whether record b holds, from a seat other
// than skip, a message numbered as one of record a from the same seat,
// but a different one.
func twoVersionsOfAPlace(t *testing.T, a, b []byte, skip int) bool {
	t.Helper()
	bySeq := func(data []byte) map[uint64]*fairness.Envelope {
		out := map[uint64]*fairness.Envelope{}
		for _, ln := range splitLines(data)[1:] {
			if e, err := fairness.DecodeEnvelope([]byte(ln)); err == nil {
				out[e.Seq] = e
			}
		}
		return out
	}
	ea, eb := bySeq(a), bySeq(b)
	h, _, err := fairness.ReadTranscript(strings.NewReader(string(a)))
	if err != nil {
		t.Fatal(err)
	}
	for seq, x := range eb {
		if y, ok := ea[seq]; ok && x.From == y.From && h.Seat(x.From) != engine.Seat(skip) && x.Hash() != y.Hash() {
			t.Logf("seat %d signed two versions of message %d: prev %.8s… and %.8s…", h.Seat(x.From), seq, x.Prev, y.Prev)
			return true
		}
	}
	return false
}
