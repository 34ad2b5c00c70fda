package fairness

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

// The attacks of issue 12 on the joint audit's evidence rules (classes 2
// and 3): seat 1, the attacker, holds its own key and seat 0's honest
// record of a finished match, and rewrites its own record.

// attackMatch is an honest finished peek match seen by the attacker.
type attackMatch struct {
	h      Header
	lines  []string // the honest record: the header, then message 1, 2, …
	honest string   // its path
	rep    *Report  // its audit
	key    crypto.PrivKey
}

func playAttackMatch(t *testing.T) *attackMatch {
	t.Helper()
	kk := &keyKeeper{}
	out := playPeek(t, 7, kk, nil, 0)
	a := &attackMatch{lines: readLinesOf(t, out[0].path), honest: out[0].path, rep: auditFile(t, out[0].path), key: kk.key}
	if a.rep.Verdict != Clean || a.key == nil {
		t.Fatalf("the honest match: %s", a.rep.Summary())
	}
	if err := json.Unmarshal([]byte(a.lines[0]), &a.h); err != nil {
		t.Fatal(err)
	}
	return a
}

// place returns the first k >= 2 at which message k+1 is seat's and the
// attacker (seat 1) signs a message after it.
func (a *attackMatch) place(t *testing.T, seat engine.Seat) int {
	t.Helper()
	for k := 2; k < len(a.rep.Steps); k++ {
		if a.rep.Steps[k].Seat != seat {
			continue
		}
		for _, later := range a.rep.Steps[k+1:] {
			if later.Seat == 1 {
				return k
			}
		}
	}
	t.Fatalf("no message of seat %d followed by one of seat 1", seat)
	return 0
}

// forge writes the honest record's first k messages, then extra lines,
// then the closing record c signed with the attacker's key.
func (a *attackMatch) forge(t *testing.T, k int, c *Closing, extra ...string) string {
	t.Helper()
	c.Match = a.h.Match
	if err := c.Sign(a.key); err != nil {
		t.Fatal(err)
	}
	lines := append(append(append([]string(nil), a.lines[:k+1]...), extra...), string(mustJSON(t, c)))
	path := filepath.Join(t.TempDir(), "forged.jsonl")
	writeLinesTo(t, path, lines)
	return path
}

// junkFrom returns a raw record line: bytes "from" seat that do not decode.
func (a *attackMatch) junkFrom(t *testing.T, seat engine.Seat) string {
	return string(mustJSON(t, Raw{Raw: base64.StdEncoding.EncodeToString([]byte("junk")), From: a.h.Players[seat].Peer}))
}

