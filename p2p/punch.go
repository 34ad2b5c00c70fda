package p2p

import (
	"context"
	"slices"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/peerstore"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	ma "github.com/multiformats/go-multiaddr"
)

// maxPunchLog bounds the hole-punching attempts Punches remembers.
const maxPunchLog = 64

// PunchAddrTTL is how long the addresses the other peer sent for a hole
// punch stay in the peerstore. DCUtR hands them to Host.Connect, which
// stores them with peerstore.TempAddrTTL; identify, whenever it reads the
// peer's addresses (an identify push arriving in the middle of the
// punch), ends with "expire all temporary addresses", which removes
// exactly the addresses of TempAddrTTL. The dial then finds none and the
// punch fails with "no addresses" (seen under load in TestNetNATs). A
// TTL one second longer is not touched by that clean-up, and Connect's
// own AddAddrs keeps the longer one.
var PunchAddrTTL = peerstore.TempAddrTTL + time.Second

// Trace receives go-libp2p's hole-punching events (it implements
// holepunch.EventTracer). A successful punch marks the direct connections
// to that peer that exist at that moment, so Conn.Kind can tell
// "hole-punched" from "direct"; every finished attempt is kept for
// Punches.
func (n *netState) Trace(evt *holepunch.Event) {
	if start, ok := evt.Evt.(*holepunch.StartHolePunchEvt); ok {
		n.mu.Lock()
		n.punching[evt.Remote] = time.Unix(0, evt.Timestamp)
		n.mu.Unlock()
		n.keepPunchAddrs(evt.Remote, start.RemoteAddrs)
		return
	}
	end, ok := evt.Evt.(*holepunch.EndHolePunchEvt)
	if !ok {
		return
	}
	r := PunchResult{Peer: evt.Remote, Success: end.Success, Elapsed: end.EllapsedTime, Error: end.Error, At: time.Unix(0, evt.Timestamp)}
	n.mu.Lock()
	delete(n.punching, evt.Remote)
	n.punchLog = append(n.punchLog, r)
	if len(n.punchLog) > maxPunchLog {
		n.punchLog = slices.Delete(n.punchLog, 0, len(n.punchLog)-maxPunchLog)
	}
	if end.Success {
		n.punchedPeers[evt.Remote] = r.At
	}
	n.mu.Unlock()
	if end.Success && n.h != nil {
		n.markPunched(evt.Remote)
	}
	if n.h != nil {
		n.h.log.Info("hole punch", "peer", ShortID(evt.Remote), "success", end.Success, "elapsed", end.EllapsedTime, "err", end.Error)
	}
}

// keepPunchAddrs stores the addresses peer p sent for the hole punch
// about to be dialled with PunchAddrTTL, so that identify's clean-up of
// temporary addresses cannot empty the dial under it. The tracer runs
// synchronously just before the dial.
func (n *netState) keepPunchAddrs(p peer.ID, addrs []string) {
	if n.h == nil {
		return
	}
	var keep []ma.Multiaddr
	for _, s := range addrs {
		if a, err := ma.NewMultiaddr(s); err == nil {
			keep = append(keep, a)
		}
	}
	n.h.h.Peerstore().AddAddrs(p, keep, PunchAddrTTL)
}

// markPunched records the direct connections to p as hole-punched.
func (n *netState) markPunched(p peer.ID) {
	for _, c := range n.h.h.Network().ConnsToPeer(p) {
		if c.Stat().Limited || IsRelayAddr(c.RemoteMultiaddr()) {
			continue
		}
		n.mu.Lock()
		n.punched[c.ID()] = true
		n.rememberNATTCP(p, c.RemoteMultiaddr())
		n.mu.Unlock()
	}
}

// maxNATTCP bounds the punched TCP addresses kept per peer (the newest win).
const maxNATTCP = 8

// rememberNATTCP keeps the remote address of a hole-punched connection
// to p when it is a TCP one; n.mu is held.
func (n *netState) rememberNATTCP(p peer.ID, a ma.Multiaddr) {
	if IsRelayAddr(a) || ipTransport(a) != ma.P_TCP || slices.ContainsFunc(n.natTCP[p], a.Equal) {
		return
	}
	list := append(n.natTCP[p], a)
	n.natTCP[p] = list[max(0, len(list)-maxNATTCP):]
}

