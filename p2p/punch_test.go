package p2p

import (
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	ma "github.com/multiformats/go-multiaddr"
)

// The addresses the other peer sent for a hole punch survive identify's
// clean-up of temporary addresses, which runs whenever an identify
// message of that peer is read: DCUtR's dial (Host.Connect, which stores
// them with TempAddrTTL) found "no addresses" when an identify push
// landed between the two (TestNetNATs under load).
func TestPunchAddrsSurviveIdentifyCleanup(t *testing.T) {
	h := newHost(t, Config{})
	other := newHost(t, Config{})
	remote := other.ID()
	sent := []string{"/ip4/7.0.0.3/tcp/40123", "/ip4/7.0.0.3/udp/40123/quic-v1"}
	h.net.Trace(&holepunch.Event{Remote: remote, Timestamp: time.Now().UnixNano(), Evt: &holepunch.StartHolePunchEvt{RemoteAddrs: sent, RTT: time.Millisecond}})

	ps := h.Libp2p().Peerstore()
	var addrs []ma.Multiaddr
	for _, s := range sent {
		addrs = append(addrs, ma.StringCast(s))
	}
	ps.AddAddrs(remote, addrs, peerstore.TempAddrTTL) // what Host.Connect does with them
	ps.UpdateAddrs(remote, peerstore.TempAddrTTL, 0)  // identify, reading a push meanwhile
	got := ps.Addrs(remote)
	for _, a := range addrs {
		if !ma.Contains(got, a) {
			t.Fatalf("the punch address %s is gone from the peerstore after identify's clean-up: %v", a, got)
		}
	}
}
