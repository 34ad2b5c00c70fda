package p2p

import (
	"context"
	"fmt"
	"slices"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/host/autorelay"
	"github.com/libp2p/go-libp2p/p2p/host/eventbus"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	ma "github.com/multiformats/go-multiaddr"
)

// Reservations on relays are libp2p's autorelay's job: it reserves a slot
// on relays this host knows (Config.Relays, an invite code's, a resumed
// match's, and those found in the DHT and given to AddRelayCandidates),
// renews them before they expire and, when the link to a relay drops
// (the relay then forgets the reservation at once), asks relaySource
// again every RelayRetry and reserves anew as soon as the relay answers.
// Nothing here runs a timer of its own.
//
// Two gaps of go-libp2p v0.51 are bridged:
//
//   - autorelay starts on a reachability event, private or unknown, but
//     AutoNAT v1 never announces its initial "unknown", and behind a NAT
//     with only one or two Salvo peers it stays there: identify activates
//     an observed public address only after 4 peers saw it, so AutoNAT
//     has no public address to test and its servers refuse to dial.
//     AutoNAT v2 could not be the trigger either: in v0.51 it confirms
//     addresses one by one and announces no reachability. So
//     announceUnknown states that initial "unknown" once, which is true,
//     and autorelay acts on it as it was written to; a later verdict of
//     AutoNAT (public stops it) still counts. Forcing "private" instead
//     would have switched AutoNAT off for good, and called private a host
//     that a UPnP mapping made reachable.
//   - autorelay publishes circuit addresses only through relays at public
//     addresses and names no relay it holds. Its one signal is that it
//     protects a relay's connection (tag "autorelay") when it reserves
//     and unprotects it when a renewal fails; heldWatch follows that, and
//     a disconnect, so addrsFactory can add the circuits of every held
//     relay (a LAN or loopback relay too).

// autorelayTag is the tag libp2p's autorelay protects a relay's
// connection with while it holds a reservation there.
const autorelayTag = "autorelay"

// autorelayOptions are the libp2p options of the client side: autorelay
// fed by relaySource, AutoNAT v2 (reachability per address: the circuit
// addresses are announced while no direct address is confirmed
// reachable) and, unless noPortMap, UPnP / NAT-PMP port mapping on the
// home router.
//
// AutoNAT v2 once kept a code-only joiner from hole-punching: with it on,
// go-libp2p announces autorelay's circuit addresses, through every
// address of the relay (its QUIC one too), so the invite code carried
// the relay's QUIC address, and the joiner, listening on TCP only,
// reached the relay over QUIC from an unbound UDP port. Its observed
// address then matched none of its listen addresses, and DCUtR never
// started. listenedRanker (dialrank.go) is the fix.
func (n *netState) autorelayOptions(noPortMap bool) []libp2p.Option {
	opts := []libp2p.Option{
		libp2p.EnableAutoNATv2(),
		libp2p.EnableAutoRelayWithPeerSource(n.relaySource,
			autorelay.WithMaxCandidates(MaxRelayCandidates),
			autorelay.WithMinCandidates(1),
			autorelay.WithBootDelay(0),
			autorelay.WithNumRelays(RelayReservations),
			autorelay.WithMinInterval(RelayRetry),
			autorelay.WithBackoff(RelayBackoff),
		),
	}
	if !noPortMap {
		opts = append(opts, libp2p.NATPortMap())
	}
	return opts
}

// relaySource is autorelay's peer source: the relays this host was given,
// then those found elsewhere, at most num. A relay it is not connected to
// loses libp2p's dial backoff first: after an outage the failed dials of
// the outage would otherwise keep it away for minutes after the link is
// back. autorelay calls this at most every RelayRetry.
func (n *netState) relaySource(ctx context.Context, num int) <-chan peer.AddrInfo {
	n.mu.Lock()
	cands := slices.Concat(n.relays, n.found)
	h := n.h
	n.mu.Unlock()
	cands = cands[:min(len(cands), max(num, 0))]
	ch := make(chan peer.AddrInfo, len(cands))
	defer close(ch)
	for _, c := range cands {
		if h != nil && h.h.Network().Connectedness(c.ID) != network.Connected {
			h.clearDialBackoff(c.ID)
		}
		ch <- c
	}
	return ch
}

