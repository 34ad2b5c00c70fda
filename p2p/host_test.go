package p2p

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/gologshim"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

func TestAddrsLoopbackLast(t *testing.T) {
	h := newHost(t, Config{ListenAddrs: []string{"/ip4/0.0.0.0/tcp/0", "/ip4/0.0.0.0/udp/0/quic-v1"}})
	addrs := h.Addrs()
	if len(addrs) == 0 {
		t.Fatal("no addresses")
	}
	seenLoop := false
	for _, a := range addrs {
		if !hasP2P(a, h.ID()) {
			t.Fatalf("%s does not end in /p2p/%s", a, h.ID())
		}
		if manet.IsIPLoopback(a) {
			seenLoop = true
		} else if seenLoop {
			t.Fatalf("non-loopback %s after a loopback address in %v", a, addrs)
		}
		if manet.IsIPUnspecified(a) {
			t.Fatalf("unspecified address %s offered", a)
		}
	}
	if !seenLoop {
		t.Fatalf("no loopback address among %v", addrs)
	}
	// The invite is those addresses, and it dials.
	if got := strings.Count(h.Invite(), ",") + 1; got != len(addrs) {
		t.Fatalf("invite has %d items, want %d", got, len(addrs))
	}
	other := newHost(t, Config{})
	if _, err := other.Connect(ctxT(t, 10*time.Second), h.Invite()); err != nil {
		t.Fatalf("Connect(invite): %v", err)
	}
}

func TestAddrRank(t *testing.T) {
	tests := []struct {
		addr string
		want int
	}{
		{"/ip4/8.8.8.8/udp/1/quic-v1", 0},
		{"/ip6/2001:4860::8888/tcp/1", 0},
		{"/ip4/8.8.8.8/tcp/1/p2p/12D3KooWKN7uRfZwaXyUWASDNgsob9VS6Uye7G7gTnqUkR3rUkGY/p2p-circuit", 1},
		{"/dns4/example.com/tcp/1", 1},
		{"/ip4/192.168.1.2/tcp/1", 2},
		{"/ip4/10.0.0.1/tcp/1", 2},
		{"/ip6/fe80::1/tcp/1", 2},
		{"/ip6/fd00::2/tcp/1", 2},
		{"/ip4/127.0.0.1/tcp/1", 3},
		{"/ip6/::1/udp/1/quic-v1", 3},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			if got := addrRank(ma.StringCast(tc.addr)); got != tc.want {
				t.Fatalf("addrRank = %d, want %d", got, tc.want)
			}
		})
	}
}

// fakeConn is just enough of a network.Conn for connKind.
type fakeConn struct {
	network.Conn
	remote  ma.Multiaddr
	limited bool
}

func (f fakeConn) RemoteMultiaddr() ma.Multiaddr { return f.remote }
func (f fakeConn) Stat() network.ConnStats {
	return network.ConnStats{Stats: network.Stats{Limited: f.limited}}
}

