package session

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
)

// TestSlowLoopbackLinksEveryPairThroughAFront: with Delay set, every
// connection between two players of a loopback table was dialled to a
// slow front, so no pair of players talks around the delay; each pair is
// connected at all, so the check cannot pass on no connections.
func TestSlowLoopbackLinksEveryPairThroughAFront(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: 3, Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	checkSlowFronts(t, tb.Hosts, tb.fronts)

	pair, err := Loopback(ctx, LoopbackConfig{Offer: Offer{Game: "ubuild"}, Delay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer pair.Close()
	checkSlowFronts(t, pair.Hosts[:], pair.fronts)
}

func checkSlowFronts(t *testing.T, hosts []*p2p.Host, fronts []*slowFront) {
	t.Helper()
	ports := map[string]bool{}
	for _, f := range fronts {
		ports[strconv.Itoa(f.link.Addr().Port)] = true
	}
	for i, h := range hosts {
		for j, o := range hosts {
			if j <= i {
				continue
			}
			conns := h.Libp2p().Network().ConnsToPeer(o.ID())
			if len(conns) == 0 {
				t.Errorf("players %d and %d are not connected", i, j)
			}
			for _, c := range conns {
				remote := c.RemoteMultiaddr()
				if c.Stat().Direction != network.DirOutbound {
					remote = connBack(o, h.ID())
				}
				port, err := remote.ValueForProtocol(ma.P_TCP)
				if err != nil || !ports[port] {
					t.Errorf("players %d and %d: their connection was dialled to %v, not through a slow front", i, j, remote)
				}
			}
		}
	}
}

// connBack is the remote address of o's outbound connection to p.
func connBack(o *p2p.Host, p peer.ID) ma.Multiaddr {
	for _, c := range o.Libp2p().Network().ConnsToPeer(p) {
		if c.Stat().Direction == network.DirOutbound {
			return c.RemoteMultiaddr()
		}
	}
	return ma.StringCast("/ip4/0.0.0.0/tcp/0")
}
