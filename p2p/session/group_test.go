package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
)

// playTable plays the table's match with strong bots on every seat and
// returns each seat's result and transcript path. alter may change a
// seat's play config and context.
func playTable(t *testing.T, tb *Table, timeout time.Duration, alter func(seat int, ctx context.Context, cfg *PlayConfig) context.Context) ([]*fairness.Result, []string, []error) {
	t.Helper()
	n := len(tb.Seats)
	dir := t.TempDir()
	res := make([]*fairness.Result, n)
	paths := make([]string, n)
	errs := make([]error, n)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for s := range n {
		paths[s] = filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", s))
		entry := tb.Seats[s].Entry
		cfg := PlayConfig{Key: tb.Keys[s], Agent: entry.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 7))), Transcript: paths[s], Timeout: timeout}
		sctx := ctx
		if alter != nil {
			sctx = alter(s, ctx, &cfg)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[s], errs[s] = tb.Seats[s].Play(sctx, cfg)
		}()
	}
	wg.Wait()
	return res, paths, errs
}

func audit(t *testing.T, path string) *fairness.Report {
	t.Helper()
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A seat whose host goes away in the middle of a free-for-all is taken
// off the table (issue 14 requirement 4): once the match waits for it past
// the give-up time, the seat after it removes it in the signed chain and
// the others play on to the game's own end, with records that agree and
// audit clean (before, every peer recorded its forfeit and the others
// shared the win).
func TestGroupSeatThatLeavesIsTakenOffTheTable(t *testing.T) {
	for _, n := range []int{3, 4} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: n})
			if err != nil {
				t.Fatal(err)
			}
			defer tb.Close()
			gone := n - 1
			var once sync.Once
			res, paths, errs := playTable(t, tb, 4*time.Second, func(seat int, ctx context.Context, cfg *PlayConfig) context.Context {
				if seat != gone {
					// While the seat awaited is away its step timeout
					// is paused: give-up alone takes it off the table.
					cfg.GiveUp = 4 * time.Second
					return ctx
				}
				// After its fourth accepted message the peer's host shuts
				// down and its process stops.
				ctx, stop := context.WithCancel(ctx)
				count := 0
				cfg.Observe = func(note fairness.Note) {
					if note.Dir == fairness.DirIn {
						if count++; count == 4 {
							once.Do(func() {
								go tb.Hosts[gone].Close()
								stop()
							})
						}
					}
				}
				return ctx
			})
			var first []byte
			for s := range n {
				if s == gone {
					continue
				}
				r := res[s]
				if errs[s] != nil || r.Closing != nil || !r.Outcome.Done || slices.Contains(r.Outcome.Winners, engine.Seat(gone)) {
					t.Fatalf("seat %d: err %v, result %+v; want the game's own end without seat %d", s, errs[s], r, gone)
				}
				if rep := audit(t, paths[s]); rep.Verdict != fairness.Clean {
					t.Fatalf("seat %d audit: %s", s, rep.Summary())
				}
				data, _ := os.ReadFile(paths[s])
				if first == nil {
					first = data
				} else if string(data) != string(first) {
					t.Fatalf("seat %d's record differs", s)
				}
			}
			if !strings.Contains(string(first), `"t":"remove"`) {
				t.Fatal("the records hold no removal")
			}
		})
	}
}

// The host turns away a joiner that speaks another protocol and seats the
// next one instead.
func TestGroupHostTurnsAwayBadJoinerAndSeatsAnother(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hosts, routers, keys := startHosts(t, 3)
	incoming := make(chan *p2p.Conn, 4)
	go func() {
		for c := range hosts[0].Incoming() {
			incoming <- c
		}
	}()
	hostDone := make(chan hostedGroup, 1)
	go func() {
		m, err := HostGroup(ctx, GroupHostConfig{Self: Self{Key: keys[0], Name: "host"}, Offer: Offer{Game: "air"}, Players: 2, Router: routers[0]}, incoming)
		hostDone <- hostedGroup{m, err}
	}()
	// Bad joiners: an old protocol, a bad nonce, an overlong name, a name
	// with terminal escapes.
	id, err := hosts[1].Connect(ctx, hosts[0].Invite())
	if err != nil {
		t.Fatal(err)
	}
	nonce, _ := fairness.NewNonce()
	for _, c := range []struct {
		f    frame
		want string
	}{
		{frame{T: tJoin, Version: "salvo/1", Name: "old", Nonce: nonce}, "salvo/1"},
		{frame{T: tJoin, Version: Version, Name: "odd", Nonce: "abc"}, "nonce"},
		{frame{T: tJoin, Version: Version, Name: strings.Repeat("x", 33), Nonce: nonce}, "name"},
		{frame{T: tJoin, Version: Version, Name: hostiletest.EvilName, Nonce: nonce}, "name"},
	} {
		bad, err := hosts[1].OpenMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if err := send(ctx, bad, c.f); err != nil {
			t.Fatal(err)
		}
		if _, err := recvGroup(ctx, bad, tOffer); !errors.Is(err, ErrDeclined) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("bad joiner %+v got %v", c.f, err)
		}
		bad.Close()
	}
	m, hm := seatGoodJoiner(ctx, t, hosts, routers, keys, id, hostDone)
	if hm.Header.Match != m.Header.Match {
		t.Fatalf("the joiner's match %s, the host's %s", m.Header.Match, hm.Header.Match)
	}
}

