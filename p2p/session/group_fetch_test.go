package session

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/fairness"
)

// blackout is a seat's transport that loses every frame from the topic
// for a while, as a player does whose link is down longer than
// gossipsub's short history: from the first frame numbered from or later
// it drops n frames; what comes after goes through.
type blackout struct {
	fairness.GroupTransport
	from    uint64
	n       int
	mu      sync.Mutex
	dropped int
}

func (b *blackout) RecvFrom(ctx context.Context) ([]byte, string, error) {
	for {
		f, from, err := b.GroupTransport.RecvFrom(ctx)
		if err != nil {
			return f, from, err
		}
		seq, _ := headSeq(f)
		b.mu.Lock()
		drop := seq >= b.from && b.dropped < b.n
		if drop {
			b.dropped++
		}
		b.mu.Unlock()
		if !drop {
			return f, from, nil
		}
	}
}

// envelopeLines are a transcript's envelope lines, in order.
func envelopeLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, tr, err := fairness.ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for {
		ln, err := tr.Next()
		if err != nil {
			break
		}
		if ln.Envelope != nil {
			b, _ := fairness.EncodeEnvelope(ln.Envelope)
			out = append(out, string(b))
		}
	}
	return out
}

// A player that loses a run of frames from the topic (a link down longer
// than gossipsub's history) takes them back from the other players and
// plays on: every seat finishes the 3-player Air match, each transcript
// audits clean, and all three hold the same messages. Before the fetch
// protocol the seat waited for a message it would never get, and the
// table ended in a timeout.
func TestGroupMissedFramesAreFetched(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: 3, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	dir := t.TempDir()
	n := len(tb.Seats)
	res := make([]*fairness.Result, n)
	errs := make([]error, n)
	paths := make([]string, n)
	lost := &blackout{from: 4, n: 6}
	var wg sync.WaitGroup
	for s := range n {
		paths[s] = filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", s))
		entry := tb.Seats[s].Entry
		cfg := PlayConfig{Key: tb.Keys[s], Agent: entry.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 7))), Transcript: paths[s],
			Timeout: 20 * time.Second, Logger: testLog(t)}
		var wrap func(fairness.GroupTransport) fairness.GroupTransport
		if s == 2 {
			wrap = func(g fairness.GroupTransport) fairness.GroupTransport { lost.GroupTransport = g; return lost }
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[s], errs[s] = tb.Seats[s].play(ctx, cfg, wrap)
		}()
	}
	wg.Wait()
	if lost.dropped == 0 {
		t.Fatal("the blackout dropped nothing: the test tests nothing")
	}
	var first []string
	for s := range n {
		if errs[s] != nil {
			t.Fatalf("seat %d: %v", s, errs[s])
		}
		if r := res[s]; r.Closing != nil || r.Violation != nil || !r.Outcome.Done {
			t.Fatalf("seat %d did not finish by the rules: closing %+v, violation %v", s, r.Closing, r.Violation)
		}
		if rep := audit(t, paths[s]); rep.Verdict != fairness.Clean {
			t.Fatalf("seat %d's transcript does not audit clean: %s", s, rep.Summary())
		}
		lines := envelopeLines(t, paths[s])
		if s == 0 {
			first = lines
		} else if fmt.Sprint(lines) != fmt.Sprint(first) {
			t.Fatalf("seat %d holds %d messages, unlike seat 0's %d", s, len(lines), len(first))
		}
	}
	if got := tb.Seats[2].Fetched(); got < lost.dropped {
		t.Fatalf("seat 2 lost %d frames and fetched %d", lost.dropped, got)
	}
	t.Logf("%d messages; seat 2 lost %d frames and fetched %d envelopes", len(first), lost.dropped, tb.Seats[2].Fetched())
}
