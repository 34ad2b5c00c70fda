// Package invite is the one place that writes and reads Salvo invite codes:
// what the host screen shows and the join screen accepts.
//
// Today a code is the host's dialable multiaddrs, comma-separated, each
// ending in /p2p/<peer ID> (the form p2p.Host.Connect takes), trimmed to
// what can help a joiner: loopback addresses are dropped when the host has
// others, link-local IPv6 ones always, and at most one address per IP and
// transport is kept. A later, compact form (with relay addresses) replaces
// Code and Parse here and nowhere else.
package invite

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"unicode"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
)

// Target is the peer a code names.
type Target struct {
	// ID is the host's peer ID.
	ID peer.ID
	// Addrs is how many addresses the code gives.
	Addrs int
	// Dial is the code in the form p2p.Host.Connect accepts.
	Dial string
}

// ErrEmpty is returned by Parse for a code with nothing in it.
var ErrEmpty = errors.New("no code yet")

// Code returns the invite code of a host.
func Code(h *p2p.Host) string { return Format(h.Addrs()) }

// FromPeer returns the code of a peer found on the LAN.
func FromPeer(p p2p.PeerInfo) string {
	full, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: p.ID, Addrs: p.Addrs})
	if err != nil || len(full) == 0 {
		return "/p2p/" + p.ID.String()
	}
	return Format(full)
}

// Format trims a list of full multiaddrs (each ending in /p2p/<ID>) to the
// useful ones and joins them with commas.
func Format(addrs []ma.Multiaddr) string {
	var keep []string
	var loop []string
	seen := map[string]bool{}
	for _, a := range addrs {
		ip, proto, ok := describe(a)
		if ok && ip.Is6() && ip.IsLinkLocalUnicast() {
			continue
		}
		key := ip.String() + "/" + proto
		if ok && seen[key] {
			continue
		}
		seen[key] = true
		if ok && ip.IsLoopback() {
			loop = append(loop, a.String())
			continue
		}
		keep = append(keep, a.String())
	}
	if len(keep) == 0 {
		keep = loop
	}
	return strings.Join(keep, ",")
}

// describe returns an address's IP and transport ("tcp", "quic-v1", …).
func describe(a ma.Multiaddr) (netip.Addr, string, bool) {
	var ip netip.Addr
	var proto string
	ok := false
	for _, c := range a {
		switch c.Protocol().Code {
		case ma.P_IP4, ma.P_IP6:
			if x, err := netip.ParseAddr(c.Value()); err == nil {
				ip, ok = x, true
			}
		case ma.P_TCP, ma.P_UDP:
			proto = c.Protocol().Name
		case ma.P_QUIC_V1, ma.P_WEBTRANSPORT, ma.P_WEBRTC_DIRECT:
			proto = c.Protocol().Name
		}
	}
	return ip, proto, ok
}

// Parse reads a code as typed or pasted: white space (a code wrapped over
// several lines) is ignored. The error says what is wrong, in words fit for
// the join screen.
func Parse(code string) (Target, error) {
	clean := strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, code)
	if clean == "" {
		return Target{}, ErrEmpty
	}
	if !strings.HasPrefix(clean, "/") {
		return Target{}, fmt.Errorf("a code starts with /ip4/, /ip6/, /dns/ or /p2p/")
	}
	ai, err := p2p.ParseAddrs(clean)
	switch {
	case errors.Is(err, p2p.ErrNoPeerID):
		return Target{}, fmt.Errorf("an address lacks its /p2p/<peer ID> ending: is the code complete?")
	case errors.Is(err, p2p.ErrMixedPeers):
		return Target{}, fmt.Errorf("the addresses name different peers: paste one code only")
	case err != nil:
		return Target{}, fmt.Errorf("not a valid code: %v", strings.TrimPrefix(err.Error(), "p2p: "))
	}
	return Target{ID: ai.ID, Addrs: len(ai.Addrs), Dial: clean}, nil
}
