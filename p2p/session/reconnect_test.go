package session

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// netSide is one seat of a network match in a test: its host, resumer and
// store.
type netSide struct {
	key   crypto.PrivKey
	host  *p2p.Host
	res   *Resumer
	store Store
}

// startSide starts a host for key on loopback TCP (on listen, if given).
func startSide(t *testing.T, key crypto.PrivKey, store Store, listen ...string) *netSide {
	t.Helper()
	if len(listen) == 0 {
		listen = []string{"/ip4/127.0.0.1/tcp/0"}
	}
	h, err := p2p.New(context.Background(), p2p.Config{Key: key, ListenAddrs: listen})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	res := NewResumer(h, testLog(t))
	t.Cleanup(res.Close) // runs first: no transport outlives the test
	return &netSide{key: key, host: h, res: res, store: store}
}

// newPair starts two sides with their own stores and agrees a match of
// game between them: a hosts (seat 0), b joins (seat 1) and is the dialer.
func newPair(t *testing.T, game string) (a, b *netSide, ma, mb *Match) {
	t.Helper()
	dir := t.TempDir()
	a = startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "a")})
	b = startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "b")})
	ma, mb = agreeMatch(t, a, b, game)
	return a, b, ma, mb
}

// agreeMatch connects b to a and runs the handshake: a hosts (seat 0), b
// joins (seat 1) and is the dialer.
func agreeMatch(t *testing.T, a, b *netSide, game string) (*Match, *Match) {
	t.Helper()
	return agreeMatchVia(t, a, b, game, a.host.Invite())
}

// agreeMatchVia is agreeMatch with b connecting to a at addr.
func agreeMatchVia(t *testing.T, a, b *netSide, game, addr string) (*Match, *Match) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id, err := b.host.Connect(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *Match, 1)
	go func() {
		select {
		case c := <-a.host.Incoming():
			m, err := Host(ctx, c, Self{Key: a.key, Name: "ann"}, Offer{Game: game})
			if err != nil {
				t.Error(err)
			}
			done <- m
		case <-ctx.Done():
			done <- nil
		}
	}()
	c, err := b.host.OpenMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := Join(ctx, c, Self{Key: b.key, Name: "bob"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ma := <-done
	if ma == nil {
		t.Fatal("host side of the handshake failed")
	}
	return ma, mb
}

func newKey(t *testing.T) crypto.PrivKey {
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func bot(t *testing.T, game string, seed uint64) engine.Agent {
	e, _ := games.Lookup(game)
	return e.Bots["strong"](rand.New(rand.NewPCG(seed, seed)))
}

// auditClean fails unless the transcript at path audits clean.
func auditClean(t *testing.T, path string) {
	t.Helper()
	if rep := audit(t, path); rep.Verdict != fairness.Clean {
		t.Fatalf("%s: %s", path, rep.Summary())
	}
}

func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if string(x) != string(y) || len(x) == 0 {
		t.Fatalf("transcripts %s and %s differ", a, b)
	}
}

// A match whose streams and whole connections keep breaking goes on over
// new streams and ends clean, with the same transcript on both sides.
func TestMatchSurvivesDrops(t *testing.T) {
	for _, tc := range []struct {
		name string
		drop func(a, b *netSide, rcs [2]*Reconnecting)
	}{
		{"stream reset", func(a, b *netSide, rcs [2]*Reconnecting) {
			rcs[0].mu.Lock()
			c := rcs[0].cur
			rcs[0].mu.Unlock()
			if c != nil {
				c.Abort()
			}
		}},
		{"connection closed", func(a, b *netSide, rcs [2]*Reconnecting) {
			_ = a.host.Libp2p().Network().ClosePeer(b.host.ID())
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a := startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "a")})
			b := startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "b")})
			ma, mb := agreeMatch(t, a, b, "ubuild")
			var rcs [2]*Reconnecting
			var ready sync.WaitGroup
			ready.Add(2)
			var notes atomic.Int32
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			var res [2]*fairness.Result
			var errs [2]error
			var wg sync.WaitGroup
			for s, side := range []*netSide{a, b} {
				m := []*Match{ma, mb}[s]
				wg.Add(1)
				go func() {
					defer wg.Done()
					res[s], errs[s] = m.PlayNet(ctx, side.res, s == 1, NetPlayConfig{
						Key: side.key, Agent: bot(t, "ubuild", uint64(s+1)), Timeout: 20 * time.Second, Store: side.store,
						OnTransport: func(rc *Reconnecting) { rcs[s] = rc; ready.Done() },
						Observe: func(n fairness.Note) {
							// Seat 0 breaks the link after every 4th message it accepts.
							if s == 0 && n.Dir == "in" && notes.Add(1)%4 == 0 {
								ready.Wait()
								tc.drop(a, b, rcs)
							}
						},
					})
				}()
			}
			wg.Wait()
			for s := range 2 {
				if errs[s] != nil || res[s].Closing != nil || !res[s].Outcome.Done {
					t.Fatalf("seat %d: %v %+v", s, errs[s], res[s])
				}
			}
			sw, kinds := rcs[1].Stats()
			if sw < 2 {
				t.Fatalf("the dialer switched streams %d times (%v); the drops did not happen", sw, kinds)
			}
			t.Logf("%d drops survived; kinds %v", sw, kinds)
			id := ma.Header.Match
			sameFiles(t, a.store.Transcript(id), b.store.Transcript(id))
			auditClean(t, a.store.Transcript(id))
		})
	}
}

