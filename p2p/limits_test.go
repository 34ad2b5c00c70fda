package p2p

import (
	"fmt"
	"testing"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/test"
)

// The resource manager refuses, before any handler runs, an inbound
// stream of one of Salvo's protocols past that protocol's limit per peer,
// and past its limit in all across many peers (libp2p's defaults allow
// far more: without protocolLimits this test fails).
func TestResourceManagerBoundsSalvoProtocols(t *testing.T) {
	for _, l := range protocolLimits {
		t.Run(string(l.id), func(t *testing.T) {
			rm, err := newResourceManager()
			if err != nil {
				t.Fatal(err)
			}
			defer rm.Close()
			open := func(p peer.ID) error {
				s, err := rm.OpenStream(p, network.DirInbound)
				if err != nil {
					return fmt.Errorf("open: %w", err)
				}
				if err := s.SetProtocol(l.id); err != nil {
					s.Done()
					return err
				}
				return nil // held open: the stream's scope stays charged
			}
			// One peer: exactly its per-peer share.
			one := test.RandPeerIDFatal(t)
			for i := range l.perPeer.StreamsInbound {
				if err := open(one); err != nil {
					t.Fatalf("stream %d of one peer refused under its limit %d: %v", i+1, l.perPeer.StreamsInbound, err)
				}
			}
			if err := open(one); err == nil {
				t.Fatalf("one peer got stream %d, over its limit %d", l.perPeer.StreamsInbound+1, l.perPeer.StreamsInbound)
			}
			// Many peers: the protocol's limit in all, then a new peer is
			// refused at once.
			total := l.perPeer.StreamsInbound
			for total <= l.all.StreamsInbound {
				p, n := test.RandPeerIDFatal(t), 0
				for n <= l.perPeer.StreamsInbound && open(p) == nil {
					n++
				}
				if n > l.perPeer.StreamsInbound {
					t.Fatalf("a peer got %d streams, over its limit %d", n, l.perPeer.StreamsInbound)
				}
				if n == 0 {
					break
				}
				total += n
			}
			if total != l.all.StreamsInbound {
				t.Fatalf("%d inbound streams admitted in all, want the limit %d", total, l.all.StreamsInbound)
			}
		})
	}
}
