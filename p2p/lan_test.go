package p2p

import (
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// nextLAN waits for the next LANPeers event about want, failing on any
// event about self and skipping events about other peers (other Salvo
// hosts may share the LAN).
func nextLAN(t *testing.T, h *Host, want peer.ID, d time.Duration) PeerInfo {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case p, ok := <-h.LANPeers():
			if !ok {
				t.Fatal("LANPeers closed")
			}
			if p.ID == h.ID() {
				t.Fatal("self reported on LANPeers")
			}
			if p.ID == want {
				return p
			}
		case <-timeout:
			t.Fatalf("no LANPeers event about %s within %v", ShortID(want), d)
		}
	}
}

func TestMDNSDiscovery(t *testing.T) {
	defer func(d time.Duration) { lanRefresh = d }(lanRefresh)
	lanRefresh = 300 * time.Millisecond
	a := newHost(t, Config{Name: "Ada", EnableMDNS: true})
	if err := a.DiscoveryErr(); err != nil {
		if errors.Is(err, ErrNoMulticast) {
			t.Skip("skipping mDNS test: this machine has no multicast-capable network interface")
		}
		t.Fatalf("mDNS did not start: %v", err)
	}
	b := newHost(t, Config{Name: "Bo", EnableMDNS: true})
	if err := b.SetOffer("sea"); err != nil {
		t.Fatal(err)
	}
	if err := b.DiscoveryErr(); err != nil {
		t.Fatalf("mDNS did not start on the second host: %v", err)
	}
	start := time.Now()
	pa := nextLAN(t, a, b.ID(), 15*time.Second)
	pb := nextLAN(t, b, a.ID(), 15*time.Second)
	t.Logf("discovered both ways in %v", time.Since(start))
	if pa.Name != "Bo" || pa.Offer != "sea" || pa.Gone || len(pa.Addrs) == 0 {
		t.Fatalf("a sees %+v", pa)
	}
	if pb.Name != "Ada" || pb.Offer != "" || pb.Gone || len(pb.Addrs) == 0 {
		t.Fatalf("b sees %+v", pb)
	}
	if n := len(a.Libp2p().Network().ConnsToPeer(b.ID())); n != 1 {
		t.Errorf("%d connections between the two hosts, want 1 (only the smaller ID dials)", n)
	}
	list := a.LANPeerList()
	if len(list) == 0 || !containsPeer(list, b.ID()) {
		t.Fatalf("LANPeerList = %v, want it to hold b", list)
	}

	// An offer change is reported by the next refresh, once.
	if err := b.SetOffer("air"); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if p := nextLAN(t, a, b.ID(), 10*time.Second); p.Offer != "air" || p.Gone {
		t.Fatalf("after SetOffer(air), a sees %+v", p)
	}
	t.Logf("offer change seen after %v", time.Since(start))
	// No duplicates while nothing changes (several refreshes).
	quiet := time.After(4 * lanRefresh)
	for done := false; !done; {
		select {
		case p := <-a.LANPeers():
			if p.ID == b.ID() {
				t.Fatalf("duplicate event %+v", p)
			}
		case <-quiet:
			done = true
		}
	}

	// A peer that leaves is reported gone.
	bID := b.ID()
	start = time.Now()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("b closed in %v", time.Since(start))
	if p := nextLAN(t, a, bID, 15*time.Second); !p.Gone || p.Name != "Bo" {
		t.Fatalf("after b closed, a sees %+v, want Gone", p)
	}
	t.Logf("b reported gone %v after it closed", time.Since(start))
	if containsPeer(a.LANPeerList(), bID) {
		t.Fatal("a gone peer is still listed")
	}
}

func containsPeer(list []PeerInfo, id peer.ID) bool {
	for _, p := range list {
		if p.ID == id {
			return true
		}
	}
	return false
}

func TestDiscoveryOff(t *testing.T) {
	a := newHost(t, Config{})
	if !errors.Is(a.DiscoveryErr(), ErrDiscoveryOff) {
		t.Fatalf("DiscoveryErr = %v, want ErrDiscoveryOff", a.DiscoveryErr())
	}
	if n := len(a.LANPeerList()); n != 0 {
		t.Fatalf("%d LAN peers without discovery", n)
	}
}