// hostedGroup is what HostGroup returned, handed over from its goroutine.
type hostedGroup struct {
	m   *GroupMatch
	err error
}

// seatGoodJoiner has hosts[2] join the two-seat table hosts[0] hosts (on
// the match stream to peer id) after the bad joiners were turned away,
// and checks that it got the seat they could not take; the topics close
// with the test.
func seatGoodJoiner(ctx context.Context, t *testing.T, hosts []*p2p.Host, routers []*group.Router, keys []crypto.PrivKey, id peer.ID, hostDone <-chan hostedGroup) (joined, host *GroupMatch) {
	t.Helper()
	if _, err := hosts[2].Connect(ctx, hosts[0].Invite()); err != nil {
		t.Fatal(err)
	}
	good, err := hosts[2].OpenMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	m, err := JoinGroup(ctx, routers[2], good, Self{Key: keys[2], Name: "good"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Topic.Close() })
	h := <-hostDone
	if h.err != nil {
		t.Fatal(h.err)
	}
	t.Cleanup(func() { h.m.Topic.Close() })
	if m.Seat != 1 || h.m.Header.Players[1].Peer != hosts[2].ID().String() {
		t.Fatalf("seat %d, header %+v", m.Seat, h.m.Header.Players)
	}
	return m, h.m
}

// A joiner that declines the offer breaks the table up: the host's error
// names its seat and every other joiner is told why.
func TestGroupDeclineBreaksTheTableUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hosts, routers, keys := startHosts(t, 3)
	type res struct {
		m   *GroupMatch
		err error
	}
	seated := make(chan struct{}, 2)
	hostDone := make(chan res, 1)
	go func() {
		m, err := HostGroup(ctx, GroupHostConfig{Self: Self{Key: keys[0], Name: "host"}, Offer: Offer{Game: "air"}, Players: 3, Router: routers[0],
			Seated: func(engine.Seat, peer.ID, string) { seated <- struct{}{} }}, hosts[0].Incoming())
		hostDone <- res{m, err}
	}()
	joinDone := make(chan res, 2)
	for i := 1; i <= 2; i++ {
		id, err := hosts[i].Connect(ctx, hosts[0].Invite())
		if err != nil {
			t.Fatal(err)
		}
		c, err := hosts[i].OpenMatch(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		accept := func(fairness.Header) error { return nil }
		if i == 2 {
			accept = func(fairness.Header) error { return errors.New("not in the mood") }
		}
		go func() {
			m, err := JoinGroup(ctx, routers[i], c, Self{Key: keys[i], Name: fmt.Sprint("j", i)}, accept)
			joinDone <- res{m, err}
		}()
		<-seated
	}
	h := <-hostDone
	if h.err == nil || !strings.Contains(h.err.Error(), "seat 2") || !strings.Contains(h.err.Error(), "not in the mood") {
		t.Fatalf("host: %v", h.err)
	}
	for range 2 {
		j := <-joinDone
		if j.err == nil {
			t.Fatal("a joiner got a match")
		}
		if errors.Is(j.err, ErrDeclined) && !strings.Contains(j.err.Error(), "seat 2") {
			t.Fatalf("the other joiner was told %v", j.err)
		}
	}
}

