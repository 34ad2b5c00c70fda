package p2p

import (
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// flakyForwarder is a user-space TCP forwarder on loopback to target that
// spoils its first connections as a lossy or overloaded link does to a
// handshake: the first `reset` ones are closed at once, the next `stall`
// ones are held open with nothing forwarded; later ones are forwarded.
type flakyForwarder struct {
	ln           net.Listener
	reset, stall int
	seen         atomic.Int32
	mu           sync.Mutex
	held         []net.Conn
}

func newFlakyForwarder(t *testing.T, target string, reset, stall int) *flakyForwarder {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &flakyForwarder{ln: ln, reset: reset, stall: stall}
	t.Cleanup(func() {
		ln.Close()
		f.mu.Lock()
		for _, c := range f.held {
			c.Close()
		}
		f.mu.Unlock()
	})
	go f.serve(target)
	return f
}

func (f *flakyForwarder) serve(target string) {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		n := int(f.seen.Add(1))
		switch {
		case n <= f.reset:
			c.Close()
		case n <= f.reset+f.stall:
			f.mu.Lock()
			f.held = append(f.held, c)
			f.mu.Unlock()
		default:
			go forward(c, target)
		}
	}
}

func forward(c net.Conn, target string) {
	defer c.Close()
	u, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer u.Close()
	go func() { _, _ = io.Copy(u, c); u.Close() }()
	_, _ = io.Copy(c, u)
}

// tcpTarget is h's loopback TCP address as host:port.
func tcpTarget(t *testing.T, h *Host) string {
	t.Helper()
	for _, a := range h.h.Addrs() {
		if port, err := a.ValueForProtocol(ma.P_TCP); err == nil {
			return "127.0.0.1:" + port
		}
	}
	t.Fatal("no TCP address")
	return ""
}

// A joiner whose first handshakes die (reset, or stalled past one
// attempt's time) keeps dialing with backoff and connects within the
// join's own deadline.
func TestConnectInviteRetriesFailedHandshakes(t *testing.T) {
	old := dialAttempt
	dialAttempt = 2 * time.Second
	t.Cleanup(func() { dialAttempt = old })
	b := newHost(t, Config{ListenAddrs: loopTCP})
	a := newHost(t, Config{ListenAddrs: loopTCP})
	fw := newFlakyForwarder(t, tcpTarget(t, b), 2, 1)
	port := strings.TrimPrefix(fw.ln.Addr().String(), "127.0.0.1:")
	inv := Invite{Peer: b.ID(), Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/" + port)}}
	start := time.Now()
	if _, err := a.ConnectInvite(ctxT(t, 30*time.Second), inv); err != nil {
		t.Fatalf("after %d connections: %v", fw.seen.Load(), err)
	}
	t.Logf("connected after %d tries in %v", fw.seen.Load(), time.Since(start).Round(time.Millisecond))
	if n := fw.seen.Load(); n < 4 {
		t.Fatalf("%d connections through the forwarder, want at least 4 (2 reset, 1 stalled, 1 good)", n)
	}
}

// A joiner that has nothing but the invite code takes the code's relay as
// its own: it connects to it (a bootstrap peer that tells it its public
// address), keeps a reservation on it, and reports it for a resume; the
// host can then reach the joiner back through that relay alone.
func TestConnectInviteUsesTheCodesRelays(t *testing.T) {
	r := relayHost(t)
	a := newHost(t, Config{ListenAddrs: loopTCP, Relays: []string{fullAddr(r)}})
	b := newHost(t, Config{ListenAddrs: loopTCP})
	waitFor(t, 10*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })
	inv, err := ParseInvite(a.InviteCode())
	if err != nil {
		t.Fatal(err)
	}
	inv.Addrs = slices.DeleteFunc(inv.Addrs, func(x ma.Multiaddr) bool { return !IsRelayAddr(x) })
	if _, err := b.ConnectInvite(ctxT(t, 30*time.Second), inv); err != nil {
		t.Fatal(err)
	}
	relays, boot := b.NetPeers()
	if len(relays) == 0 || len(boot) == 0 || !strings.Contains(relays[0], r.ID().String()) || !strings.Contains(boot[0], r.ID().String()) {
		t.Fatalf("joiner's relays %v, bootstrap %v: want the code's relay %s in both", relays, boot, ShortID(r.ID()))
	}
	waitFor(t, 10*time.Second, func() bool { return len(b.RelayAddrs()) > 0 })

	// The host, its direct paths to the joiner forgotten, reaches it
	// through the relay circuit.
	for _, c := range a.h.Network().ConnsToPeer(b.ID()) {
		_ = c.Close()
	}
	a.h.Peerstore().ClearAddrs(b.ID())
	circuits := a.CircuitAddrs()
	if len(circuits) == 0 {
		t.Fatal("host has no circuit address through its relay")
	}
	if err := a.h.Connect(ctxT(t, 10*time.Second), peer.AddrInfo{ID: b.ID(), Addrs: circuits}); err != nil {
		t.Fatalf("host cannot reach the joiner through the relay: %v", err)
	}
	// Connect had nothing but the circuit to dial, so its success is the
	// proof. On loopback, identify over the circuit then tells the host
	// the joiner's own addresses and libp2p may move to a direct link at
	// once (a CI run under -race saw "LAN direct" here).
	t.Logf("the host reached the joiner through the relay; the link now: %s", a.PeerKind(b.ID()))
}

// An invite whose only address went stale still connects while retrying:
// a failed attempt looks the host up in the DHT, and the retries dial the
// addresses found there.
func TestConnectInviteRetriesThroughTheDHT(t *testing.T) {
	r := relayHost(t)
	boot := []string{fullAddr(r)}
	a := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTServer, Bootstrap: boot})
	b := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot})
	waitFor(t, 10*time.Second, func() bool {
		return r.net.kad.RoutingTable().Find(a.ID()) != "" && b.net.kad.RoutingTable().Size() > 0
	})
	_ = b.h.Network().ClosePeer(a.ID())
	b.h.Peerstore().ClearAddrs(a.ID()) // b knows nothing of a but the stale code
	inv := Invite{Peer: a.ID(), Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/1")}}
	if _, err := b.ConnectInvite(ctxT(t, 30*time.Second), inv); err != nil {
		t.Fatal(err)
	}
}
