package p2p

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ma "github.com/multiformats/go-multiaddr"
)

// expectedRefusals counts the dials tests make outside the test network on
// purpose, to see the guard refuse them.
var expectedRefusals atomic.Int32

// TestMain fails the package when a host of any test tried to dial
// outside the test network (the guard refused it, so nothing left the
// machine, but the test was wrong to try).
func TestMain(m *testing.M) {
	code := m.Run()
	if n := GuardRefusals() - int(expectedRefusals.Load()); n != 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "FAIL: the test network guard refused %d dials: a test tried to reach the internet\n", n)
		code = 1
	}
	os.Exit(code)
}

// The public bootstrap list cannot be used from a test: New refuses it
// before any of its names is resolved.
func TestGuardRefusesThePublicBootstrapList(t *testing.T) {
	if len(PublicBootstrap()) == 0 {
		t.Fatal("no public bootstrap peers")
	}
	for _, a := range PublicBootstrap() {
		if !strings.HasPrefix(a, "/dnsaddr/") && !strings.HasPrefix(a, "/ip") {
			t.Fatalf("unexpected bootstrap address %s", a)
		}
	}
	expectedRefusals.Add(1)
	h, err := New(t.Context(), Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: PublicBootstrap()})
	if err == nil {
		h.Close()
		t.Fatal("a test host accepted the public bootstrap list")
	}
	if !errors.Is(err, ErrOutsideTestNet) {
		t.Fatalf("err = %v, want the test network guard's", err)
	}
}

// A test host refuses to dial a public address (the gater stops it before
// any packet), and counts it.
func TestGuardRefusesPublicDials(t *testing.T) {
	h := newHost(t, Config{ListenAddrs: loopTCP})
	other := newHost(t, Config{ListenAddrs: loopTCP})
	before := GuardRefusals()
	expectedRefusals.Add(1)
	_, err := h.Connect(ctxT(t, 5*time.Second), "/ip4/8.8.8.8/tcp/4001/p2p/"+other.ID().String())
	if err == nil {
		t.Fatal("dial to 8.8.8.8 went through")
	}
	if GuardRefusals() != before+1 {
		t.Fatalf("refusals %d → %d, want one more", before, GuardRefusals())
	}
	// Loopback is the test network.
	if _, err := h.Connect(ctxT(t, 10*time.Second), addrOf(t, other, "tcp")); err != nil {
		t.Fatal(err)
	}
}

func TestGuardRanges(t *testing.T) {
	g := newNetGuard("7.0.0.0/24")
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"/ip4/127.0.0.1/tcp/1", true},
		{"/ip6/::1/tcp/1", true},
		{"/ip4/10.1.0.2/tcp/1", true},
		{"/ip4/7.0.0.9/udp/1/quic-v1", true},
		{"/ip4/7.0.1.9/tcp/1", false},
		{"/ip4/8.8.8.8/tcp/1", false},
		{"/ip6/2001:4860::8888/tcp/1", false},
		{"/dnsaddr/bootstrap.libp2p.io", false},
		{"/dns4/localhost/tcp/1", false},
		{"/ip4/7.0.0.1/tcp/1/p2p/12D3KooWKN7uRfZwaXyUWASDNgsob9VS6Uye7G7gTnqUkR3rUkGY/p2p-circuit", true},
		{"/ip4/8.8.8.8/tcp/1/p2p/12D3KooWKN7uRfZwaXyUWASDNgsob9VS6Uye7G7gTnqUkR3rUkGY/p2p-circuit", false},
		{"/p2p-circuit", true},
	} {
		err := g.check(ma.StringCast(tc.addr))
		if (err == nil) != tc.ok {
			t.Errorf("%s: err = %v, want allowed %v", tc.addr, err, tc.ok)
		}
	}
}