// A joiner checks the offer: it must seat the host at 0 and this peer with
// its own nonce, and list every player's addresses in seat order.
func TestCheckOffer(t *testing.T) {
	ids := make([]string, 3)
	var pids []peer.ID
	for i := range ids {
		k, _, _ := crypto.GenerateEd25519Key(nil)
		id, _ := peer.IDFromPrivateKey(k)
		ids[i] = id.String()
		pids = append(pids, id)
	}
	nonce, _ := fairness.NewNonce()
	other, _ := fairness.NewNonce()
	entry, _ := games.Lookup("air")
	good := func() (fairness.Header, []PeerAddrs) {
		h, err := fairness.NewHeader(entry.Spec, "ffa", []fairness.Player{{Peer: ids[0], Nonce: other}, {Peer: ids[1], Nonce: nonce}, {Peer: ids[2], Nonce: other}})
		if err != nil {
			t.Fatal(err)
		}
		return h, []PeerAddrs{{Peer: ids[0]}, {Peer: ids[1]}, {Peer: ids[2]}}
	}
	cases := []struct {
		name   string
		change func(*fairness.Header, *[]PeerAddrs)
		want   string
	}{
		{"good", func(*fairness.Header, *[]PeerAddrs) {}, ""},
		{"host-not-first", func(h *fairness.Header, _ *[]PeerAddrs) { h.Players[0], h.Players[2] = h.Players[2], h.Players[0] }, "host at seat 0"},
		{"wrong-nonce", func(h *fairness.Header, _ *[]PeerAddrs) { h.Players[1].Nonce = other }, "nonce"},
		{"not-seated", func(h *fairness.Header, p *[]PeerAddrs) { h.Players[1], (*p)[1] = h.Players[2], (*p)[2] }, "seat this peer"},
		{"addrs-missing", func(_ *fairness.Header, p *[]PeerAddrs) { *p = (*p)[:2] }, "addresses"},
		{"addrs-swapped", func(_ *fairness.Header, p *[]PeerAddrs) { (*p)[1], (*p)[2] = (*p)[2], (*p)[1] }, "another peer's"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, p := good()
			c.change(&h, &p)
			seat, got, err := checkOffer(h, p, pids[1], nonce, pids[0])
			if c.want == "" {
				if err != nil || seat != 1 || len(got) != 3 {
					t.Fatalf("seat %d, %v", seat, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
}

func TestDecodeGroupFrame(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" means it decodes
	}{
		{`{"t":"join","version":"salvo/1","name":"a","nonce":"00"}`, ""},
		{`{"t":"ready","match":"ab"}`, ""},
		{`{"t":"decline","reason":"no"}`, ""},
		{`{"t":"ready"}`, "without a match"},
		{`{"t":"join","name":"a"}`, "without version"},
		{`{"t":"offer","header":{"salvo":"x","game":"air","variant":"","rules":"","players":[{"peer":"p","name":"","nonce":""}],"match":""},"peers":[]}`, "addresses of every player"},
		{`{"t":"start","match":"ab","extra":1}`, "unknown field"},
		{`{"t":"shout"}`, "unknown frame kind"},
		{`{"t":"ready","match":"ab"}{}`, "data after"},
		{`[1]`, "cannot unmarshal"},
	}
	for _, c := range cases {
		_, err := decodeGroupFrame([]byte(c.in))
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := decodeGroupFrame(make([]byte, maxFrame+1)); err == nil {
		t.Error("an oversize frame decoded")
	}
}

// The handshake decoder never panics and only accepts frames that encode
// back to an equivalent frame.
func FuzzDecodeGroupFrame(f *testing.F) {
	for _, s := range []string{
		`{"t":"join","version":"salvo/1","name":"a","nonce":"00"}`,
		`{"t":"offer","header":{"salvo":"salvo-transcript/1","game":"air","variant":"ffa","rules":"air/1","players":[{"peer":"p","name":"","nonce":""}],"match":"m"},"peers":[{"peer":"p","addrs":["/ip4/127.0.0.1/tcp/1"]}]}`,
		`{"t":"accept","match":"ab"}`, `{"t":"start","match":"ab"}`, `{"t":"decline","reason":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := decodeGroupFrame(b)
		if err != nil {
			return
		}
		enc, err := json.Marshal(fr)
		if err != nil {
			t.Fatal(err)
		}
		again, err := decodeGroupFrame(enc)
		if err != nil {
			t.Fatalf("re-encoded frame does not decode: %v", err)
		}
		if again.T != fr.T || again.Match != fr.Match || len(again.Peers) != len(fr.Peers) {
			t.Fatalf("round trip changed the frame: %+v vs %+v", fr, again)
		}
	})
}

// startHosts starts n loopback hosts with routers.
func startHosts(t *testing.T, n int) ([]*p2p.Host, []*group.Router, []crypto.PrivKey) {
	t.Helper()
	tb := &Table{Hosts: make([]*p2p.Host, n), Routers: make([]*group.Router, n), Keys: make([]crypto.PrivKey, n)}
	for i := range n {
		tb.Keys[i], _, _ = crypto.GenerateEd25519Key(nil)
	}
	t.Cleanup(func() { tb.Close() })
	if err := tb.start(context.Background(), []string{"/ip4/127.0.0.1/tcp/0"}, nil, nil); err != nil {
		t.Fatal(err)
	}
	return tb.Hosts, tb.Routers, tb.Keys
}

// A joiner whose peer key would not bind its signatures (a secp256k1 key:
// anyone can turn its ECDSA signatures into twins, an equivocation pinned
// on it) cannot sit, and cannot break the table up either: the header's
// check refuses such a key (fairness.CheckPeerKey), so the host turns it
// away at its join, with the reason, and seats the next joiner.
func TestGroupHostTurnsAwayAJoinerWithAKeyOthersCanSignFor(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tb := &Table{Hosts: make([]*p2p.Host, 3), Routers: make([]*group.Router, 3), Keys: make([]crypto.PrivKey, 3)}
	for i := range 3 {
		tb.Keys[i], _, _ = crypto.GenerateEd25519Key(nil)
	}
	tb.Keys[1], _, _ = crypto.GenerateSecp256k1Key(nil)
	t.Cleanup(func() { tb.Close() })
	if err := tb.start(ctx, []string{"/ip4/127.0.0.1/tcp/0"}, nil, nil); err != nil {
		t.Fatal(err)
	}
	hosts, routers, keys := tb.Hosts, tb.Routers, tb.Keys
	hostDone := make(chan hostedGroup, 1)
	go func() {
		m, err := HostGroup(ctx, GroupHostConfig{Self: Self{Key: keys[0], Name: "host"}, Offer: Offer{Game: "air"}, Players: 2, Router: routers[0]}, hosts[0].Incoming())
		hostDone <- hostedGroup{m, err}
	}()
	id, err := hosts[1].Connect(ctx, hosts[0].Invite())
	if err != nil {
		t.Fatal(err)
	}
	bad, err := hosts[1].OpenMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	nonce, _ := fairness.NewNonce()
	if err := send(ctx, bad, frame{T: tJoin, Version: Version, Name: "secp", Nonce: nonce}); err != nil {
		t.Fatal(err)
	}
	if _, err := recvGroup(ctx, bad, tOffer); !errors.Is(err, ErrDeclined) || !strings.Contains(err.Error(), "your peer key") {
		select {
		case h := <-hostDone:
			t.Fatalf("the joiner with a secp256k1 key got %v; the host: %v", err, h.err)
		default:
			t.Fatalf("the joiner with a secp256k1 key got %v", err)
		}
	}
	bad.Close()
	seatGoodJoiner(ctx, t, hosts, routers, keys, id, hostDone)
}

// remoteAs is a stream that says it comes from id: the host sees a joiner
// of that peer key without a libp2p host of its kind.
type remoteAs struct {
	Stream
	id peer.ID
}

func (r remoteAs) Remote() peer.ID { return r.id }

// The two-player host declines a joiner whose peer key a header refuses,
// saying why, before it offers a header its own match would refuse.
func TestHostDeclinesAJoinerWithAKeyOthersCanSignFor(t *testing.T) {
	aKey, _, aEnd, bEnd := twoHosts(t)
	sk, _, err := crypto.GenerateSecp256k1Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(sk)
	if err != nil {
		t.Fatal(err)
	}
	ctx := within(t, 10*time.Second)
	hostErr := make(chan error, 1)
	go func() {
		_, err := Host(ctx, remoteAs{aEnd, id}, Self{Key: aKey, Name: "ann"}, Offer{Game: "ubuild"})
		hostErr <- err
	}()
	nonce, _ := fairness.NewNonce()
	if err := send(ctx, bEnd, frame{T: tJoin, Version: Version, Name: "secp", Nonce: nonce}); err != nil {
		t.Fatal(err)
	}
	if _, err := recv(ctx, bEnd, tOffer); !errors.Is(err, ErrDeclined) || !strings.Contains(err.Error(), "your peer key") {
		t.Fatalf("the joiner with a secp256k1 key got %v", err)
	}
	if err := <-hostErr; err == nil || !strings.Contains(err.Error(), "peer key") {
		t.Fatalf("the host: %v", err)
	}
}
