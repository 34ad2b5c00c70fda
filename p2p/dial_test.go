package p2p

import (
	"crypto/rand"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func testPeerID(t *testing.T) peer.ID {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestParseAddrs(t *testing.T) {
	id, other := testPeerID(t), testPeerID(t)
	tcp := "/ip4/192.168.1.7/tcp/4001/p2p/" + id.String()
	quic := "/ip4/127.0.0.1/udp/4001/quic-v1/p2p/" + id.String()
	tests := []struct {
		name      string
		in        string
		want      error
		wantAddrs int
	}{
		{name: "one address", in: tcp, wantAddrs: 1},
		{name: "two addresses", in: tcp + "," + quic, wantAddrs: 2},
		{name: "spaces and empty items", in: " " + tcp + " , ," + quic + " ", wantAddrs: 2},
		{name: "bare peer ID", in: "/p2p/" + id.String(), wantAddrs: 0},
		{name: "empty", in: "", want: ErrBadAddr},
		{name: "only commas", in: " , ", want: ErrBadAddr},
		{name: "not a multiaddr", in: "192.168.1.7:4001", want: ErrBadAddr},
		{name: "unknown protocol", in: "/ipx/1.2.3.4/tcp/1/p2p/" + id.String(), want: ErrBadAddr},
		{name: "bad port", in: "/ip4/1.2.3.4/tcp/99999/p2p/" + id.String(), want: ErrBadAddr},
		{name: "bad peer ID", in: "/ip4/1.2.3.4/tcp/1/p2p/QmNotAPeer", want: ErrBadAddr},
		{name: "missing /p2p part", in: "/ip4/1.2.3.4/tcp/4001", want: ErrNoPeerID},
		{name: "one of two missing /p2p", in: tcp + ",/ip4/1.2.3.4/tcp/4001", want: ErrNoPeerID},
		{name: "two peers", in: tcp + ",/ip4/1.2.3.4/tcp/1/p2p/" + other.String(), want: ErrMixedPeers},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ai, err := ParseAddrs(tc.in)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ai.ID != id || len(ai.Addrs) != tc.wantAddrs {
				t.Fatalf("got %s with %d addrs, want %s with %d", ai.ID, len(ai.Addrs), id, tc.wantAddrs)
			}
			for _, a := range ai.Addrs {
				if strings.Contains(a.String(), "/p2p/") {
					t.Fatalf("transport address %s still has /p2p/", a)
				}
			}
		})
	}
}

func TestConnectErrors(t *testing.T) {
	a := newHost(t, Config{})
	ctx := ctxT(t, 10*time.Second)
	t.Run("malformed", func(t *testing.T) {
		if _, err := a.Connect(ctx, "nonsense"); !errors.Is(err, ErrBadAddr) {
			t.Fatalf("err = %v, want ErrBadAddr", err)
		}
	})
	t.Run("missing peer ID", func(t *testing.T) {
		if _, err := a.Connect(ctx, "/ip4/127.0.0.1/tcp/1"); !errors.Is(err, ErrNoPeerID) {
			t.Fatalf("err = %v, want ErrNoPeerID", err)
		}
	})
	t.Run("self", func(t *testing.T) {
		if _, err := a.Connect(ctx, a.Invite()); err == nil || !strings.Contains(err.Error(), "this host") {
			t.Fatalf("err = %v, want a self-dial error", err)
		}
	})
	t.Run("nobody listening", func(t *testing.T) {
		c, cancel := ctxWithin(3 * time.Second)
		defer cancel()
		addr := "/ip4/127.0.0.1/tcp/9/p2p/" + testPeerID(t).String()
		if _, err := a.Connect(c, addr); err == nil {
			t.Fatal("connected to a port nobody listens on")
		}
	})
	t.Run("wrong peer ID at a live address", func(t *testing.T) {
		b := newHost(t, Config{})
		addr := strings.Replace(addrOf(t, b, "tcp"), b.ID().String(), testPeerID(t).String(), 1)
		c, cancel := ctxWithin(5 * time.Second)
		defer cancel()
		if _, err := a.Connect(c, addr); err == nil {
			t.Fatal("connected although the peer ID does not match the host there")
		}
	})
}

func TestConnectInviteWithDeadAddress(t *testing.T) {
	a, b := newHost(t, Config{}), newHost(t, Config{})
	// An unreachable address first, then the real ones.
	invite := "/ip4/127.0.0.1/tcp/9/p2p/" + b.ID().String() + "," + b.Invite()
	id, err := a.Connect(ctxT(t, 10*time.Second), invite)
	if err != nil {
		t.Fatal(err)
	}
	if id != b.ID() {
		t.Fatalf("connected to %s, want %s", id, b.ID())
	}
}
