package watch_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/watch"
)

// servedRecord starts a peer serving a live record (a header of a
// watchable match and nothing more yet) and returns it with a hostile
// peer connected to it.
func servedRecord(t *testing.T, ctx context.Context) (server, evil *p2p.Host, rec *watch.Record) {
	t.Helper()
	server = newHost(t)
	var players []fairness.Player
	for i := range 2 {
		k, _, _ := crypto.GenerateEd25519Key(nil)
		id, _ := peer.IDFromPrivateKey(k)
		n, _ := fairness.NewNonce()
		players = append(players, fairness.Player{Peer: id.String(), Name: fmt.Sprint("p", i), Nonce: n})
	}
	spec, _ := games.Spec("ubuild")
	hd, err := fairness.NewHeader(spec, "", players)
	if err == nil {
		hd, err = hd.Watchable()
	}
	if err != nil {
		t.Fatal(err)
	}
	rec = watch.NewRecord()
	rec.Append([]byte(`{"salvo":"header"}`)) // the server checks nothing: the spectator does
	watch.Serve(server.Libp2p(), hd, rec, time.Minute, nil)
	evil = newHost(t)
	if err := evil.Libp2p().Connect(ctx, addrInfo(server)); err != nil {
		t.Fatal(err)
	}
	return server, evil, rec
}

func openWatch(t *testing.T, ctx context.Context, from, to *p2p.Host) network.Stream {
	t.Helper()
	s, err := from.Libp2p().NewStream(ctx, to.ID(), watch.Protocol)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Reset() })
	return s
}

// A spectator flooding a player with watch requests gets its burst, then
// every further stream reset unread; a second stream while one is served
// is reset too: one spectator costs a player one stream at most.
func TestAttackWatchRequestFlood(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	server, evil, _ := servedRecord(t, ctx)
	first := openWatch(t, ctx, evil, server)
	if err := p2p.WriteFrame(first, []byte(`{"t":"watch","from":1}`)); err != nil {
		t.Fatal(err)
	}
	if b, err := p2p.ReadFrame(first, 1<<10); err != nil || !bytes.Contains(b, []byte(`"ok"`)) {
		t.Fatalf("the first request: %q %v", b, err)
	}
	for i := range watch.RequestBurst + 2 {
		s := openWatch(t, ctx, evil, server)
		_ = p2p.WriteFrame(s, []byte(`{"t":"watch","from":1}`))
		hostiletest.WaitReset(t, s)
		t.Logf("request %d refused", i+2)
	}
	srv := watch.ServerOf(server.Libp2p())
	if n := srv.Watching(); n != 1 {
		t.Fatalf("the server serves %d streams of one spectator", n)
	}
	// One at a time, as fast as it can: past the burst, refused unread.
	_ = first.Reset()
	for srv.Watching() > 0 {
		time.Sleep(10 * time.Millisecond)
	}
	refused := 0
	for range watch.RequestBurst + 1 {
		s := openWatch(t, ctx, evil, server)
		_ = p2p.WriteFrame(s, []byte(`{"t":"watch","from":1}`))
		if _, err := p2p.ReadFrame(s, 1<<10); err != nil {
			refused++
		}
		_ = s.Reset()
		for srv.Watching() > 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if refused == 0 {
		t.Fatalf("%d requests in a burst were all served (rate %d/s, burst %d)", watch.RequestBurst+1, watch.RequestRate, watch.RequestBurst)
	}
}

// A request over the first frame's bound, one that does not decode, and
// one that asks from line 0 end the stream before anything is served.
func TestAttackWatchBadRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, req := range [][]byte{
		binary.AppendUvarint(nil, 1<<40),
		append(binary.AppendUvarint(nil, 1<<20), bytes.Repeat([]byte("x"), 1<<10)...),
		[]byte(`{"t":"watch","from":0}`),
		[]byte(`{"t":"watch","from":1,"extra":1}`),
		[]byte(`{"t":"ok","match":"` + string(bytes.Repeat([]byte("a"), 64)) + `"}`),
	} {
		server, evil, _ := servedRecord(t, ctx)
		s := openWatch(t, ctx, evil, server)
		if len(req) < 64 || req[0] == '{' {
			_ = p2p.WriteFrame(s, req)
		} else {
			_, _ = s.Write(req)
		}
		hostiletest.WaitReset(t, s)
	}
}

// A spectator can never send anything into the match: the watch stream
// takes one request, and a byte after it ends the spectator's stream
// (the referee never reads this protocol at all).
func TestAttackSpectatorWritesAfterItsRequest(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	server, evil, rec := servedRecord(t, ctx)
	s := openWatch(t, ctx, evil, server)
	if err := p2p.WriteFrame(s, []byte(`{"t":"watch","from":1}`)); err != nil {
		t.Fatal(err)
	}
	for range 2 { // ok, then the header
		if _, err := p2p.ReadFrame(s, 1<<10); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Write([]byte(`{"match":"a move of the spectator's"}`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	rec.Append([]byte(`{"match":"the next line"}`))
	_ = s.SetReadDeadline(time.Now().Add(10 * time.Second))
	switch b, err := p2p.ReadFrame(s, 1<<10); {
	case err == nil:
		t.Fatalf("the server kept serving a spectator that wrote to it: %q", b)
	case isTimeout(err):
		t.Fatalf("stream still open: %v", err)
	}
	if n := watch.ServerOf(server.Libp2p()).Watching(); n != 0 {
		t.Fatalf("the server still counts %d spectators", n)
	}
}

func isTimeout(err error) bool {
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}
