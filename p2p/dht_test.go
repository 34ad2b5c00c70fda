package p2p

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"
)

// relayHost starts a Salvo relay and DHT bootstrap peer on loopback, the
// role `salvo relay` plays on a public address.
func relayHost(t testing.TB) *Host {
	t.Helper()
	return newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTServer, RelayService: RelayOn, Reachability: network.ReachabilityPublic})
}

// fullAddr is the first address of h with /p2p/ on it.
func fullAddr(h *Host) string { return h.Addrs()[0].String() }

// Two peers that only share a rendezvous name and a bootstrap peer find
// each other through the DHT.
func TestRendezvousThroughBootstrap(t *testing.T) {
	r := relayHost(t)
	boot := []string{fullAddr(r)}
	a := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot})
	b := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot})
	ctx := ctxT(t, 30*time.Second)
	if err := a.Advertise(ctx, "friday-night-ubuild"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ai, err := b.Rendezvous(ctx, "friday-night-ubuild")
	if err != nil {
		t.Fatal(err)
	}
	if ai.ID != a.ID() {
		t.Fatalf("found %s, want %s", ai.ID, a.ID())
	}
	t.Logf("rendezvous took %v", time.Since(start))
	if b.Libp2p().Network().Connectedness(a.ID()) != network.Connected {
		t.Fatal("Rendezvous returned without a connection")
	}
	// Another name finds nobody.
	other, err := b.FindPeers(ctxT(t, 5*time.Second), "another-match")
	if err != nil || len(other) != 0 {
		t.Fatalf("FindPeers(another-match) = %v, %v", other, err)
	}
	// The rendezvous key hides the name.
	if k := RendezvousKey("friday-night-ubuild"); bytes.Contains([]byte(k), []byte("friday")) || k == RendezvousKey("friday-night-ubuild ") {
		t.Fatalf("RendezvousKey leaks or collides: %s", k)
	}
}

func TestRendezvousNeedsDHT(t *testing.T) {
	h := newHost(t, Config{})
	if err := h.Advertise(context.Background(), "x"); !errors.Is(err, ErrNoDHT) {
		t.Fatalf("Advertise without a DHT: %v", err)
	}
	if _, err := h.Rendezvous(ctxT(t, time.Second), "x"); !errors.Is(err, ErrNoDHT) {
		t.Fatalf("Rendezvous without a DHT: %v", err)
	}
}

// A stale invite (dead addresses) still connects when the DHT knows where
// the host is now.
func TestConnectInviteFallsBackToDHT(t *testing.T) {
	r := relayHost(t)
	boot := []string{fullAddr(r)}
	a := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTServer, Bootstrap: boot})
	b := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot})
	ctx := ctxT(t, 30*time.Second)
	waitFor(t, 10*time.Second, func() bool {
		return r.net.kad.RoutingTable().Find(a.ID()) != "" && b.net.kad.RoutingTable().Size() > 0
	})
	inv := Invite{Peer: a.ID(), Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/1")}}
	if _, err := b.ConnectInvite(ctx, inv); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond every 20 ms for at most d.
func waitFor(t testing.TB, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