// envelopeAt returns the honest record's message seq.
func (a *attackMatch) envelopeAt(t *testing.T, seq int) *Envelope {
	t.Helper()
	var e Envelope
	if err := json.Unmarshal([]byte(a.lines[seq]), &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

// falseClaimBy checks that the joint audit of both records, in either
// order, names seat for a false claim.
func falseClaimBy(t *testing.T, seat engine.Seat, paths ...string) {
	t.Helper()
	for _, order := range [][]string{paths, {paths[1], paths[0]}} {
		j, err := jointAudit(t, order...)
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict != Violated || j.Violation.Seat != seat || !errors.Is(j.Violation.Err, ErrFalseClaim) {
			t.Fatalf("joint verdict: %s; want seat %d named for a false claim", j.Summary(), seat)
		}
	}
}

// Class 2: the attacker cuts its record before seat 0's message k, puts
// there a message "from" seat 0 that proves nothing (badly signed,
// undecodable, or seat 0's later message moved up) and closes with its own
// signed violation record. Alone, the record blames seat 0 on the
// attacker's word; together with seat 0's record, which holds seat 0's
// validly signed message k, the signed message outweighs the claim: seat 0
// is not blamed. Seat 0's record also holds the attacker's own signed
// messages after message k, so the forged record is shown altered. (The
// claimant is not named: its violation record does not say where it
// stood; see outweighed.)
func TestAttackUnsignedClaimBeatsSigned(t *testing.T) {
	a := playAttackMatch(t)
	k := a.place(t, 0) // message k+1 is seat 0's
	badSig := a.envelopeAt(t, k+1)
	badSig.Sig = strings.Repeat("A", len(badSig.Sig)-2) + "=="
	later := k + 3
	for later < len(a.lines) && a.rep.Steps[later-1].Seat != 0 {
		later++
	}
	if later >= len(a.lines) {
		t.Fatal("seat 0 sends nothing after message k+1")
	}
	for _, tc := range []struct {
		name string
		line string
		seq  uint64
	}{
		{"badly signed", string(mustJSON(t, badSig)), uint64(k + 1)},
		{"undecodable", a.junkFrom(t, 0), uint64(k + 1)},
		{"a later message moved up", a.lines[later], uint64(later)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forged := a.forge(t, k, &Closing{Closing: CloseViolation, Seat: 0, Seq: tc.seq, Detail: "bad message"}, tc.line)
			alone := auditFile(t, forged)
			if alone.Verdict != Violated || alone.Violation.Seat != 0 || !strings.Contains(alone.Summary(), "rests on seat 1 bob") {
				t.Fatalf("the forged record alone: %s; want seat 0 blamed on seat 1's word", alone.Summary())
			}
			for _, order := range [][]string{{a.honest, forged}, {forged, a.honest}} {
				j, err := jointAudit(t, order...)
				if err != nil {
					t.Fatal(err)
				}
				if j.Verdict != Corrupt || order[j.Record] != forged || !strings.Contains(j.Detail, "outweighs the claim") {
					t.Fatalf("joint verdict: %s (record %d); want the signed message to outweigh the claim and the forged record shown altered", j.Summary(), j.Record+1)
				}
			}
		})
	}
}

// Class 3: the attacker cuts its record and appends its own signed
// forfeit record against seat 0. Seat 0's record holds the attacker's own
// signed messages after the claimed point: the claim is false. Claimed at
// a point where the attacker itself owed the next message, it is refused
// on its face even alone.
func TestAttackForgedForfeit(t *testing.T) {
	a := playAttackMatch(t)
	for _, kind := range []CloseReason{CloseAbandoned, CloseTimeout} {
		t.Run("refuted by later own messages/"+string(kind), func(t *testing.T) {
			k := a.place(t, 0) // the match waits for seat 0 after message k
			forged := a.forge(t, k, &Closing{Closing: kind, Seat: 0, Seq: uint64(k), Detail: "gone"})
			alone := auditFile(t, forged)
			if alone.Verdict != Forfeit || !strings.Contains(alone.Detail, "claimed by seat 1 bob") || !strings.Contains(alone.Detail, "not witnessed") {
				t.Fatalf("the forged record alone: %s; want seat 0's forfeit on seat 1's word", alone.Summary())
			}
			falseClaimBy(t, 1, a.honest, forged)
		})
	}
	t.Run("claimed where the claimant owed the next message", func(t *testing.T) {
		k := a.place(t, 1) // the match waits for seat 1, the claimant
		forged := a.forge(t, k, &Closing{Closing: CloseAbandoned, Seat: 0, Seq: uint64(k), Detail: "connection lost"})
		alone := auditFile(t, forged)
		if alone.Verdict != Incomplete || !strings.Contains(alone.Detail, "refused") {
			t.Fatalf("the forged record alone: %s; want the claim refused", alone.Summary())
		}
		falseClaimBy(t, 1, a.honest, forged)
	})
}

// A second message its sender signed for a place it had already filled
// proves the equivocation by itself, wherever in the record it stands and
// with no closing record to vouch for it: the record holds both versions.
// (Otherwise a sender could send an honest peer a stale second version,
// and the peer's claim would rest on its word alone.)
func TestStaleSecondVersionProvesEquivocation(t *testing.T) {
	kk := &keyKeeper{}
	out := playPeek(t, 4, kk, nil, 0)
	lines := readLinesOf(t, out[0].path)
	_, prefix, alt := alternativeMove(t, lines, kk.key)
	later := len(prefix) + 3 // the real message and two more, then the stale version
	path := filepath.Join(t.TempDir(), "stale.jsonl")
	writeLinesTo(t, path, append(append([]string(nil), lines[:later]...), string(mustJSON(t, alt))))
	rep := auditFile(t, path)
	if rep.Verdict != Violated || rep.Violation.Seat != 1 || !errors.Is(rep.Violation.Err, ErrEquivocation) || !strings.Contains(rep.Summary(), "its own signed message proves it") {
		t.Fatalf("a stale second version: %s", rep.Summary())
	}
}

// Nothing can follow the end of a match: a closing record or a message
// appended to a finished match's record makes it corrupt (a live referee
// stops at the end), never clean with a different content, and a claim
// there cannot change the result.
func TestAuditRefusesWhatFollowsTheEnd(t *testing.T) {
	a := playAttackMatch(t)
	n := len(a.rep.Steps)
	junk := a.junkFrom(t, 0)
	for name, path := range map[string]string{
		"a forfeit claim":           a.forge(t, n, &Closing{Closing: CloseTimeout, Seat: 0, Seq: uint64(n), Detail: "gone"}),
		"a violation claim":         a.forge(t, n, &Closing{Closing: CloseViolation, Seat: 0, Seq: uint64(n + 1), Detail: "bad"}, junk),
		"a violation with no claim": a.forge(t, n-1, &Closing{Closing: CloseViolation, Seat: 0, Seq: uint64(n), Detail: "bad"}),
	} {
		t.Run(name, func(t *testing.T) {
			if rep := auditFile(t, path); rep.Verdict != Corrupt {
				t.Fatalf("alone: %s; want corrupt", rep.Summary())
			}
			j, err := jointAudit(t, a.honest, path)
			if err != nil {
				t.Fatal(err)
			}
			if j.Verdict != Corrupt || j.Record != 1 {
				t.Fatalf("together: %s; want the second record corrupt", j.Summary())
			}
		})
	}
}

// A violation record vouches only for the message it names: dated at
// another message number it vouches for nothing, and the record is
// corrupt.
func TestClosingVouchesOnlyForItsMessage(t *testing.T) {
	a := playAttackMatch(t)
	k := a.place(t, 0)
	junk := a.junkFrom(t, 0)
	for _, seq := range []uint64{uint64(k), uint64(k + 2)} {
		path := a.forge(t, k, &Closing{Closing: CloseViolation, Seat: 0, Seq: seq, Detail: "bad"}, junk)
		if rep := auditFile(t, path); rep.Verdict != Corrupt {
			t.Fatalf("a violation record dated at message %d for message %d: %s", seq, k+1, rep.Summary())
		}
	}
}

// When the claimant of an outweighed violation signed nothing after the
// valid message (the sender's record stops there), nothing shows which
// side lied: nobody is named, and there is no result.
func TestOutweighedClaimWithoutLaterMessagesIsDisputed(t *testing.T) {
	a := playAttackMatch(t)
	k := a.place(t, 0)
	junk := a.junkFrom(t, 0)
	claim := auditFile(t, a.forge(t, k, &Closing{Closing: CloseViolation, Seat: 0, Seq: uint64(k + 1), Detail: "bad"}, junk))
	// Seat 0's record as far as its message k: as if it kept that one and
	// sent the bad one over the wire, then stopped.
	short := *a.rep
	short.Steps, short.Verdict = a.rep.Steps[:k+1], Incomplete
	j, err := AuditJoint([]*Report{claim, &short})
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Disputed || !strings.Contains(j.Detail, "outweighs the claim") {
		t.Fatalf("joint verdict: %s; want disputed", j.Summary())
	}
}
