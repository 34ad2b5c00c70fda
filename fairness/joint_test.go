package fairness

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// keyKeeper is a "cheat" that changes nothing and keeps its seat's key, so
// that a test can sign as that seat afterwards.
type keyKeeper struct{ key crypto.PrivKey }

func (k *keyKeeper) AlterInput(*Match, *Secrets, Step, *WireInput) bool { return false }

func (k *keyKeeper) AlterEnvelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
	k.key = key
	return []*Envelope{e}
}

func jointAudit(t *testing.T, paths ...string) (*Joint, error) {
	t.Helper()
	reps := make([]*Report, len(paths))
	for i, p := range paths {
		reps[i] = auditFile(t, p)
	}
	return AuditJoint(reps)
}

func TestJointAuditOfAnHonestMatchAgrees(t *testing.T) {
	out := playPeek(t, 3, nil, nil, 0)
	j, err := jointAudit(t, out[0].path, out[1].path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Clean || !strings.Contains(j.Detail, "all 2 records agree") {
		t.Fatalf("joint verdict: %s", j.Summary())
	}
	// A record that stops early (its writer crashed, say) agrees with the
	// whole one as far as it goes.
	short := filepath.Join(t.TempDir(), "short.jsonl")
	lines := readLinesOf(t, out[1].path)
	writeLinesTo(t, short, lines[:len(lines)/2])
	j, err = jointAudit(t, out[0].path, short)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Clean || !strings.Contains(j.Detail, "1 of 2 records") {
		t.Fatalf("joint verdict with a short record: %s", j.Summary())
	}
	t.Log(j.Summary())
}

// A player who sends one move and keeps another in its own record, each
// signed, is caught only when the records meet: alone, each audits as an
// honest match.
func TestJointAuditCatchesTwoVersionsOfOneMessage(t *testing.T) {
	kk := &keyKeeper{}
	out := playPeek(t, 4, kk, nil, 0)
	if kk.key == nil {
		t.Fatal("seat 1 never sent")
	}
	lines := readLinesOf(t, out[0].path)
	h, prefix, alt := alternativeMove(t, lines, kk.key)
	forged := filepath.Join(t.TempDir(), "seat1-forged.jsonl")
	writeLinesTo(t, forged, append(prefix, string(mustJSON(t, alt))))
	if rep := auditFile(t, forged); rep.Verdict != Incomplete {
		t.Fatalf("the other version alone: %s, want an honest record that stops early", rep.Summary())
	}
	if rep := auditFile(t, out[0].path); rep.Verdict != Clean {
		t.Fatalf("seat 0's record alone: %s", rep.Summary())
	}
	j, err := jointAudit(t, out[0].path, forged)
	if err != nil {
		t.Fatal(err)
	}
	v := j.Violation
	if j.Verdict != Violated || v.Seat != 1 || v.Seq != alt.Seq || !errors.Is(v.Err, ErrEquivocation) || v.Peer != h.Players[1].Peer {
		t.Fatalf("joint verdict: %s", j.Summary())
	}
	t.Log(j.Summary())

	// The same place with a signature that does not hold proves nothing
	// against seat 1: it is the record that is wrong.
	alt.Sig = alt.Sig[:8] + strings.Repeat("A", len(alt.Sig)-10) + alt.Sig[len(alt.Sig)-2:]
	writeLinesTo(t, forged, append(prefix, string(mustJSON(t, alt))))
	j, err = jointAudit(t, out[0].path, forged)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Corrupt || j.Record != 1 {
		t.Fatalf("joint verdict with a bad signature: %s", j.Summary())
	}
}

// After a lost link, each side may give up on the other and record the
// other's forfeit. Each record alone is faithful; together they say that
// nothing decides between them.
func TestJointAuditOfTwoGiveUpsIsDisputed(t *testing.T) {
	out := playCutLink(t, 2, nil, 300*time.Millisecond, false)
	for s := range 2 {
		c := out[s].res.Closing
		if out[s].err != nil || c == nil || c.Seat != 1-s {
			t.Fatalf("seat %d: %v, closing %+v; want seat %d's forfeit", s, out[s].err, c, 1-s)
		}
		if rep := auditFile(t, out[s].path); rep.Verdict != Forfeit {
			t.Fatalf("seat %d's record alone: %s", s, rep.Summary())
		}
	}
	j, err := jointAudit(t, out[0].path, out[1].path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Disputed || !strings.Contains(j.Detail, "cannot tell a lost link from a message held back") {
		t.Fatalf("joint verdict: %s", j.Summary())
	}
	t.Log(j.Summary())
}

// When the late side took the other's forfeit record, both records end
// alike and the joint verdict is that forfeit.
func TestJointAuditAgreesOnAnAdoptedForfeit(t *testing.T) {
	out := playCut(t, 2, nil)
	j, err := jointAudit(t, out[0].path, out[1].path)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != Forfeit || len(j.Outcome.Winners) != 1 || j.Outcome.Winners[0] != 0 || !strings.Contains(j.Detail, "all 2 records agree") {
		t.Fatalf("joint verdict: %s", j.Summary())
	}
}

func TestJointAuditRefusesRecordsOfDifferentMatches(t *testing.T) {
	a := playPeek(t, 1, nil, nil, 0)
	b := playPeek(t, 1, nil, nil, 0)
	if _, err := jointAudit(t, a[0].path, b[1].path); !errors.Is(err, ErrNotSameMatch) {
		t.Fatalf("got %v, want ErrNotSameMatch", err)
	}
	if _, err := AuditJoint([]*Report{auditFile(t, a[0].path)}); err == nil {
		t.Fatal("one record audited jointly")
	}
}

// alternativeMove replays the record lines up to seat 1's first move and
// returns the lines before it and another move for that place, legal and
// signed with seat 1's key.
func alternativeMove(t *testing.T, lines []string, key crypto.PrivKey) (Header, []string, *Envelope) {
	t.Helper()
	var h Header
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	for i, ln := range lines[1:] {
		var e Envelope
		if err := json.Unmarshal([]byte(ln), &e); err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
		body, err := DecodeBody(e.Body)
		if err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
		if k := askIndex(body); e.From == h.Players[1].Peer && k >= 0 {
			for _, in := range body.Inputs[:k] {
				if _, err := m.Stage(1, in); err != nil {
					t.Fatalf("line %d: %v", i+2, err)
				}
			}
			var sent peekAsk
			_ = json.Unmarshal(body.Inputs[k].Move, &sent)
			for ask := range 4 {
				in := WireInput{T: InMove, Move: json.RawMessage(fmt.Sprintf(`{"ask":%d}`, ask))}
				if ask == sent.Ask {
					continue
				}
				if _, err := m.Stage(1, in); err != nil {
					continue
				}
				alt, err := m.Seal(1, append(body.Inputs[:k:k], in), key)
				if err != nil {
					t.Fatal(err)
				}
				return h, lines[:i+1], alt
			}
			t.Fatal("no other legal move")
		}
		if _, err := m.Accept(&e); err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
	}
	t.Fatal("seat 1 never moved")
	return Header{}, nil, nil
}

// askIndex returns the index of the peek game's ask move among body's
// inputs, or -1.
func askIndex(body *Body) int {
	for k, in := range body.Inputs {
		if in.T == InMove && strings.Contains(string(in.Move), `"ask"`) {
			return k
		}
	}
	return -1
}

func readLinesOf(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func writeLinesTo(t *testing.T, path string, lines []string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := marshalCompact(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
