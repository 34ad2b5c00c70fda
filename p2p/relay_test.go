package p2p

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// A peer holding a reservation on a Salvo relay is reachable through it
// with its invite code alone, and the relayed match stream carries far
// more than libp2p's default 128 KiB limit.
func TestSalvoRelayCarriesAWholeMatch(t *testing.T) {
	r := relayHost(t)
	a := newHost(t, Config{ListenAddrs: loopTCP, Relays: []string{fullAddr(r)}})
	b := newHost(t, Config{ListenAddrs: loopTCP})
	waitFor(t, 10*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })

	inv, err := ParseInvite(a.InviteCode())
	if err != nil {
		t.Fatal(err)
	}
	var relayed []ma.Multiaddr
	for _, x := range inv.Addrs {
		if IsRelayAddr(x) {
			relayed = append(relayed, x)
		}
	}
	if len(relayed) == 0 {
		t.Fatalf("invite %v has no relay address", inv.Addrs)
	}
	if !strings.Contains(relayed[0].String(), r.ID().String()) {
		t.Fatalf("relay address %s does not name the relay", relayed[0])
	}
	inv.Addrs = relayed // as if a's own addresses were behind a NAT
	ctx := ctxT(t, 30*time.Second)
	start := time.Now()
	if _, err := b.ConnectInvite(ctx, inv); err != nil {
		t.Fatal(err)
	}
	t.Logf("connect via the relay: %v", time.Since(start))
	if k := b.PeerKind(a.ID()); k != KindRelayed {
		t.Fatalf("PeerKind = %q, want relayed", k)
	}
	cb, ca := matchPair(t, b, a)
	if cb.Kind() != KindRelayed || ca.Kind() != KindRelayed {
		t.Fatalf("kinds %q / %q", cb.Kind(), ca.Kind())
	}
	// 1 MiB each way, 8 times libp2p's default per-connection budget.
	frame := bytes.Repeat([]byte("salvo"), 64<<10/5)
	total := 0
	for total < 1<<20 {
		if err := cb.Send(ctx, frame); err != nil {
			t.Fatalf("after %d bytes: %v", total, err)
		}
		got, err := ca.Recv(ctx)
		if err != nil || !bytes.Equal(got, frame) {
			t.Fatalf("after %d bytes: %v", total, err)
		}
		if err := ca.Send(ctx, got); err != nil {
			t.Fatal(err)
		}
		if _, err := cb.Recv(ctx); err != nil {
			t.Fatal(err)
		}
		total += len(frame)
	}
	if !r.IsRelay() {
		t.Fatal("relay host does not report relaying")
	}
}

// The relay's limits are Salvo's, sized to a match: a circuit carries the
// biggest measured match (587 KB) several times over, and the defaults
// pass their own check.
func TestRelayResources(t *testing.T) {
	rc := RelayResources()
	if rc.Limit == nil || rc.Limit.Duration < time.Hour || rc.Limit.Data < 4*587_000 {
		t.Fatalf("relay limit %+v too small for a match", rc.Limit)
	}
	if err := DefaultRelayLimits().Check(); err != nil {
		t.Fatal(err)
	}
	bad := DefaultRelayLimits()
	bad.ReservationTTL = time.Minute
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "TTL") {
		t.Fatalf("a 1-minute TTL: %v", err)
	}
}

// RelayAuto starts the relay service when AutoNAT says the host is public.
func TestRelayAutoFollowsReachability(t *testing.T) {
	pub := newHost(t, Config{ListenAddrs: loopTCP, RelayService: RelayAuto, Reachability: network.ReachabilityPublic})
	waitFor(t, 10*time.Second, pub.IsRelay)
	priv := newHost(t, Config{ListenAddrs: loopTCP, RelayService: RelayAuto, Reachability: network.ReachabilityPrivate})
	time.Sleep(200 * time.Millisecond)
	if priv.IsRelay() {
		t.Fatal("a private host relays")
	}
	if priv.Reachability() != network.ReachabilityPrivate || pub.Reachability() != network.ReachabilityPublic {
		t.Fatalf("reachability %v / %v", priv.Reachability(), pub.Reachability())
	}
	off := newHost(t, Config{ListenAddrs: loopTCP, Reachability: network.ReachabilityPublic})
	time.Sleep(200 * time.Millisecond)
	if off.IsRelay() {
		t.Fatal("RelayOff host relays")
	}
}

