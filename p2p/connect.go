package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	ma "github.com/multiformats/go-multiaddr"
)

// Patience of a dial to a player: one attempt (TCP or QUIC, the security
// handshake, the muxer) may take up to DialAttempt; a failed one is tried
// again after DialRetryFirst, doubling up to DialRetryMax, until the
// caller's own deadline (the join's wait). A handshake lost on a lossy or
// overloaded link is then a delay, not a failed join.
const (
	DialAttempt    = 20 * time.Second
	DialRetryFirst = 250 * time.Millisecond
	DialRetryMax   = 4 * time.Second
)

// dialAttempt is DialAttempt, shortened by tests.
var dialAttempt = DialAttempt

// connectPatiently connects to ai, retrying failed attempts with backoff
// until ctx ends. After a failed attempt, a host in the DHT looks the
// peer's current addresses up (the invite's may be stale) and dials them
// too from then on. Each retry forgets libp2p's dial backoff for the
// peer, which would otherwise refuse the next attempt at once. It returns
// the last attempt's error.
func (h *Host) connectPatiently(ctx context.Context, ai peer.AddrInfo) error {
	wait := DialRetryFirst
	found := false
	for attempt := 1; ; attempt++ {
		actx, cancel := context.WithTimeout(ctx, dialAttempt)
		err := h.h.Connect(actx, ai)
		cancel()
		if err == nil || errors.Is(err, swarm.ErrDialToSelf) {
			return err
		}
		if !found {
			found = h.lookUp(ctx, &ai)
		}
		if !found && len(ai.Addrs) == 0 && len(h.h.Peerstore().Addrs(ai.ID)) == 0 {
			return err // nowhere to dial
		}
		h.log.Info("dial failed; trying again", "peer", ShortID(ai.ID), "attempt", attempt, "retry_in", wait, "err", err)
		if !sleepCtx(ctx, wait) {
			return err
		}
		wait = min(2*wait, DialRetryMax)
		h.clearDialBackoff(ai.ID)
	}
}

// lookUp adds the addresses the DHT knows for ai's peer to ai, when this
// host is in the DHT; it reports whether it found any.
func (h *Host) lookUp(ctx context.Context, ai *peer.AddrInfo) bool {
	if _, err := h.dht(); err != nil || ctx.Err() != nil {
		return false
	}
	fctx, cancel := context.WithTimeout(ctx, dialAttempt)
	defer cancel()
	found, err := h.FindPeer(fctx, ai.ID)
	if err != nil || len(found.Addrs) == 0 {
		return false
	}
	h.log.Info("invite addresses may be stale; dialing those the DHT knows too", "peer", ShortID(ai.ID))
	for _, a := range found.Addrs {
		if !slices.ContainsFunc(ai.Addrs, a.Equal) {
			ai.Addrs = append(ai.Addrs, a)
		}
	}
	return true
}

// clearDialBackoff forgets libp2p's record of failed dials to p, so the
// next dial tries every address again at once.
func (h *Host) clearDialBackoff(p peer.ID) {
	if sw, ok := h.h.Network().(*swarm.Swarm); ok {
		sw.Backoff().Clear(p)
	}
}

// RedialAddrTTL is how long AddPeerAddrs keeps the addresses it adds.
const RedialAddrTTL = time.Hour

// AddPeerAddrs adds addresses where p may be (stored with a match, an
// invite's, circuits through our relays) to the peerstore and forgets
// earlier failed dials to p: a redial after an outage then tries them
// all, although identify replaced the peerstore's addresses with the
// ones p announced (often only its undialable NAT ones) and the failed
// dials of the outage put p in libp2p's dial backoff.
func (h *Host) AddPeerAddrs(p peer.ID, addrs []ma.Multiaddr) {
	if p == h.ID() {
		return
	}
	var own []ma.Multiaddr
	for _, a := range addrs {
		if a == nil {
			continue
		}
		bare, id := peer.SplitAddr(a)
		if bare != nil && (id == "" || id == p) {
			own = append(own, bare)
		}
	}
	h.h.Peerstore().AddAddrs(p, own, RedialAddrTTL)
	h.clearDialBackoff(p)
}

// inviteRelays are the relays an invite's circuit addresses go through
// (…/p2p/<relay>/p2p-circuit), as addresses of the relays themselves.
func inviteRelays(inv Invite) []peer.AddrInfo {
	var relays []string
	for _, a := range inv.Addrs {
		if before, _, ok := strings.Cut(a.String(), "/p2p-circuit"); ok && IsRelayAddr(a) {
			relays = append(relays, before)
		}
	}
	out, err := parsePeers("relay", relays)
	if err != nil { // a circuit address without its relay's /p2p/<ID>: unusable
		return nil
	}
	return out
}

