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

// A direct connection that opens while a hole punch to its peer is
// dialing is the punch's, before the punch's end is traced: a relayed
// match moving to it at once recorded it as "direct" under load. One
// opened before the punch began is not.
func TestConnOpenedDuringPunchIsHolePunched(t *testing.T) {
	h, other := newHost(t, Config{}), newHost(t, Config{})
	ctx := ctxT(t, 10*time.Second)
	if _, err := h.Connect(ctx, addrOf(t, other, "tcp")); err != nil {
		t.Fatal(err)
	}
	before := h.Libp2p().Network().ConnsToPeer(other.ID())[0]
	time.Sleep(5 * time.Millisecond)
	h.net.Trace(&holepunch.Event{Remote: other.ID(), Timestamp: time.Now().UnixNano(), Evt: &holepunch.StartHolePunchEvt{RTT: time.Millisecond}})
	if k := h.connKind(before); k != KindLAN {
		t.Fatalf("a connection from before the punch is %q, want %q", k, KindLAN)
	}
	_ = h.Libp2p().Network().ClosePeer(other.ID())
	if _, err := h.Connect(ctx, addrOf(t, other, "tcp")); err != nil {
		t.Fatal(err)
	}
	during := h.Libp2p().Network().ConnsToPeer(other.ID())[0]
	if k := h.connKind(during); k != KindHolePunched {
		t.Fatalf("a connection opened during the punch is %q, want %q", k, KindHolePunched)
	}
	h.net.Trace(&holepunch.Event{Remote: other.ID(), Timestamp: time.Now().UnixNano(), Evt: &holepunch.EndHolePunchEvt{Success: true}})
	if k := h.connKind(during); k != KindHolePunched {
		t.Fatalf("after the punch's end the connection is %q, want %q", k, KindHolePunched)
	}
}

// The remote address of a hole-punched TCP connection is remembered as a
// NAT mapping, not an address to dial again (a stored peer record and
// every redial leave it out), from the moment the connection is known to
// be punched and after it closed; a connection that was not punched is
// not, nor a QUIC or relayed address (a UDP mapping may still carry a
// dial).
func TestPunchedTCPAddrsRemembered(t *testing.T) {
	h, other := newHost(t, Config{ListenAddrs: loopTCP}), newHost(t, Config{ListenAddrs: loopTCP})
	ctx := ctxT(t, 10*time.Second)
	if _, err := h.Connect(ctx, fullAddr(other)); err != nil {
		t.Fatal(err)
	}
	if got := h.PunchedTCPAddrs(other.ID()); len(got) != 0 {
		t.Fatalf("no punch yet, punched addresses %v", got)
	}
	_ = h.Libp2p().Network().ClosePeer(other.ID())
	time.Sleep(5 * time.Millisecond)
	h.net.Trace(&holepunch.Event{Remote: other.ID(), Timestamp: time.Now().UnixNano(), Evt: &holepunch.StartHolePunchEvt{RTT: time.Millisecond}})
	if _, err := h.Connect(ctx, fullAddr(other)); err != nil {
		t.Fatal(err)
	}
	tcpAddr := h.Libp2p().Network().ConnsToPeer(other.ID())[0].RemoteMultiaddr()
	if got := h.PunchedTCPAddrs(other.ID()); len(got) != 1 || !got[0].Equal(tcpAddr) {
		t.Fatalf("during the punch: punched addresses %v, want the connection's %v", got, tcpAddr)
	}
	h.net.Trace(&holepunch.Event{Remote: other.ID(), Timestamp: time.Now().UnixNano(), Evt: &holepunch.EndHolePunchEvt{Success: true}})
	_ = h.Libp2p().Network().ClosePeer(other.ID())
	h.net.mu.Lock()
	h.net.rememberNATTCP(other.ID(), ma.StringCast("/ip4/7.0.0.3/udp/4001/quic-v1"))
	h.net.rememberNATTCP(other.ID(), ma.StringCast("/ip4/7.0.0.1/tcp/4001/p2p/12D3KooWGVpfd3ijNhXjj122tXdreoM3M2zyNv86DZoMMV4ZR1Fz/p2p-circuit"))
	h.net.mu.Unlock()
	if got := h.PunchedTCPAddrs(other.ID()); len(got) != 1 || !got[0].Equal(tcpAddr) {
		t.Fatalf("after the connection closed: punched addresses %v, want %v only", got, tcpAddr)
	}
}
