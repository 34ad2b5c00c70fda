package p2p

import (
	"context"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
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