// UseRelays adds relays to the ones this host uses, at run time (a joiner
// learns them from the invite code): each serves as a bootstrap peer (it
// tells this host its public address, which DCUtR needs before it answers
// a hole punch) and as a relay this host keeps a reservation on (so a
// restarted peer can reach it back through the relay). Relays already in
// use are skipped. It connects to the new ones at once, all together, and
// returns when they answered or after HolePunchReadyWait (a relay slower
// than that would not bring DCUtR up in time anyway; the reservation loop
// keeps trying), so a dial right after finds DCUtR up.
func (h *Host) UseRelays(ctx context.Context, relays []peer.AddrInfo) {
	fresh := h.net.adopt(relays, relays)
	ctx, cancel := context.WithTimeout(ctx, HolePunchReadyWait)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range fresh {
		h.log.Info("using the invite's relay", "relay", ShortID(r.ID))
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.dialNetPeer(ctx, r)
		}()
	}
	wg.Wait()
}

// UseNetPeers adds relays and bootstrap peers (multiaddrs ending in
// /p2p/<ID>, as NetPeers gives them) to the ones this host uses, as
// UseRelays does, but connects to the new ones in the background: a
// resumed match takes its stored ones again, whatever the host was
// started with.
func (h *Host) UseNetPeers(relays, bootstrap []string) error {
	rs, err := parsePeers("relay", relays)
	if err != nil {
		return fmt.Errorf("p2p: use relays: %w", err)
	}
	bs, err := parsePeers("bootstrap peer", bootstrap)
	if err != nil {
		return fmt.Errorf("p2p: use bootstrap peers: %w", err)
	}
	for _, p := range h.net.adopt(rs, bs) {
		h.goTracked(func() { h.dialNetPeer(h.net.ctx, p) })
	}
	return nil
}

// adopt records relays and bootstrap peers not known yet, starts keeping
// a reservation on each new relay, and returns the new peers to connect
// to.
func (n *netState) adopt(relays, bootstrap []peer.AddrInfo) (fresh []peer.AddrInfo) {
	self := n.h.ID()
	has := func(list []peer.AddrInfo, id peer.ID) bool {
		return slices.ContainsFunc(list, func(x peer.AddrInfo) bool { return x.ID == id })
	}
	n.mu.Lock()
	for _, r := range relays {
		if r.ID != self && !has(n.relays, r.ID) {
			n.relays = append(n.relays, r) // autorelay's relaySource hands it out
			fresh = append(fresh, r)
		}
	}
	for _, b := range bootstrap {
		if b.ID != self && !has(n.bootstrap, b.ID) {
			n.bootstrap = append(n.bootstrap, b)
			if !has(fresh, b.ID) {
				fresh = append(fresh, b)
			}
		}
	}
	n.mu.Unlock()
	return fresh
}

// dialNetPeer connects to a relay or bootstrap peer (at most
// BootstrapTimeout); a failure is logged, as autorelay and later
// dials try again.
func (h *Host) dialNetPeer(ctx context.Context, ai peer.AddrInfo) {
	cctx, cancel := context.WithTimeout(ctx, BootstrapTimeout)
	defer cancel()
	if err := h.h.Connect(cctx, ai); err != nil {
		h.log.Warn("relay or bootstrap peer unreachable", "peer", ShortID(ai.ID), "err", err)
	}
}

// NetPeers are the relays and bootstrap peers this host uses (from its
// configuration and from invite codes), as multiaddrs ending in
// /p2p/<ID>: what a resumed match needs to be reachable the same way.
func (h *Host) NetPeers() (relays, bootstrap []string) {
	h.net.mu.Lock()
	defer h.net.mu.Unlock()
	return p2pStrings(h.net.relays), p2pStrings(h.net.bootstrap)
}

func p2pStrings(ais []peer.AddrInfo) []string {
	var out []string
	for _, ai := range ais {
		full, err := peer.AddrInfoToP2pAddrs(&ai)
		if err != nil {
			continue
		}
		for _, a := range full {
			out = append(out, a.String())
		}
	}
	return out
}

// CircuitAddrs are addresses to reach any peer through this host's
// relays (…/p2p/<relay>/p2p-circuit; libp2p adds the peer's ID): a peer
// behind a NAT that holds a reservation on one of them is reachable there
// even when none of its own addresses is.
func (h *Host) CircuitAddrs() []ma.Multiaddr {
	h.net.mu.Lock()
	relays := slices.Clone(h.net.relays)
	h.net.mu.Unlock()
	var out []ma.Multiaddr
	for _, r := range relays {
		for _, a := range r.Addrs {
			if IsRelayAddr(a) {
				continue
			}
			c, err := ma.NewMultiaddr(fmt.Sprintf("%s/p2p/%s/p2p-circuit", a, r.ID))
			if err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// hasNetPeers reports whether this host has bootstrap peers or relays
// (configured or from an invite) that can tell it its public address.
func (n *netState) hasNetPeers() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.bootstrap)+len(n.relays) > 0
}
