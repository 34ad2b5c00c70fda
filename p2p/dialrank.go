package p2p

import (
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
)

// UnlistenedDialDelay is how long after the last dial on a transport this
// host listens on a dial on another transport starts.
const UnlistenedDialDelay = time.Second

// ipTransport is the layer-4 protocol a multiaddr's connection runs on:
// ma.P_TCP or ma.P_UDP, 0 for neither. For a circuit address it is the
// transport of the connection to the relay.
func ipTransport(a ma.Multiaddr) int {
	for _, c := range a {
		switch c.Protocol().Code {
		case ma.P_TCP, ma.P_UDP:
			return c.Protocol().Code
		case ma.P_CIRCUIT:
			return 0
		}
	}
	return 0
}

// listenedRanker is the swarm's dial ranker: libp2p's smart dialing
// (swarm.DefaultDialRanker), but addresses on a transport this host
// listens on (TCP or UDP, from listen) are dialed first, and the others
// UnlistenedDialDelay after the last of those.
//
// Why: a connection dialed on a transport the host does not listen on
// leaves from a socket of its own (QUIC from an unbound UDP port, TCP
// from an unbound port without reuseport), so what the other side
// observes of it (identify) matches none of our listen addresses and
// libp2p drops the observation (observedaddrs.Manager,
// shouldRecordObservation). A host behind a NAT then never learns a
// public address of its own, and its DCUtR service, which starts only
// once it has one, never starts: every hole punch to it fails with
// "protocols not supported". Smart dialing prefers QUIC, so a host that
// listens on TCP only reached the relay over QUIC whenever it knew the
// relay's QUIC address (an invite code carries it once AutoNAT v2 lets
// autorelay's circuit addresses be announced), and never punched.
// A peer reachable only on a transport we do not listen on is still
// dialed, one second later.
func listenedRanker(listen []ma.Multiaddr) network.DialRanker {
	listened := map[int]bool{}
	for _, a := range listen {
		if t := ipTransport(a); t != 0 {
			listened[t] = true
		}
	}
	return func(addrs []ma.Multiaddr) []network.AddrDelay {
		var first, later []ma.Multiaddr
		for _, a := range addrs {
			if t := ipTransport(a); t == 0 || listened[t] {
				first = append(first, a)
			} else {
				later = append(later, a)
			}
		}
		res := swarm.DefaultDialRanker(first)
		if len(res) == 0 {
			return swarm.DefaultDialRanker(later)
		}
		var last time.Duration
		for _, d := range res {
			last = max(last, d.Delay)
		}
		offset := last + UnlistenedDialDelay
		for _, d := range swarm.DefaultDialRanker(later) {
			res = append(res, network.AddrDelay{Addr: d.Addr, Delay: d.Delay + offset})
		}
		return res
	}
}
