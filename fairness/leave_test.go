package fairness

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// waitsFor lists the message counts n (n > 0) after which the match
// waits for seat, and whose next message does not end the match.
func (p *honestPeek) waitsFor(t *testing.T, seat engine.Seat) []int {
	t.Helper()
	var out []int
	for n := 1; n+1 < len(p.envs); n++ {
		if st, ok := p.replay(t, n).Next(); ok && st.Seat == seat {
			out = append(out, n)
		}
	}
	return out
}

// admission is seat 1's signed word that it left after message n.
func (p *honestPeek) admission(t *testing.T, n int) *Closing {
	t.Helper()
	c, err := Admit(p.replay(t, n), p.key1, "left the match on purpose")
	if err != nil {
		t.Fatal(err)
	}
	if c.Closing != CloseLeft || c.Seat != 1 || c.Seq != uint64(n) || c.By != p.h.Players[1].Peer {
		t.Fatalf("admission after message %d: %+v", n, c)
	}
	return c
}

// record writes the first n messages and then closing c.
func (p *honestPeek) record(t *testing.T, name string, n int, c *Closing) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".jsonl")
	writeLinesTo(t, path, append(slices.Clone(p.lines[:1+n]), string(mustJSON(t, c))))
	return path
}

// Issue 14 point 3: a player who leaves on purpose signs its own forfeit
// (a "left" record) and keeps it in its own transcript, and the other
// side records that same record. Its own word blames only itself, so it
// stands at any turn, the leaver's own included (a claim of another's
// forfeit at the claimant's own turn is refused: errOwnTurn), and both
// records audit, alone and together, as the leaver's forfeit. The stayer
// may hold a message of its own that the leaver never received.
func TestAdmissionIsTheLeaversForfeitAtAnyTurn(t *testing.T) {
	p := playHonestPeek(t, 23)
	turns := map[string][]int{"the stayer's turn": p.waitsFor(t, 0), "the leaver's own turn": p.waitsFor(t, 1)}
	for name, ns := range turns {
		if len(ns) == 0 {
			t.Fatalf("the match never waits for %s", name)
		}
		n := ns[0]
		t.Run(name, func(t *testing.T) {
			c := p.admission(t, n)
			leaver, stayer := p.record(t, "leaver", n, c), p.record(t, "stayer", n, c)
			records := []string{leaver, stayer}
			if p.envs[n].From == p.h.Players[0].Peer {
				// The stayer's message n+1 was on its way when the
				// leaver left.
				records = append(records, p.record(t, "stayer-ahead", n+1, c))
			}
			want := fmt.Sprintf("left the match after message %d (its own signed word)", n)
			for _, path := range records {
				rep := auditFile(t, path)
				if rep.Verdict != Forfeit || !slices.Equal(rep.Outcome.Winners, []engine.Seat{0}) || !strings.Contains(rep.Detail, want) {
					t.Fatalf("audit of %s: %s", filepath.Base(path), rep.Summary())
				}
				t.Logf("%s: %s", filepath.Base(path), rep.Summary())
			}
			for _, other := range records[1:] {
				for _, pair := range [][]string{{leaver, other}, {other, leaver}} {
					j, err := jointAudit(t, pair...)
					if err != nil {
						t.Fatal(err)
					}
					if j.Verdict != Forfeit || !slices.Equal(j.Outcome.Winners, []engine.Seat{0}) || !strings.Contains(j.Detail, want) {
						t.Fatalf("joint audit of %s and %s: %s", filepath.Base(pair[0]), filepath.Base(pair[1]), j.Summary())
					}
				}
			}
		})
	}
}

