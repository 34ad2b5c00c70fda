package session

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// playBoth plays an agreed match on a and b (b the dialer) until it ends;
// hook runs on the dialer's accepted messages, counted from 1.
func playBoth(t *testing.T, ctx context.Context, sides [2]*netSide, ms [2]*Match, hook func(n int32)) (res [2]*fairness.Result, errs [2]error) {
	t.Helper()
	var wg sync.WaitGroup
	var accepted atomic.Int32
	for s := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[s], errs[s] = ms[s].PlayNet(ctx, sides[s].res, s == 1, NetPlayConfig{
				Key: sides[s].key, Agent: bot(t, "ubuild", uint64(s+1)), Timeout: 20 * time.Second, Store: sides[s].store,
				Reconnect: ReconnectConfig{GiveUp: 15 * time.Second},
				Observe: func(n fairness.Note) {
					if s == 1 && n.Dir == fairness.DirIn && hook != nil {
						hook(accepted.Add(1))
					}
				},
			})
		}()
	}
	wg.Wait()
	return res, errs
}

// The dialer's redial after the link dropped finds the other peer
// although its peerstore lost every address of it (identify rewrites it
// with what the peer announced, which behind a NAT nobody can dial): the
// addresses stored with the match are added back before each redial.
func TestRedialReaddsStoredAddrs(t *testing.T) {
	dir := t.TempDir()
	sides := [2]*netSide{
		startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "a")}),
		startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "b")}),
	}
	var ms [2]*Match
	ms[0], ms[1] = agreeMatch(t, sides[0], sides[1], "ubuild")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a, b := sides[0].host, sides[1].host
	res, errs := playBoth(t, ctx, sides, ms, func(n int32) {
		if n != 4 {
			return
		}
		b.Libp2p().Peerstore().ClearAddrs(a.ID())
		_ = b.Libp2p().Network().ClosePeer(a.ID())
	})
	for s := range 2 {
		if errs[s] != nil || res[s].Closing != nil || !res[s].Outcome.Done {
			t.Fatalf("seat %d: %v %+v", s, errs[s], res[s])
		}
	}
	id := ms[0].Header.Match
	sameFiles(t, sides[0].store.Transcript(id), sides[1].store.Transcript(id))
	auditClean(t, sides[0].store.Transcript(id))
}

// A match played with a relay stores it; a resume takes it again though
// the restarted host was started without it (the lobby's host, a bare
// salvo resume), and the other peer's addresses include the circuit
// through it.
func TestResumeKeepsRelays(t *testing.T) {
	relay, err := p2p.New(context.Background(), p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, RelayService: p2p.RelayOn, Reachability: network.ReachabilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { relay.Close() })
	relayAddr := relay.Addrs()[0].String()
	dir := t.TempDir()
	key := newKey(t)
	h, err := p2p.New(context.Background(), p2p.Config{Key: key, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, Relays: []string{relayAddr}, Bootstrap: []string{relayAddr}})
	if err != nil {
		t.Fatal(err)
	}
	res := NewResumer(h, testLog(t))
	a := &netSide{key: key, host: h, res: res, store: Store{Dir: filepath.Join(dir, "a")}}
	b := startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "b")})
	ma, mb := agreeMatch(t, a, b, "ubuild")
	id := ma.Header.Match
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	killCtx, kill := context.WithCancel(ctx)
	died := make(chan struct{})
	go func() {
		defer close(died)
		_, _ = ma.PlayNet(killCtx, a.res, false, NetPlayConfig{Key: key, Agent: bot(t, "ubuild", 1), Timeout: 20 * time.Second, Store: a.store})
	}()
	var seen atomic.Int32
	bDone := make(chan error, 1)
	go func() {
		r, err := mb.PlayNet(ctx, b.res, true, NetPlayConfig{
			Key: b.key, Agent: bot(t, "ubuild", 2), Timeout: 20 * time.Second, Store: b.store,
			Observe: func(n fairness.Note) {
				if n.Dir == fairness.DirIn && seen.Add(1) == 4 {
					kill()
				}
			},
		})
		if err == nil && (r.Closing != nil || !r.Outcome.Done) {
			err = context.Canceled
		}
		bDone <- err
	}()
	<-died
	res.Close()
	_ = h.Close()

	sv, err := a.store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sv.Relays, relayAddr) || !slices.Contains(sv.Bootstrap, relayAddr) {
		t.Fatalf("saved relays %v, bootstrap %v: want %s in both", sv.Relays, sv.Bootstrap, relayAddr)
	}
	restarted := startSide(t, key, a.store)
	var used []string
	r, err := Resume(ctx, restarted.res, id, NetPlayConfig{
		Key: key, Agent: bot(t, "ubuild", 9), Timeout: 20 * time.Second, Store: restarted.store,
		OnTransport: func(*Reconnecting) { used, _ = restarted.host.NetPeers() },
	})
	if err != nil || r.Closing != nil || !r.Outcome.Done {
		t.Fatalf("resumed side: %v %+v", err, r)
	}
	if err := <-bDone; err != nil {
		t.Fatalf("other side: %v", err)
	}
	if !slices.ContainsFunc(used, func(s string) bool { return strings.Contains(s, relay.ID().String()) }) {
		t.Fatalf("resumed host's relays %v: the stored relay was not used again", used)
	}
}