// Either peer's process dies mid-match (its host closed without a word,
// as SIGKILL would) and a new process with the same identity, on another
// port, resumes from the store; the match ends clean.
//
// The transcript has its readable name (TranscriptName); a store written
// by an older Salvo, the transcript named <match ID>.jsonl and the peer
// record without its name, resumes the same way.
func TestResumeAfterRestart(t *testing.T) {
	for _, c := range []struct {
		victim int
		old    bool
	}{{0, false}, {1, false}, {1, true}} {
		victim := c.victim
		name := []string{"host killed", "joiner killed"}[victim]
		if c.old {
			name += ", stored by an older Salvo"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			sides := [2]*netSide{
				startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "a")}),
				startSide(t, newKey(t), Store{Dir: filepath.Join(dir, "b")}),
			}
			ms := [2]*Match{}
			ms[0], ms[1] = agreeMatch(t, sides[0], sides[1], "ubuild")
			id := ms[0].Header.Match
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			killCtx, kill := context.WithCancel(ctx)
			defer kill()
			var res [2]*fairness.Result
			var errs [2]error
			var wg sync.WaitGroup
			var accepted atomic.Int32
			died := make(chan struct{})
			for s := range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if s == victim {
						defer close(died)
					}
					pctx := ctx
					if s == victim {
						pctx = killCtx
					}
					res[s], errs[s] = ms[s].PlayNet(pctx, sides[s].res, s == 1, NetPlayConfig{
						Key: sides[s].key, Agent: bot(t, "ubuild", uint64(s+1)), Timeout: 20 * time.Second, Store: sides[s].store,
						Observe: func(n fairness.Note) {
							if s == victim && n.Dir == "in" && accepted.Add(1) == 6 {
								kill() // the process dies: PlayNet resets its stream
							}
						},
					})
				}()
			}
			select { // wait for the victim to die
			case <-died:
			case <-ctx.Done():
				t.Fatal("victim never stopped")
			}
			_ = sides[victim].host.Close()
			if want := filepath.Join(sides[victim].store.Dir, TranscriptName(ms[victim].Header, ms[victim].Seat)); sides[victim].store.Transcript(id) != want {
				t.Fatalf("transcript %s, want the readable %s", sides[victim].store.Transcript(id), want)
			}
			if c.old {
				toOldLayout(t, sides[victim].store, id)
			}
			saved, err := sides[victim].store.List()
			if err != nil || len(saved) != 1 || !saved[0].InProgress() || saved[0].Match != id {
				t.Fatalf("store after the kill: %+v, %v", saved, err)
			}
			start := time.Now()
			restarted := startSide(t, sides[victim].key, sides[victim].store)
			var rc *Reconnecting
			r, err := Resume(ctx, restarted.res, id, NetPlayConfig{
				Key: restarted.key, Agent: bot(t, "ubuild", 9), Timeout: 20 * time.Second, Store: restarted.store,
				OnTransport: func(x *Reconnecting) { rc = x },
				Observe: func(n fairness.Note) {
					if n.Dir == "in" && rc != nil && rc.Kind() != KindReconnecting {
						t.Logf("first message after the restart: %v", time.Since(start))
						rc = nil
					}
				},
			})
			wg.Wait()
			if err != nil || r.Closing != nil || !r.Outcome.Done {
				t.Fatalf("resumed side: %v %+v", err, r)
			}
			other := 1 - victim
			if errs[other] != nil || res[other].Closing != nil || !res[other].Outcome.Done {
				t.Fatalf("surviving side: %v %+v", errs[other], res[other])
			}
			sameFiles(t, sides[0].store.Transcript(id), sides[1].store.Transcript(id))
			auditClean(t, sides[0].store.Transcript(id))
			for s := range 2 {
				// The peer record says the match is over, so listing the
				// store no longer replays it.
				pr, err := sides[s].store.readPeer(id)
				sv, lerr := sides[s].store.Load(id)
				if err != nil || lerr != nil || pr.Ended != endedOver || !sv.Over || sv.InProgress() || sv.Seq == 0 || sv.Header.Match != id {
					t.Fatalf("seat %d after the end: record %+v (%v), saved %+v (%v)", s, pr, err, sv, lerr)
				}
			}
			if _, err := Resume(ctx, restarted.res, id, NetPlayConfig{Key: restarted.key, Store: restarted.store}); !errors.Is(err, ErrMatchOver) {
				t.Fatalf("resuming a finished match: %v", err)
			}
		})
	}
}

