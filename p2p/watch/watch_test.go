package watch_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/p2p/watch"
	"github.com/salvo-game/salvo/p2p/watch/watchtest"
)

var long = flag.Bool("long", false, "run the 4-player Air spectator test under the race detector too")

// newHost starts a spectator's host on loopback.
func newHost(t *testing.T) *p2p.Host {
	t.Helper()
	h, err := p2p.New(context.Background(), p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func addrInfo(h *p2p.Host) peer.AddrInfo { return peer.AddrInfo{ID: h.ID(), Addrs: h.Addrs()} }

// watched is what one spectator saw.
type watched struct {
	rep  *fairness.Report
	rec  *watch.Record
	err  error
	took time.Duration
	host *p2p.Host
}

// spectate starts a spectator on a host of its own that watches from
// from; its result arrives on the channel.
func spectate(t *testing.T, ctx context.Context, from peer.AddrInfo) <-chan watched {
	t.Helper()
	h := newHost(t)
	out := make(chan watched, 1)
	go func() {
		w := watched{rec: watch.NewRecord(), host: h}
		start := time.Now()
		w.rep, w.err = watch.Watch(ctx, from, watch.Config{Host: h.Libp2p(), Specs: games.Spec, Record: w.rec, Linger: time.Minute})
		w.took = time.Since(start)
		out <- w
	}()
	return out
}

// fileLines reads a transcript's lines.
func fileLines(t testing.TB, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}

// agrees fails unless a spectator saw the whole match, clean, line for
// line as the player's transcript at path holds it.
func agrees(t *testing.T, name string, w watched, path string) {
	t.Helper()
	if w.err != nil {
		t.Fatalf("%s: %v", name, w.err)
	}
	if w.rep.Verdict != fairness.Clean || len(w.rep.Revealed) == 0 {
		t.Fatalf("%s: %s, %d values revealed", name, w.rep.Summary(), len(w.rep.Revealed))
	}
	want, got := fileLines(t, path), w.rec.Lines()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, the player's transcript has %d", name, len(got), len(want))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("%s: line %d differs from the player's transcript", name, i+1)
		}
	}
	if rep, err := fairness.AuditFile(path, games.Spec); err != nil || rep.Summary() != w.rep.Summary() {
		t.Fatalf("%s: saw %q, the audit of the transcript says %v %v", name, w.rep.Summary(), rep.Summary(), err)
	}
}

// Spectators of a 2-player match, over real libp2p hosts: five that come
// at the first message (more than one player serves: the rest are sent on
// to spectators, who pass on what they verified), one in the middle and
// one after the end each verify the whole record and agree, line for
// line, with the players' transcripts; the host's upload to them stays
// within MaxWatchers copies of the record.
func TestSpectatorsOfTwoPlayerMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var early []<-chan watched
	var mid <-chan watched
	p, paths := watchtest.PlayTwo(t, ctx, "ubuild", true, func(n int, p *session.Pair) {
		switch n {
		case 1:
			for range 5 {
				early = append(early, spectate(t, ctx, addrInfo(p.Hosts[0])))
			}
		case 12:
			mid = spectate(t, ctx, addrInfo(p.Hosts[0]))
		}
	})
	late := spectate(t, ctx, addrInfo(p.Hosts[0]))
	relayed := int64(0)
	for i, c := range early {
		w := <-c
		agrees(t, fmt.Sprintf("spectator %d at the start", i), w, paths[0])
		if s := watch.ServerOf(w.host.Libp2p()); s != nil {
			relayed += s.Sent()
		}
	}
	agrees(t, "spectator in the middle", <-mid, paths[1])
	w := <-late
	agrees(t, "spectator after the end", w, paths[0])
	size := 0
	for _, l := range fileLines(t, paths[0]) {
		size += len(l) + 1
	}
	sent := watch.ServerOf(p.Hosts[0].Libp2p()).Sent()
	guest := int64(0)
	if s := watch.ServerOf(p.Hosts[1].Libp2p()); s != nil {
		guest = s.Sent()
	}
	t.Logf("record: %d lines, %d bytes; to 7 spectators the host sent %d bytes (%.2f records), the guest %d, the early spectators relayed %d; catch-up after the end: %v",
		len(fileLines(t, paths[0])), size, sent, float64(sent)/float64(size), guest, relayed, w.took)
	if limit := int64(watch.MaxWatchers * (size + 64*len(fileLines(t, paths[0])))); sent > limit {
		t.Fatalf("the host sent %d bytes to spectators, more than %d copies of the record (%d bytes)", sent, watch.MaxWatchers, limit)
	}
}