// AddRelayCandidates hands autorelay relays found elsewhere (the DHT):
// it reserves on them when the configured and invite relays do not make
// RelayReservations. At most MaxRelayCandidates are kept, the first ones;
// this host and relays already known are skipped. It returns how many
// were new.
func (h *Host) AddRelayCandidates(ais ...peer.AddrInfo) int {
	n := h.net
	n.mu.Lock()
	defer n.mu.Unlock()
	added := 0
	for _, ai := range ais {
		known := func(x peer.AddrInfo) bool { return x.ID == ai.ID }
		if ai.ID == h.ID() || len(n.found) >= MaxRelayCandidates ||
			slices.ContainsFunc(n.relays, known) || slices.ContainsFunc(n.found, known) {
			continue
		}
		n.found = append(n.found, ai)
		added++
	}
	return added
}

// relayCandidates is how many relays found elsewhere autorelay was given.
func (n *netState) relayCandidates() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.found)
}

// heldWatch is the connection manager, watched for autorelay's
// protection of the relays it holds a reservation on.
type heldWatch struct {
	*connmgr.BasicConnMgr
	n *netState
}

// Protect records a reservation autorelay made.
func (w heldWatch) Protect(p peer.ID, tag string) {
	w.BasicConnMgr.Protect(p, tag)
	if tag == autorelayTag {
		w.n.setHeld(p, true)
	}
}

// Unprotect records a reservation autorelay failed to renew.
func (w heldWatch) Unprotect(p peer.ID, tag string) bool {
	if tag == autorelayTag {
		w.n.setHeld(p, false)
	}
	return w.BasicConnMgr.Unprotect(p, tag)
}

func (n *netState) setHeld(p peer.ID, held bool) {
	n.mu.Lock()
	was := n.held[p]
	if held {
		n.held[p] = true
	} else {
		delete(n.held, p)
	}
	h := n.h
	n.mu.Unlock()
	if h == nil || was == held {
		return
	}
	if held {
		h.log.Info("relay reservation held", "relay", ShortID(p))
	} else {
		h.log.Info("relay reservation lost", "relay", ShortID(p))
	}
}

// relayGone forgets the reservation on a relay we are no longer
// connected to (the relay dropped it when the link went; autorelay
// reserves again once it is back).
func (n *netState) relayGone(p peer.ID) {
	if n.h.h.Network().Connectedness(p) != network.Connected {
		n.setHeld(p, false)
	}
}

// heldCircuits are the circuit addresses through the relays autorelay
// holds a reservation on, built from what this host knows of each relay's
// addresses; none while AutoNAT finds the host public.
func (n *netState) heldCircuits() []ma.Multiaddr {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.reach == network.ReachabilityPublic || n.h == nil {
		return nil
	}
	var out []ma.Multiaddr
	for _, id := range sortedPeers(n.held) {
		addrs := n.knownAddrs(id)
		for _, a := range addrs {
			if IsRelayAddr(a) {
				continue
			}
			c, err := ma.NewMultiaddr(fmt.Sprintf("%s/p2p/%s/p2p-circuit", a, id))
			if err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// knownAddrs are the addresses a relay was given with, or else the
// peerstore's; n.mu is held.
func (n *netState) knownAddrs(id peer.ID) []ma.Multiaddr {
	for _, list := range [][]peer.AddrInfo{n.relays, n.found} {
		if i := slices.IndexFunc(list, func(x peer.AddrInfo) bool { return x.ID == id }); i >= 0 && len(list[i].Addrs) > 0 {
			return list[i].Addrs
		}
	}
	return n.h.h.Peerstore().Addrs(id)
}

// announceUnknown states AutoNAT's initial "unknown" on the event bus, so
// autorelay starts (see the comment at the top of this file). Only for a
// host whose reachability is not forced: a forced one was announced by
// libp2p already.
func (n *netState) announceUnknown() error {
	em, err := n.h.h.EventBus().Emitter(new(event.EvtLocalReachabilityChanged), eventbus.Stateful)
	if err != nil {
		return fmt.Errorf("reachability emitter: %w", err)
	}
	defer em.Close()
	if err := em.Emit(event.EvtLocalReachabilityChanged{Reachability: network.ReachabilityUnknown}); err != nil {
		return fmt.Errorf("announce reachability: %w", err)
	}
	return nil
}