// A peer that never comes back forfeits after the give-up time, and the
// transcript ends with the signed record saying so.
func TestPeerGoneForfeits(t *testing.T) {
	a, b, ma, mb := newPair(t, "ubuild")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bctx, kill := context.WithCancel(ctx)
	go func() {
		_, _ = mb.PlayNet(bctx, b.res, true, NetPlayConfig{Key: b.key, Agent: bot(t, "ubuild", 2), Store: b.store,
			Observe: func(n fairness.Note) {
				if n.Dir == "in" && n.Seq >= 4 {
					kill()
				}
			}})
		_ = b.host.Close() // and never comes back
	}()
	start := time.Now()
	res, err := ma.PlayNet(ctx, a.res, false, NetPlayConfig{Key: a.key, Agent: bot(t, "ubuild", 1), Store: a.store, Timeout: time.Minute,
		Reconnect: ReconnectConfig{GiveUp: 500 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Closing == nil || res.Closing.Closing != fairness.CloseAbandoned || res.Closing.Seat != 1 {
		t.Fatalf("result %+v, closing %+v", res, res.Closing)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("forfeit took %v", time.Since(start))
	}
	if len(res.Outcome.Winners) != 1 || res.Outcome.Winners[0] != 0 {
		t.Fatalf("outcome %+v", res.Outcome)
	}
	saved, err := a.store.Load(ma.Header.Match)
	if err != nil || !saved.Stopped || saved.InProgress() || !strings.Contains(saved.StopReason, fairness.CloseAbandoned+" of seat 1") || saved.Seq < 4 {
		t.Fatalf("saved %+v, %v", saved, err)
	}
	rep, err := fairness.AuditFile(a.store.Transcript(ma.Header.Match), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("audit: %s", rep.Summary())
}

func TestDecodeResume(t *testing.T) {
	id := "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name, in string
		ok       bool
		want     error
	}{
		{"resume", `{"t":"resume","match":"` + id + `","seq":7}`, true, nil},
		{"decline", `{"t":"decline","reason":"no"}`, false, ErrNoSuchMatch},
		{"other type", `{"t":"join","match":"` + id + `"}`, false, nil},
		{"short match", `{"t":"resume","match":"ab","seq":1}`, false, nil},
		{"path in the match ID", `{"t":"resume","match":"` + strings.Repeat("../", 20) + `tmp/","seq":1}`, false, nil},
		{"upper-case match ID", `{"t":"resume","match":"` + strings.ToUpper(id) + `","seq":1}`, false, nil},
		{"unknown field", `{"t":"resume","match":"` + id + `","seq":1,"x":1}`, false, nil},
		{"trailing", `{"t":"resume","match":"` + id + `","seq":1}{}`, false, nil},
		{"negative seq", `{"t":"resume","match":"` + id + `","seq":-1}`, false, nil},
		{"not json", `resume`, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := decodeResume([]byte(tc.in))
			if (err == nil) != tc.ok {
				t.Fatalf("decodeResume(%s) = %+v, %v", tc.in, f, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
}

func FuzzDecodeResume(f *testing.F) {
	f.Add([]byte(`{"t":"resume","match":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef","seq":7}`))
	f.Add([]byte(`{"t":"decline","reason":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := decodeResume(b)
		if err == nil && (fr.T != "resume" || len(fr.Match) != 64) {
			t.Fatalf("accepted %q as %+v", b, fr)
		}
	})
}

// testLog logs into the test output with SALVO_TEST_LOG=1.
func testLog(t *testing.T) *slog.Logger {
	if os.Getenv("SALVO_TEST_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// A match that starts on a relayed connection moves onto a direct
// connection as soon as one appears (what a DCUtR hole punch gives), and
// Kind follows it; both sides end clean.
func TestRelayedMatchMovesToDirect(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	relay, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, RelayService: p2p.RelayOn, Reachability: network.ReachabilityPublic})
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close()
	dir := t.TempDir()
	mk := func(name string, relays []string) *netSide {
		k := newKey(t)
		h, err := p2p.New(ctx, p2p.Config{Key: k, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, Relays: relays, NoHolePunching: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return &netSide{key: k, host: h, res: NewResumer(h, testLog(t)), store: Store{Dir: filepath.Join(dir, name)}}
	}
	a := mk("a", []string{relay.Addrs()[0].String()})
	b := mk("b", nil)
	for len(a.host.RelayAddrs()) == 0 {
		if ctx.Err() != nil {
			t.Fatal("no reservation")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// b reaches a through the relay only.
	circuit := a.host.RelayAddrs()[0].String() + "/p2p/" + a.host.ID().String()
	id, err := b.host.Connect(ctx, circuit)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan *Match, 1)
	go func() {
		c := <-a.host.Incoming()
		m, err := Host(ctx, c, Self{Key: a.key, Name: "ann"}, Offer{Game: "ubuild"})
		if err != nil {
			t.Error(err)
		}
		done <- m
	}()
	c, err := b.host.OpenMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kind() != p2p.KindRelayed {
		t.Fatalf("first stream %s, want relayed", c.Kind())
	}
	mb, err := Join(ctx, c, Self{Key: b.key, Name: "bob"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ma := <-done
	var res [2]*fairness.Result
	var errs [2]error
	var rcs [2]*Reconnecting
	var wg sync.WaitGroup
	var once sync.Once
	for s, side := range []*netSide{a, b} {
		m := []*Match{ma, mb}[s]
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[s], errs[s] = m.PlayNet(ctx, side.res, s == 1, NetPlayConfig{
				Key: side.key, Agent: Paced(bot(t, "ubuild", uint64(s+1)), 30*time.Millisecond), Timeout: 20 * time.Second, Store: side.store,
				OnTransport: func(rc *Reconnecting) { rcs[s] = rc },
				Observe: func(n fairness.Note) {
					if s == 1 && n.Dir == "in" && n.Seq >= 6 {
						// A direct path appears mid-match (as a hole punch
						// would make it).
						once.Do(func() {
							ai := peer.AddrInfo{ID: a.host.ID(), Addrs: a.host.Libp2p().Network().ListenAddresses()}
							if err := b.host.Libp2p().Connect(network.WithForceDirectDial(ctx, "test"), ai); err != nil {
								t.Error(err)
							}
						})
					}
				},
			})
		}()
	}
	wg.Wait()
	for s := range 2 {
		if errs[s] != nil || res[s].Closing != nil || !res[s].Outcome.Done {
			t.Fatalf("seat %d: %v %+v", s, errs[s], res[s])
		}
	}
	_, kinds := rcs[1].Stats()
	if len(kinds) < 2 || kinds[0] != p2p.KindRelayed || kinds[len(kinds)-1] != p2p.KindLAN {
		t.Fatalf("streams %v: want relayed, then LAN direct", kinds)
	}
	if k := rcs[1].Kind(); k != p2p.KindLAN && k != KindReconnecting {
		t.Fatalf("Kind after the move: %s", k)
	}
	sameFiles(t, a.store.Transcript(ma.Header.Match), b.store.Transcript(ma.Header.Match))
	auditClean(t, a.store.Transcript(ma.Header.Match))
}

// toOldLayout turns a match of the store into what an older Salvo wrote:
// the transcript named <match ID>.jsonl, the peer record without its name.
func toOldLayout(t *testing.T, s Store, id string) {
	t.Helper()
	pr, err := s.readPeer(id)
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(s.Dir, id+".jsonl")
	if err := os.Rename(s.Transcript(id), old); err != nil {
		t.Fatal(err)
	}
	pr.Transcript = ""
	if err := s.writePeer(pr); err != nil {
		t.Fatal(err)
	}
	if s.Transcript(id) != old {
		t.Fatalf("the old layout's transcript is looked for at %s", s.Transcript(id))
	}
}
