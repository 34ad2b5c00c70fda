package p2p

import (
	"context"
	"flag"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// Loopback listen addresses for tests.
var (
	loopTCP  = []string{"/ip4/127.0.0.1/tcp/0"}
	loopQUIC = []string{"/ip4/127.0.0.1/udp/0/quic-v1"}
	loopBoth = []string{"/ip4/127.0.0.1/tcp/0", "/ip4/127.0.0.1/udp/0/quic-v1"}
)

var debugLog = flag.Bool("p2pdebug", false, "log this package's debug records in tests")

// testLogger logs warnings and errors (everything with -p2pdebug) into the
// test output.
func testLogger(t testing.TB) *slog.Logger {
	lvl := slog.LevelWarn
	if *debugLog {
		lvl = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: lvl}))
}

// newHost starts a host on loopback (loopBoth unless cfg says otherwise)
// and closes it at the end of the test.
func newHost(t testing.TB, cfg Config) *Host {
	t.Helper()
	if len(cfg.ListenAddrs) == 0 {
		cfg.ListenAddrs = loopBoth
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	h, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return h
}

// addrOf returns h's address for one transport ("tcp" or "quic-v1").
func addrOf(t testing.TB, h *Host, transport string) string {
	t.Helper()
	for _, a := range h.Addrs() {
		if strings.Contains(a.String(), "/"+transport+"/") {
			return a.String()
		}
	}
	t.Fatalf("host has no %s address among %v", transport, h.Addrs())
	return ""
}

// ctxT is a context that ends with the test or after d.
func ctxT(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// pair starts two connected hosts (a dialed b over transport) and returns
// them.
func pair(t testing.TB, transport string, ca, cb Config) (*Host, *Host) {
	t.Helper()
	a, b := newHost(t, ca), newHost(t, cb)
	id, err := a.Connect(ctxT(t, 10*time.Second), addrOf(t, b, transport))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if id != b.ID() {
		t.Fatalf("Connect returned %s, want %s", id, b.ID())
	}
	return a, b
}

// accept waits for the next incoming Conn on h.
func accept(t testing.TB, h *Host) *Conn {
	t.Helper()
	select {
	case c, ok := <-h.Incoming():
		if !ok {
			t.Fatal("Incoming closed")
		}
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no incoming match stream within 10s")
	}
	return nil
}

// matchPair opens a match stream a→b and returns both ends.
func matchPair(t testing.TB, a, b *Host) (*Conn, *Conn) {
	t.Helper()
	ca, err := a.OpenMatch(ctxT(t, 10*time.Second), b.ID())
	if err != nil {
		t.Fatalf("OpenMatch: %v", err)
	}
	// The stream reaches b with the first frame at the latest; nudge it.
	if err := ca.Send(context.Background(), []byte("hello")); err != nil {
		t.Fatalf("Send hello: %v", err)
	}
	cb := accept(t, b)
	got, err := cb.Recv(ctxT(t, 5*time.Second))
	if err != nil || string(got) != "hello" {
		t.Fatalf("Recv hello: %q, %v", got, err)
	}
	return ca, cb
}

// isProtected asks h's connection manager about p.
func isProtected(h *Host, p peer.ID) bool {
	return h.Libp2p().ConnManager().IsProtected(p, protectTag)
}

// hasP2P reports whether a ends in /p2p/<id>.
func hasP2P(a ma.Multiaddr, id peer.ID) bool {
	v, err := a.ValueForProtocol(ma.P_P2P)
	return err == nil && v == id.String()
}

// ctxWithin is a context ending after d.
func ctxWithin(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}