// PunchedTCPAddrs are the remote addresses of the hole-punched TCP
// connections to p this host has had: ports the NATs opened for one
// connection, not addresses to dial again. After that connection ends
// (the peer's process killed), a dial to such an address from our listen
// port waits in SYN-SENT behind the NAT, and libp2p's hole puncher dials
// every public address it knows before it punches; the half-open
// connection it leaves holds the very port pair the punch needs, so the
// punch's dial cannot take our listen port ("connect: cannot assign
// requested address"), libp2p falls back to a random port, which the
// NAT maps to a port the other side is not dialing, and the punch fails
// (TestNetKillAndResumeBehindNATs, host killed, TCP). A stored peer
// record leaves them out.
func (h *Host) PunchedTCPAddrs(p peer.ID) []ma.Multiaddr {
	var open []ma.Multiaddr // punched, its punch's end not traced yet
	for _, c := range h.h.Network().ConnsToPeer(p) {
		if h.net.isPunched(c) {
			open = append(open, c.RemoteMultiaddr())
		}
	}
	h.net.mu.Lock()
	defer h.net.mu.Unlock()
	for _, a := range open {
		h.net.rememberNATTCP(p, a)
	}
	return slices.Clone(h.net.natTCP[p])
}

// isPunched reports a connection made by hole punching: one marked when
// its punch ended, or a direct one that opened while a punch to its peer
// was dialing. The match may take the new connection before the punch's
// end is traced (a relayed match moving off the relay at once), and it
// was labelled "direct" then, under load.
func (n *netState) isPunched(c network.Conn) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.punched[c.ID()] {
		return true
	}
	since, ok := n.punching[c.RemotePeer()]
	return ok && !c.Stat().Opened.Before(since)
}

// Punches returns the hole-punching attempts this host took part in
// (either side), oldest first, at most the last 64.
func (h *Host) Punches() []PunchResult {
	h.net.mu.Lock()
	defer h.net.mu.Unlock()
	return slices.Clone(h.net.punchLog)
}

// HolePunchReadyWait bounds how long a dial to a peer found on the
// internet waits for this host's DCUtR service to come up (it starts once
// identify has told us our public address; a peer that starts DCUtR
// before then gets "protocol not supported" and never tries again).
const HolePunchReadyWait = 3 * time.Second

// HolePunchReady reports whether this host answers DCUtR now (false
// with hole punching off).
func (h *Host) HolePunchReady() bool {
	return !h.net.noPunch && slices.Contains(h.h.Mux().Protocols(), holepunch.Protocol)
}

// RelayedBefore reports whether every connection to p is relayed and was
// opened before t: a connection on which no hole punch started after t.
// It is false without any connection to p.
func (h *Host) RelayedBefore(p peer.ID, t time.Time) bool {
	conns := h.h.Network().ConnsToPeer(p)
	for _, c := range conns {
		if !IsRelayAddr(c.RemoteMultiaddr()) || !c.Stat().Opened.Before(t) {
			return false
		}
	}
	return len(conns) > 0
}

// WaitHolePunchReady waits (at most HolePunchReadyWait) until this host
// answers DCUtR, when hole punching is on and the host has bootstrap peers
// or relays that can tell it its public address (configured, or learned
// from an invite code by UseRelays). A host about to be
// reached through a relay (one that shows its invite code, or advertises
// a rendezvous) calls it first, and so does a dial to a relayed address.
func (h *Host) WaitHolePunchReady(ctx context.Context) {
	if h.net.noPunch || !h.net.hasNetPeers() {
		return
	}
	deadline := time.Now().Add(HolePunchReadyWait)
	for !slices.Contains(h.h.Mux().Protocols(), holepunch.Protocol) {
		if time.Now().After(deadline) || !sleepCtx(ctx, 25*time.Millisecond) {
			h.log.Debug("DCUtR not ready; dialing anyway")
			return
		}
	}
}