// A "left" record is its writer's word about itself and nothing else: one
// that blames another seat, is dated before its writer's own later
// messages, or follows a message the match never had, does not fit.
func TestAdmissionMustBlameItsWriterAndFollowItsMessages(t *testing.T) {
	p := playHonestPeek(t, 24)
	own := p.seat1Turns()
	if len(own) < 2 {
		t.Fatalf("seat 1 sent %d messages", len(own))
	}
	n := own[1] + 1 // the record holds seat 1's second message
	misfits := map[string]func(*Closing){
		"blames the other seat":                 func(c *Closing) { c.Seat = 0 },
		"dated before its writer's own message": func(c *Closing) { c.Seq = uint64(own[1]) },
		"after a message the match never had":   func(c *Closing) { c.Seq = uint64(n + 1) },
		"blames no seat":                        func(c *Closing) { c.Seat = 5 },
	}
	for name, edit := range misfits {
		t.Run(name, func(t *testing.T) {
			c := p.admission(t, n)
			edit(c)
			if err := c.Sign(p.key1); err != nil {
				t.Fatal(err)
			}
			m := p.replay(t, n)
			if _, err := forfeitFits(p.h, m, c); !errors.Is(err, errClosingMisfit) {
				t.Fatalf("forfeitFits: %v", err)
			}
			if rep := auditFile(t, p.record(t, "misfit", n, c)); rep.Verdict != Corrupt {
				t.Fatalf("audit: %s", rep.Summary())
			}
		})
	}
	// No admission for a match that is over, nor by a key that holds no
	// seat.
	if _, err := Admit(p.replay(t, len(p.envs)), p.key1, "late"); err == nil {
		t.Fatal("an admission after the end of the match")
	}
	if _, err := Admit(p.replay(t, n), testKeys(t, 1)[0], "stranger"); err == nil {
		t.Fatal("an admission by a stranger")
	}
}

// The referee adopts the other seat's own "left" record whoever's turn it
// is (it only blames its writer), also after a message of ours that the
// writer never received, but never a record signed with our own key.
func TestAdoptTakesTheOthersAdmissionAtAnyTurn(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	m, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := m.Next()
	for _, writer := range []engine.Seat{first.Seat, 1 - first.Seat} {
		t.Run(fmt.Sprintf("the match waits for seat %d, seat %d leaves", first.Seat, writer), func(t *testing.T) {
			end, _ := fairnesstest.Pipe()
			ref, m := newAdopter(t, h, keys, 1-writer, end)
			c, err := Admit(m, keys[writer], "left")
			if err != nil {
				t.Fatal(err)
			}
			if err := ref.adopt(c); err != nil || ref.res.Closing != c {
				t.Fatalf("adopt: %v", err)
			}
			if w := ref.res.Outcome.Winners; !slices.Equal(w, []engine.Seat{1 - writer}) {
				t.Fatalf("winners %v", w)
			}
		})
	}
	t.Run("after our own message the writer never got", func(t *testing.T) {
		end, _ := fairnesstest.Pipe()
		writer := 1 - first.Seat
		ref, m := newAdopter(t, h, keys, first.Seat, end)
		at, _ := NewMatch(peekSpec, h)
		c, err := Admit(at, keys[writer], "left")
		if err != nil {
			t.Fatal(err)
		}
		ctx := t.Context()
		if stop, err := ref.local(ctx, first, nil); stop || err != nil {
			t.Fatalf("own first input: %v, %v", stop, err)
		}
		if err := ref.flush(ctx); err != nil || m.Seq() != 1 {
			t.Fatalf("own first message: %v (seq %d)", err, m.Seq())
		}
		if err := ref.adopt(c); err != nil {
			t.Fatalf("adopt: %v", err)
		}
	})
	t.Run("our own admission", func(t *testing.T) {
		end, _ := fairnesstest.Pipe()
		ref, m := newAdopter(t, h, keys, 0, end)
		c, err := Admit(m, keys[0], "left")
		if err != nil {
			t.Fatal(err)
		}
		if err := ref.adopt(c); !errors.Is(err, errClosingMisfit) {
			t.Fatalf("adopt of a record signed with our own key: %v", err)
		}
	})
}