func TestConnKind(t *testing.T) {
	tests := []struct {
		addr    string
		limited bool
		want    string
	}{
		{"/ip4/127.0.0.1/tcp/1", false, KindLAN},
		{"/ip4/192.168.0.9/udp/1/quic-v1", false, KindLAN},
		{"/ip4/172.16.5.5/tcp/1", false, KindLAN},
		{"/ip4/169.254.1.1/tcp/1", false, KindLAN},
		{"/ip6/fe80::1/tcp/1", false, KindLAN},
		{"/ip6/fd12::1/tcp/1", false, KindLAN},
		{"/ip6/::ffff:10.1.2.3/tcp/1", false, KindLAN},
		{"/ip4/100.64.1.1/tcp/1", false, KindDirect}, // carrier-grade NAT is not a LAN
		{"/ip4/8.8.8.8/tcp/1", false, KindDirect},
		{"/ip6/2001:4860::8888/udp/1/quic-v1", false, KindDirect},
		{"/ip4/8.8.8.8/tcp/1", true, KindRelayed},
		{"/ip4/127.0.0.1/tcp/1", true, KindRelayed},
		{"/ip4/8.8.8.8/tcp/1/p2p/12D3KooWKN7uRfZwaXyUWASDNgsob9VS6Uye7G7gTnqUkR3rUkGY/p2p-circuit", false, KindRelayed},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			if got := (*Host)(nil).connKind(fakeConn{remote: ma.StringCast(tc.addr), limited: tc.limited}); got != tc.want {
				t.Fatalf("connKind = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestMatchOverRelay plays frames through a circuit relay on loopback.
// With the relay's default limits the connection is limited and the
// streams must be allowed on it; with no limits it is an ordinary
// connection whose address holds /p2p-circuit. Both ends report
// KindRelayed either way.
func TestMatchOverRelay(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []relay.Option
		limited bool
	}{
		{"default limits", nil, true},
		{"no limits", []relay.Option{relay.WithInfiniteLimits()}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rh, err := libp2p.New(libp2p.ListenAddrStrings("/ip4/127.0.0.1/tcp/0"), libp2p.ForceReachabilityPublic())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = rh.Close() })
			rs, err := relay.New(rh, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = rs.Close() })
			relayInfo := peer.AddrInfo{ID: rh.ID(), Addrs: rh.Addrs()}

			a, b := newHost(t, Config{ListenAddrs: loopTCP}), newHost(t, Config{ListenAddrs: loopTCP})
			ctx := ctxT(t, 20*time.Second)
			if err := b.Libp2p().Connect(ctx, relayInfo); err != nil {
				t.Fatal(err)
			}
			if _, err := client.Reserve(ctx, b.Libp2p(), relayInfo); err != nil {
				t.Fatalf("reserve: %v", err)
			}
			circuit := relayInfo.Addrs[0].String() + "/p2p/" + rh.ID().String() + "/p2p-circuit/p2p/" + b.ID().String()
			if _, err := a.Connect(ctx, circuit); err != nil {
				t.Fatalf("Connect via relay: %v", err)
			}
			conns := a.Libp2p().Network().ConnsToPeer(b.ID())
			if len(conns) != 1 || conns[0].Stat().Limited != tc.limited {
				t.Fatalf("want one connection to b with Limited=%v, got %d", tc.limited, len(conns))
			}
			ca, cb := matchPair(t, a, b)
			if ca.Kind() != KindRelayed || cb.Kind() != KindRelayed {
				t.Fatalf("Kind: %q / %q, want %q", ca.Kind(), cb.Kind(), KindRelayed)
			}
			for i := range 3 {
				msg := []byte{byte(i), 'r'}
				if err := cb.Send(ctx, msg); err != nil {
					t.Fatal(err)
				}
				if got, err := ca.Recv(ctx); err != nil || !bytes.Equal(got, msg) {
					t.Fatalf("frame %d: %q, %v", i, got, err)
				}
			}
			if got, err := a.QueryInfo(ctx, b.ID()); err != nil || got != (Info{}) {
				t.Fatalf("QueryInfo over the relay: %+v, %v", got, err)
			}
			if rtt := ca.RTT(); rtt <= 0 {
				t.Fatalf("RTT over the relay = %v", rtt)
			}
		})
	}
}

// syncBuffer is a goroutine-safe bytes.Buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestLibp2pLogsRouted(t *testing.T) {
	var buf syncBuffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	// A logger made the way every go-libp2p subsystem makes its own.
	lib := gologshim.Logger("salvo-test-subsystem")
	lib.Error("before any host")
	h, err := New(context.Background(), Config{Logger: logger, ListenAddrs: loopTCP})
	if err != nil {
		t.Fatal(err)
	}
	lib.Error("routed", "k", 1)
	lib.With("a", "x").WithGroup("g").Error("grouped", "n", 2)
	lib.Debug("debug record")
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	lib.Error("after close")
	out := buf.String()
	for _, want := range []string{"msg=routed", "logger=salvo-test-subsystem", "k=1", "msg=grouped", "a=x", "g.n=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("log output lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"before any host", "after close"} {
		if strings.Contains(out, not) {
			t.Errorf("record %q reached a host's logger it was not meant for:\n%s", not, out)
		}
	}
	if os.Getenv("GOLOG_LOG_LEVEL") == "" && strings.Contains(out, "debug record") {
		t.Errorf("debug record passed although GOLOG_LOG_LEVEL defaults to errors:\n%s", out)
	}
}

func TestNewConfigErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := New(ctx, Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcpx/0"}}); err == nil {
		t.Fatal("bad listen address accepted")
	}
	if _, err := New(ctx, Config{ListenAddrs: loopTCP, IdleTimeout: -time.Second}); err == nil {
		t.Fatal("negative idle timeout accepted")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := New(cctx, Config{ListenAddrs: loopTCP}); err == nil {
		t.Fatal("cancelled context accepted")
	}
	h := newHost(t, Config{Name: "Ada"})
	if h.Name() != "Ada" || h.Libp2p().ID() != h.ID() {
		t.Fatalf("Name %q, ID %s / %s", h.Name(), h.ID(), h.Libp2p().ID())
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}