// Spectators of a 4-player Air match (a table over gossipsub), one from
// the start and one after the end, agree with every player's transcript.
func TestSpectatorsOfFourPlayerAir(t *testing.T) {
	if raceEnabled && !*long {
		t.Skip("a 4-player Air match under the race detector takes two minutes: run with -long")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	tb, err := session.LoopbackGroup(ctx, session.GroupLoopbackConfig{Offer: session.Offer{Game: "air", Variant: "team", Watch: true}, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	dir := t.TempDir()
	paths := make([]string, 4)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	var early <-chan watched
	var once sync.Once
	for s := range 4 {
		paths[s] = filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", s))
		cfg := session.PlayConfig{Key: tb.Keys[s], Agent: tb.Seats[s].Entry.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 9))),
			Transcript: paths[s], Timeout: 30 * time.Second}
		if s == 2 {
			cfg.Observe = func(n fairness.Note) {
				if n.Dir == fairness.DirIn {
					once.Do(func() { early = spectate(t, ctx, addrInfo(tb.Hosts[2])) })
				}
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[s] = tb.Seats[s].Play(ctx, cfg)
		}()
	}
	wg.Wait()
	for s, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
	}
	late := spectate(t, ctx, addrInfo(tb.Hosts[0]))
	w := <-early
	for s := range 4 {
		agrees(t, fmt.Sprintf("spectator from the start, against seat %d", s), w, paths[s])
	}
	w = <-late
	agrees(t, "spectator after the end", w, paths[3])
	t.Logf("catch-up of a finished 4-player Air match (%d lines): %v", len(w.rec.Lines()), w.took)
}

// A spectator fed a tampered record by a relaying spectator (a byte
// flipped, a line dropped, two lines swapped, an old line replayed) stops at the bad line and names it, its claimed sender, what
// failed, and the relay it came from.
func TestSpectatorStopsAtTamperedRelay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	_, paths := watchtest.PlayTwo(t, ctx, "ubuild", true, nil)
	lines := fileLines(t, paths[0])
	var hd fairness.Header
	if la, err := fairness.NewLiveAudit(lines[0], games.Spec); err != nil {
		t.Fatal(err)
	} else {
		hd = la.Header()
	}
	flip := func(i int) [][]byte {
		c := append([][]byte(nil), lines...)
		b := bytes.Clone(c[i])
		k := bytes.Index(b, []byte(`"sig":"`)) + 10
		b[k] ^= 0x04
		c[i] = b
		return c
	}
	swap := func(i int) [][]byte {
		c := append([][]byte(nil), lines...)
		c[i], c[i+1] = c[i+1], c[i]
		return c
	}
	drop := func(i int) [][]byte { return append(append([][]byte(nil), lines[:i]...), lines[i+1:]...) }
	cases := []struct {
		name  string
		lines [][]byte
		line  int
	}{
		{"byte flipped", flip(6), 7},
		{"line dropped", drop(4), 5},
		{"lines swapped", swap(8), 9},
		{"line replayed", append(append(append([][]byte(nil), lines[:10]...), lines[3]), lines[10:]...), 11},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			relay := newHost(t)
			rec := watch.NewRecord()
			for _, l := range c.lines {
				rec.Append(l)
			}
			rec.End()
			watch.Serve(relay.Libp2p(), hd, rec, time.Minute, nil)
			w := <-spectate(t, ctx, addrInfo(relay))
			var stop *watch.Stopped
			if !errors.As(w.err, &stop) {
				t.Fatalf("the spectator took the tampered record: %v, %v", w.err, w.rep)
			}
			if stop.Line != c.line || stop.From != relay.ID() || stop.Reason == "" || stop.Sender == "" {
				t.Fatalf("named %v; want line %d from the relay %s", stop, c.line, relay.ID())
			}
			if n := len(w.rec.Lines()); n != c.line-1 {
				t.Fatalf("the spectator passes on %d lines, want the %d before the bad one", n, c.line-1)
			}
			t.Log(stop)
		})
	}
}

// A watch request for a match its host did not open to spectators is
// refused, and the spectator is told why.
func TestWatchRefusedUnlessAllowed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var during <-chan watched
	p, _ := watchtest.PlayTwo(t, ctx, "ubuild", false, func(n int, p *session.Pair) {
		if n == 2 {
			during = spectate(t, ctx, addrInfo(p.Hosts[1]))
		}
	})
	after := spectate(t, ctx, addrInfo(p.Hosts[0]))
	for _, c := range []<-chan watched{during, after} {
		w := <-c
		if !errors.Is(w.err, watch.ErrNotWatchable) || w.rep != nil || len(w.rec.Lines()) != 0 {
			t.Fatalf("watching an unwatchable match: %v, %d lines", w.err, len(w.rec.Lines()))
		}
		t.Log(w.err)
	}
}
