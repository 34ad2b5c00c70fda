package session

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/fairness"
)

// The live adversary suite for group matches: a dishonest player at a
// table of real libp2p hosts on loopback, playing its own seat honestly
// through its referee while it publishes extra frames on the match topic
// under its own libp2p identity (gossipsub signs every frame with its
// author's key; it cannot publish as another peer).

// attackWindow is how many messages every honest seat must accept, under
// attack, before the test stops the match (a whole Air match under the
// race detector takes too long for the default run).
const attackWindow = 20

// notUnderRace skips a live attack test under the race detector, where a
// single Air match takes about ten seconds; TestAttackGroupFraming's
// three-player match still runs there.
func notUnderRace(t *testing.T) {
	if raceDetector {
		t.Skip("another whole-table Air match under the race detector: it runs without -race")
	}
}

// attacker stands between a dishonest seat's referee and the topic: what the
// referee sends goes out, and then the frames attack returns for it.
type attacker struct {
	fairness.GroupTransport
	topic interface {
		Send(context.Context, []byte) error
	}
	attack func(own *fairness.Envelope, seen []*fairness.Envelope) [][]byte

	mu   sync.Mutex
	seen []*fairness.Envelope // every envelope received, in order
	sent atomic.Int64         // attack frames published
}

func (a *attacker) RecvFrom(ctx context.Context) ([]byte, string, error) {
	b, from, err := a.GroupTransport.RecvFrom(ctx)
	if err == nil {
		if e, derr := fairness.DecodeEnvelope(b); derr == nil {
			a.mu.Lock()
			a.seen = append(a.seen, e)
			a.mu.Unlock()
		}
	}
	return b, from, err
}

func (a *attacker) Recv(ctx context.Context) ([]byte, error) {
	b, _, err := a.RecvFrom(ctx)
	return b, err
}

func (a *attacker) Send(ctx context.Context, frame []byte) error {
	if err := a.GroupTransport.Send(ctx, frame); err != nil {
		return err
	}
	own, err := fairness.DecodeEnvelope(frame)
	if err != nil {
		return err
	}
	a.mu.Lock()
	seen := append([]*fairness.Envelope(nil), a.seen...)
	a.mu.Unlock()
	for _, b := range a.attack(own, seen) {
		if err := a.topic.Send(ctx, b); err != nil {
			return fmt.Errorf("attack frame: %w", err)
		}
		a.sent.Add(1)
	}
	return nil
}

// attackOutcome is what the honest seats of an attacked match ended with.
type attackOutcome struct {
	res   []*fairness.Result
	paths []string
	sent  int64 // attack frames published
}

// playAttacked plays an Air match at a table of n loopback hosts in which
// seat bad runs attack after each message it sends, until every honest seat
// has accepted attackWindow messages (or the match ends), and checks what
// every honest seat must hold whatever the attack: no error, nobody blamed,
// and a transcript whose audit names nobody.
func playAttacked(t *testing.T, n, bad int, attack func(tb *Table, own *fairness.Envelope, seen []*fairness.Envelope) [][]byte) attackOutcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: n})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	var accepted sync.Map // seat -> *atomic.Int64
	enough := func() bool {
		for s := range n {
			c, ok := accepted.Load(s)
			if s != bad && (!ok || c.(*atomic.Int64).Load() < attackWindow) {
				return false
			}
		}
		return true
	}
	dir := t.TempDir()
	out := attackOutcome{res: make([]*fairness.Result, n), paths: make([]string, n)}
	errs := make([]error, n)
	var a *attacker
	var wg sync.WaitGroup
	for s := range n {
		out.paths[s] = filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", s))
		count := new(atomic.Int64)
		accepted.Store(s, count)
		entry := tb.Seats[s].Entry
		cfg := PlayConfig{Key: tb.Keys[s], Agent: entry.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 3))), Transcript: out.paths[s], Timeout: 20 * time.Second,
			Observe: func(note fairness.Note) {
				if note.Dir == fairness.DirIn && count.Add(1) >= attackWindow && enough() {
					stop()
				}
			}}
		var wrap func(fairness.GroupTransport) fairness.GroupTransport
		if s == bad {
			a = &attacker{topic: tb.Seats[s].Topic, attack: func(own *fairness.Envelope, seen []*fairness.Envelope) [][]byte { return attack(tb, own, seen) }}
			wrap = func(g fairness.GroupTransport) fairness.GroupTransport { a.GroupTransport = g; return a }
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.res[s], errs[s] = tb.Seats[s].play(pctx, cfg, wrap)
		}()
	}
	wg.Wait()
	out.sent = a.sent.Load()
	for s := range n {
		if s == bad {
			continue
		}
		r := out.res[s]
		if errs[s] != nil && !errors.Is(errs[s], context.Canceled) {
			t.Fatalf("seat %d: %v", s, errs[s])
		}
		if r.Violation != nil || r.Closing != nil {
			t.Fatalf("seat %d blames someone: violation %v, closing %+v", s, r.Violation, r.Closing)
		}
		if r.Received < attackWindow && !r.Outcome.Done {
			t.Fatalf("seat %d accepted only %d messages", s, r.Received)
		}
		rep := audit(t, out.paths[s])
		if rep.Violation != nil || (rep.Verdict != fairness.Clean && rep.Verdict != fairness.Incomplete) {
			t.Fatalf("seat %d's audit: %s", s, rep.Summary())
		}
	}
	return out
}