func TestNetConfigErrors(t *testing.T) {
	for _, cfg := range []Config{
		{Bootstrap: []string{"/ip4/1.2.3.4/tcp/1"}},
		{Relays: []string{"not an address"}},
		{ListenAddrs: loopTCP, RelayLimits: RelayLimits{Duration: time.Hour}},
	} {
		if h, err := New(t.Context(), cfg); err == nil {
			h.Close()
			t.Fatalf("New(%+v) accepted", cfg)
		}
	}
	for _, s := range []string{"off", "auto", "client", "server"} {
		m, err := ParseDHTMode(s)
		if err != nil || m.String() != s {
			t.Fatalf("ParseDHTMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseDHTMode("on"); err == nil {
		t.Fatal("ParseDHTMode(on) accepted")
	}
}

// A host behind a NAT with no relay configured finds a Salvo relay in the
// DHT and reserves a slot on it.
func TestDiscoverRelaysInTheDHT(t *testing.T) {
	r := relayHost(t)
	a := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: []string{fullAddr(r)}, DiscoverRelays: true, Reachability: network.ReachabilityPrivate})
	waitFor(t, 20*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })
	if !strings.Contains(a.RelayAddrs()[0].String(), r.ID().String()) {
		t.Fatalf("relay addresses %v do not go through %s", a.RelayAddrs(), r.ID())
	}
	if _, err := New(t.Context(), Config{DiscoverRelays: true, ListenAddrs: loopTCP}); err == nil {
		t.Fatal("DiscoverRelays without the DHT accepted")
	}
}

// A reservation lost with the link to the relay (the relay forgets it at
// once) comes back by itself once the relay is reachable again, with no
// renewal timer of ours, and the host is reachable through the relay
// again. The hand-written loop this replaced waited for its hourly
// renewal.
func TestReservationBackAfterOutage(t *testing.T) {
	r := relayHost(t)
	a := newHost(t, Config{ListenAddrs: loopTCP, Relays: []string{fullAddr(r)}})
	b := newHost(t, Config{ListenAddrs: loopTCP})
	waitFor(t, 15*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })
	circuit, err := ma.NewMultiaddr(fullAddr(r) + "/p2p-circuit")
	if err != nil {
		t.Fatal(err)
	}
	// dial reaches a through the circuit alone: b forgets a's direct
	// addresses (identify told it) and its connections to a first.
	dial := func(ctx context.Context) error {
		_ = b.h.Network().ClosePeer(a.ID())
		b.h.Peerstore().ClearAddrs(a.ID())
		b.clearDialBackoff(a.ID())
		ai := peer.AddrInfo{ID: a.ID(), Addrs: []ma.Multiaddr{circuit}}
		return b.h.Connect(network.WithAllowLimitedConn(ctx, "test"), ai)
	}
	if err := dial(ctxT(t, 10*time.Second)); err != nil {
		t.Fatalf("before the outage: %v", err)
	}

	// The outage: the relay loses every connection to a.
	cut := time.Now()
	if err := r.h.Network().ClosePeer(a.ID()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 5*time.Second, func() bool { return len(a.RelayAddrs()) == 0 })
	ctx := ctxT(t, 30*time.Second)
	if err := dial(ctx); err == nil {
		t.Fatal("reached through the relay right after it dropped the reservation")
	}
	for {
		err := dial(ctx)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("not reachable through the relay 30 s after the outage: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("reservation back and reachable through the relay %v after the outage", time.Since(cut).Round(time.Millisecond))
	if len(a.RelayAddrs()) == 0 {
		t.Fatal("reachable, but RelayAddrs is empty")
	}
}

// A relay handed in by other code (the DHT, say) with AddRelayCandidates
// gets this host a reservation; this host and known relays are skipped.
// AutoNAT has no verdict on loopback, so this also shows autorelay working
// while reachability is unknown (announceUnknown).
func TestAddRelayCandidates(t *testing.T) {
	r := relayHost(t)
	a := newHost(t, Config{ListenAddrs: loopTCP})
	ri, err := ParseAddrs(fullAddr(r))
	if err != nil {
		t.Fatal(err)
	}
	self := peer.AddrInfo{ID: a.ID()}
	if n := a.AddRelayCandidates(ri, ri, self); n != 1 {
		t.Fatalf("AddRelayCandidates took %d, want 1", n)
	}
	waitFor(t, 15*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })
	if !strings.Contains(a.RelayAddrs()[0].String(), r.ID().String()) {
		t.Fatalf("relay addresses %v do not go through %s", a.RelayAddrs(), r.ID())
	}
	if a.Reachability() != network.ReachabilityUnknown {
		t.Fatalf("reachability %v, want unknown", a.Reachability())
	}
}
