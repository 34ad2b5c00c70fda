package session

import (
	"slices"

	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
)

// maxKnownAddrs bounds the addresses remember keeps (the newest win).
const maxKnownAddrs = 32

// remember adds addresses where the other peer was found (its invite's,
// the peer record's) to the ones every redial adds back (readdAddrs).
func (r *Reconnecting) remember(addrs []ma.Multiaddr) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, a := range addrs {
		if !slices.ContainsFunc(r.known, a.Equal) {
			r.known = append(r.known, a)
		}
	}
	if len(r.known) > maxKnownAddrs {
		r.known = slices.Delete(r.known, 0, len(r.known)-maxKnownAddrs)
	}
}

// readdAddrs puts the remembered addresses, and circuits through this
// host's relays, back into the peerstore before a redial, and forgets the
// outage's failed dials. identify rewrites the peerstore with what the
// peer announced (behind a NAT, addresses nobody can dial), so without
// this a redial after the peer restarted finds no address at all; and a
// peer restarted behind a NAT is reachable only through a relay it
// reserved on again.
func (r *Reconnecting) readdAddrs() {
	r.mu.Lock()
	addrs := append(r.known[:0:0], r.known...)
	r.mu.Unlock()
	stale := r.h.PunchedTCPAddrs(r.remote) // remembered before the punch was traced
	addrs = slices.DeleteFunc(addrs, func(a ma.Multiaddr) bool { return slices.ContainsFunc(stale, a.Equal) })
	r.h.AddPeerAddrs(r.remote, append(addrs, r.h.CircuitAddrs()...))
}

// peerAddrs is where peer id can be found now, for a stored peer record:
// the addresses of open connections first (proven to work), then the
// peerstore's (identify's, the invite's), without repeats and at most
// maxAddrs. The bound matters: the peer announces its own addresses, so an
// opponent could otherwise make every refresh write a peer record of any
// size to this player's disk.
func peerAddrs(h *p2p.Host, id peer.ID) []string {
	var out []string
	stale := h.PunchedTCPAddrs(id)
	add := func(a ma.Multiaddr) {
		if a != nil && len(out) < maxAddrs && !slices.Contains(out, a.String()) && !slices.ContainsFunc(stale, a.Equal) {
			out = append(out, a.String())
		}
	}
	for _, c := range h.Libp2p().Network().ConnsToPeer(id) {
		add(c.RemoteMultiaddr())
	}
	for _, a := range h.Libp2p().Peerstore().Addrs(id) {
		add(a)
	}
	return out
}

// parseAddrs reads stored multiaddrs, skipping any that no longer parse.
func parseAddrs(ss []string) []ma.Multiaddr {
	var out []ma.Multiaddr
	for _, s := range ss {
		if a, err := ma.NewMultiaddr(s); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// LinkDown reports an outage: no stream is up. The referee does not count
// it against a step's timeout (fairness.LinkWatcher); only GiveUp ends the
// match then.
func (r *Reconnecting) LinkDown() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur == nil && !r.link.phase.over()
}