// forgeAs is what a player signs with its own key in another seat's name:
// the signature does not verify against that seat's key.
func forgeAs(t *testing.T, e fairness.Envelope, seq uint64, prev, victim string, key crypto.PrivKey) []byte {
	e.Seq, e.Prev = seq, prev
	if err := e.Sign(key); err != nil {
		t.Error(err)
	}
	e.From = victim
	return encode(t, &e)
}

func encode(t *testing.T, e *fairness.Envelope) []byte {
	b, err := fairness.EncodeEnvelope(e)
	if err != nil {
		t.Error(err)
	}
	return b
}

// TestAttackGroupFraming: after each of its messages, a player publishes
// envelopes in the next seat's name with its own (so bad) signature: one at
// the place of that seat's coming message, which it races, one a message
// ahead, and one with no signature at all. On main every honest referee
// blamed the innocent seat at once; now no honest referee blames anyone,
// the innocent seat's real messages go through, and the match goes on.
func TestAttackGroupFraming(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if n > 3 {
				notUnderRace(t)
			}
			const bad = 1
			victim := tbPeer(bad + 1)
			out := playAttacked(t, n, bad, func(tb *Table, own *fairness.Envelope, _ []*fairness.Envelope) [][]byte {
				v, prev := victim(tb), own.Hash().String()
				unsigned := *own
				unsigned.Seq, unsigned.From, unsigned.Sig = own.Seq+1, v, ""
				return [][]byte{
					forgeAs(t, *own, own.Seq+1, prev, v, tb.Keys[bad]),
					forgeAs(t, *own, own.Seq+2, prev, v, tb.Keys[bad]),
					encode(t, &unsigned),
				}
			})
			dropped := 0
			for s, r := range out.res {
				if s != bad {
					dropped += r.Dropped
				}
			}
			if dropped == 0 {
				t.Fatal("no honest seat dropped a forgery: the attack never arrived")
			}
			t.Logf("%d players: %d forgeries published, %d dropped by the honest seats", n, out.sent, dropped)
		})
	}
}

// tbPeer returns the peer ID of seat (mod the table's size) of a table.
func tbPeer(seat int) func(tb *Table) string {
	return func(tb *Table) string { return tb.Seats[0].Header.Players[seat%len(tb.Seats)].Peer }
}

// TestAttackGroupReplay: after each of its messages, a player publishes
// again the last messages it received, verbatim, with their signatures
// spelled another way (on main: an equivocation of their signers), and as
// their own signers would have signed them in another match among the same
// players. Copies are ignored, the other match's envelopes dropped: nobody
// is blamed and the match goes on.
func TestAttackGroupReplay(t *testing.T) {
	notUnderRace(t)
	const n, bad = 3, 1
	out := playAttacked(t, n, bad, func(tb *Table, own *fairness.Envelope, seen []*fairness.Envelope) [][]byte {
		var frames [][]byte
		for _, e := range seen[max(0, len(seen)-4):] {
			b := encode(t, e)
			respelled := strings.Replace(string(b), e.Sig, e.Sig[:20]+`\n`+e.Sig[20:], 1)
			frames = append(frames, b, []byte(respelled))
			signer := tb.Seats[0].Header.Seat(e.From)
			other := *e
			other.Match = strings.Repeat("5a", 32)
			if err := other.Sign(tb.Keys[signer]); err != nil {
				t.Error(err)
			}
			frames = append(frames, encode(t, &other))
		}
		return frames
	})
	dropped := 0
	for s, r := range out.res {
		if s != bad {
			dropped += r.Dropped
		}
	}
	if dropped == 0 {
		t.Fatal("no replay from another match was dropped")
	}
	t.Logf("%d replays published, %d dropped by the honest seats", out.sent, dropped)
}

// TestAttackGroupEarlyFlood: once, a player publishes 24 envelopes of 300
// KiB validly signed by itself, numbered ahead of the match (with a Prev
// it cannot know), and 24 in the next seat's name. On main an honest
// referee held 64 such envelopes, first one winning, whoever's name they
// bore; now it holds none of the forgeries and at most two of the largest
// envelopes' worth per signer, and the match goes on.
func TestAttackGroupEarlyFlood(t *testing.T) {
	notUnderRace(t)
	const n, bad = 3, 1
	victim := tbPeer(bad + 1)
	var once sync.Once
	out := playAttacked(t, n, bad, func(tb *Table, own *fairness.Envelope, _ []*fairness.Envelope) [][]byte {
		var frames [][]byte
		once.Do(func() {
			pad := `{"inputs":[{"t":"move","move":"` + strings.Repeat("x", 300<<10) + `"}],"state":"00"}`
			for i := range uint64(24) {
				junk := fairness.Envelope{Match: own.Match, Seq: own.Seq + 3 + i, Prev: strings.Repeat("0", 64), Body: []byte(pad)}
				if err := junk.Sign(tb.Keys[bad]); err != nil {
					t.Error(err)
				}
				frames = append(frames, encode(t, &junk), forgeAs(t, junk, own.Seq+1+i, junk.Prev, victim(tb), tb.Keys[bad]))
			}
		})
		return frames
	})
	for s, r := range out.res {
		if s == bad {
			continue
		}
		if limit := int64(n-1) * 2 * fairness.MaxEnvelope; r.HeldPeak > limit {
			t.Fatalf("seat %d held %d bytes ahead of the match, limit %d", s, r.HeldPeak, limit)
		}
		if r.Dropped < 24 {
			t.Fatalf("seat %d dropped %d frames, want at least the 24 forgeries", s, r.Dropped)
		}
		t.Logf("seat %d: held at most %d bytes, dropped %d frames", s, r.HeldPeak, r.Dropped)
	}
	t.Logf("%d flood frames published", out.sent)
}
