package p2p

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"
)

// Liveness says nothing and never dials while there is no connection (a
// link that is down is the caller's to bring back), and reports a live
// link as live. Dead links: p2p/session's and p2p/group's tests, through a
// proxy that swallows everything.
func TestLivenessProbesWithoutDialing(t *testing.T) {
	for _, transport := range []string{"tcp", "quic-v1"} {
		t.Run(transport, func(t *testing.T) {
			a, b := newHost(t, Config{}), newHost(t, Config{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			reports := make(chan error, 64)
			live := Liveness{Every: 20 * time.Millisecond, Timeout: time.Second}
			live.Watch(ctx, a.Libp2p(), b.ID(), func(err error) { reports <- err })
			// Not connected: nothing probed, nothing dialed.
			time.Sleep(10 * live.Every)
			if n := len(reports); n != 0 {
				t.Fatalf("%d reports while not connected", n)
			}
			if c := a.Libp2p().Network().Connectedness(b.ID()); c == network.Connected {
				t.Fatal("the watch dialed the peer")
			}
			if _, err := a.Connect(ctxT(t, 10*time.Second), addrOf(t, b, transport)); err != nil {
				t.Fatal(err)
			}
			for range 3 {
				select {
				case err := <-reports:
					if err != nil {
						t.Fatalf("a live link reported dead: %v", err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("no report on a live link")
				}
			}
		})
	}
}

// A peer reached only through a relay (a limited connection: libp2p says
// Limited, not Connected) is probed too: a cut of a relayed match showed
// no outage at all until yamux gave up 40 s later, and meanwhile the
// per-step timeout, not paused, forfeited the match.
func TestLivenessProbesRelayedLinks(t *testing.T) {
	r := relayHost(t)
	a := newHost(t, Config{ListenAddrs: loopTCP, Relays: []string{fullAddr(r)}, NoHolePunching: true})
	b := newHost(t, Config{ListenAddrs: loopTCP, NoHolePunching: true})
	waitFor(t, 10*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })
	inv, err := ParseInvite(a.InviteCode())
	if err != nil {
		t.Fatal(err)
	}
	inv.Addrs = slices.DeleteFunc(inv.Addrs, func(x ma.Multiaddr) bool { return !IsRelayAddr(x) })
	if _, err := b.ConnectInvite(ctxT(t, 30*time.Second), inv); err != nil {
		t.Fatal(err)
	}
	if c := b.Libp2p().Network().Connectedness(a.ID()); c != network.Limited {
		t.Skipf("connectedness %v, not a relayed link alone (libp2p moved it)", c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reports := make(chan error, 64)
	Liveness{Every: 20 * time.Millisecond, Timeout: time.Second}.Watch(ctx, b.Libp2p(), a.ID(), func(err error) { reports <- err })
	select {
	case err := <-reports:
		if err != nil {
			t.Fatalf("a live relayed link reported dead: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a relayed link is never probed")
	}
}
