package p2p

import (
	"net/netip"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// What Conn.Kind reports.
const (
	// KindLAN is a direct connection to a loopback, private (RFC 1918,
	// fc00::/7) or link-local address.
	KindLAN = "LAN direct"
	// KindDirect is a direct connection to any other address.
	KindDirect = "direct"
	// KindRelayed is a connection through a circuit relay (limited, or with
	// /p2p-circuit in its address).
	KindRelayed = "relayed"
	// KindHolePunched is a direct connection that DCUtR hole punching made
	// out of a relayed one.
	KindHolePunched = "hole-punched"
)

// connKind classifies a connection for Conn.Kind.
func (h *Host) connKind(c network.Conn) string {
	if c.Stat().Limited || IsRelayAddr(c.RemoteMultiaddr()) {
		return KindRelayed
	}
	if h != nil && h.net.isPunched(c) {
		return KindHolePunched
	}
	if ip, ok := addrIP(c.RemoteMultiaddr()); ok && isLANIP(ip) {
		return KindLAN
	}
	return KindDirect
}

// PeerKind says how this host is connected to p right now: the kind of
// the connection new streams would use (a direct one when there is one),
// or "" when not connected.
func (h *Host) PeerKind(p peer.ID) string {
	var best network.Conn
	for _, c := range h.h.Network().ConnsToPeer(p) {
		if best == nil || best.Stat().Limited && !c.Stat().Limited {
			best = c
		}
	}
	if best == nil {
		return ""
	}
	return h.connKind(best)
}

// IsRelayAddr reports a /p2p-circuit address (one through a circuit
// relay); nil is not one.
func IsRelayAddr(a ma.Multiaddr) bool {
	if a == nil {
		return false
	}
	_, err := a.ValueForProtocol(ma.P_CIRCUIT)
	return err == nil
}

// addrIP extracts the IP of an /ip4 or /ip6 multiaddr.
func addrIP(a ma.Multiaddr) (netip.Addr, bool) {
	if a == nil {
		return netip.Addr{}, false
	}
	ip, err := manet.ToIP(a)
	if err != nil {
		return netip.Addr{}, false
	}
	addr, ok := netip.AddrFromSlice(ip)
	return addr.Unmap(), ok
}

// isLANIP reports loopback, private and link-local addresses.
func isLANIP(ip netip.Addr) bool {
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast()
}

// addrRank orders addresses for Host.Addrs: public, then LAN, then
// loopback; relay and unparsable addresses after public ones.
func addrRank(a ma.Multiaddr) int {
	ip, ok := addrIP(a)
	switch {
	case IsRelayAddr(a) || !ok:
		return 1
	case ip.IsLoopback():
		return 3
	case isLANIP(ip):
		return 2
	default:
		return 0
	}
}
