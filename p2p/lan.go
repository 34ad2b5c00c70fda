package p2p

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/discovery/mdns"
	ma "github.com/multiformats/go-multiaddr"
)

// Discovery states, as DiscoveryErr reports them.
var (
	// ErrDiscoveryOff means Config.EnableMDNS was false.
	ErrDiscoveryOff = errors.New("LAN discovery not enabled")
	// ErrNoMulticast means no up, multicast-capable, non-loopback interface
	// with an address existed when the host started.
	ErrNoMulticast = errors.New("no multicast-capable network interface")
)

// PeerInfo is a Salvo host seen on the LAN, with what its info answer said.
type PeerInfo struct {
	// ID is the peer.
	ID peer.ID
	// Addrs are the addresses it announced over mDNS (without /p2p/),
	// loopback last.
	Addrs []ma.Multiaddr
	// Name is its display name.
	Name string
	// Offer is the game it offers, "" when idle.
	Offer string
	// Gone reports that a peer reported earlier stopped answering and was
	// forgotten; Addrs, Name and Offer are those last known.
	Gone bool
}

// lan runs mDNS discovery and keeps the table of LAN peers.
type lan struct {
	h       *Host
	refresh time.Duration // LANRefresh, shortened by tests
	ch      chan PeerInfo
	ctx     context.Context
	cancel  context.CancelFunc

	mu      sync.Mutex
	svc     mdns.Service
	notify  *network.NotifyBundle
	err     error
	probing map[peer.ID]bool
	addrs   map[peer.ID][]ma.Multiaddr
	known   map[peer.ID]PeerInfo
}

func newLAN(h *Host) *lan {
	ctx, cancel := context.WithCancel(context.Background())
	return &lan{
		h:       h,
		refresh: lanRefresh,
		ch:      make(chan PeerInfo, LANBuffer),
		ctx:     ctx,
		cancel:  cancel,
		err:     ErrDiscoveryOff,
		probing: make(map[peer.ID]bool),
		addrs:   make(map[peer.ID][]ma.Multiaddr),
		known:   make(map[peer.ID]PeerInfo),
	}
}

// LANPeers reports Salvo hosts found on the LAN: one PeerInfo when a peer
// is first seen, another whenever its name, offer or addresses change, and
// one with Gone set when it stops answering. Self is never reported.
// Sending never blocks discovery: when LANBuffer events are waiting unread,
// newer ones are dropped (LANPeerList still has them). The channel is
// closed by Close and never receives anything without Config.EnableMDNS.
func (h *Host) LANPeers() <-chan PeerInfo { return h.lan.ch }

// LANPeerList is a snapshot of the LAN peers currently known, by peer ID.
func (h *Host) LANPeerList() []PeerInfo {
	h.lan.mu.Lock()
	defer h.lan.mu.Unlock()
	out := make([]PeerInfo, 0, len(h.lan.known))
	for _, p := range h.lan.known {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b PeerInfo) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// DiscoveryErr is nil while mDNS runs, else why it does not:
// ErrDiscoveryOff, ErrNoMulticast, or the error starting it gave.
func (h *Host) DiscoveryErr() error {
	h.lan.mu.Lock()
	defer h.lan.mu.Unlock()
	return h.lan.err
}

// start starts mDNS; failure is logged and kept for DiscoveryErr, since
// direct dialing still works without it.
func (l *lan) start() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !hasMulticast() {
		l.err = ErrNoMulticast
		l.h.log.Warn("LAN discovery off", "err", l.err)
		return
	}
	svc := mdns.NewMdnsService(l.h.h, MDNSService, l)
	if err := svc.Start(); err != nil {
		l.err = fmt.Errorf("p2p: start mDNS: %w", err)
		l.h.log.Warn("LAN discovery off", "err", l.err)
		return
	}
	l.svc = svc
	l.err = nil
	l.notify = &network.NotifyBundle{DisconnectedF: l.disconnected}
	l.h.h.Network().Notify(l.notify)
	l.h.goTracked(l.refreshLoop)
}

// stop stops mDNS and every probe.
func (l *lan) stop() {
	l.cancel()
	l.mu.Lock()
	svc := l.svc
	l.svc = nil
	notify := l.notify
	l.notify = nil
	l.mu.Unlock()
	if notify != nil {
		l.h.h.Network().StopNotify(notify)
	}
	if svc != nil {
		_ = svc.Close()
	}
}

// closeChan closes the LANPeers channel; call once no probe can run.
func (l *lan) closeChan() { close(l.ch) }

// HandlePeerFound is the mDNS callback (called on its own goroutine, maybe
// repeatedly for one peer). It records the addresses and starts a probe
// unless one is already running for that peer.
func (l *lan) HandlePeerFound(ai peer.AddrInfo) {
	if ai.ID == "" || ai.ID == l.h.ID() || l.ctx.Err() != nil {
		return
	}
	addrs := slices.Clone(ai.Addrs)
	slices.SortStableFunc(addrs, func(a, b ma.Multiaddr) int { return cmp.Compare(addrRank(a), addrRank(b)) })
	l.h.log.Debug("mDNS found peer", "peer", ShortID(ai.ID), "addrs", len(addrs))
	l.h.h.Peerstore().AddAddrs(ai.ID, addrs, LANAddrTTL)
	l.mu.Lock()
	l.addrs[ai.ID] = addrs
	l.mu.Unlock()
	l.spawnProbe(ai.ID)
}

// spawnProbe runs probe(id) unless one is running already.
func (l *lan) spawnProbe(id peer.ID) {
	l.mu.Lock()
	if l.probing[id] {
		l.mu.Unlock()
		return
	}
	l.probing[id] = true
	l.mu.Unlock()
	if !l.h.goTracked(func() { l.probe(id) }) {
		l.mu.Lock()
		delete(l.probing, id)
		l.mu.Unlock()
	}
}

// probe asks id for its info and reports it when it changed. A peer not
// known yet was just found by mDNS: make sure there is a connection (the
// smaller peer ID dials; the larger waits LANDialWait for that, then dials
// itself) and try up to LANProbeAttempts times. A known peer is asked once
// (redialing if its connection went away) and reported gone if that fails.
func (l *lan) probe(id peer.ID) {
	defer func() {
		l.mu.Lock()
		delete(l.probing, id)
		l.mu.Unlock()
	}()
	l.mu.Lock()
	_, known := l.known[id]
	l.mu.Unlock()
	var info Info
	var err error
	if known {
		info, err = l.h.QueryInfo(l.ctx, id)
	} else {
		for attempt := range LANProbeAttempts {
			if attempt > 0 && !sleepCtx(l.ctx, LANRetryDelay<<(attempt-1)) {
				return
			}
			l.connect(id)
			if info, err = l.h.QueryInfo(l.ctx, id); err == nil {
				break
			}
			l.h.log.Debug("LAN peer did not answer info", "peer", ShortID(id), "attempt", attempt+1, "err", err)
		}
	}
	if l.ctx.Err() != nil {
		return
	}
	l.mu.Lock()
	prev, wasKnown := l.known[id]
	var out PeerInfo
	switch {
	case err != nil && !wasKnown:
		l.mu.Unlock()
		return
	case err != nil:
		l.h.log.Debug("LAN peer stopped answering", "peer", ShortID(id), "err", err)
		delete(l.known, id)
		delete(l.addrs, id)
		out = prev
		out.Gone = true
	default:
		out = PeerInfo{ID: id, Addrs: l.addrs[id], Name: info.Name, Offer: info.Offer}
		if wasKnown && samePeerInfo(prev, out) {
			l.mu.Unlock()
			return
		}
		l.known[id] = out
	}
	l.mu.Unlock()
	select {
	case l.ch <- out:
	default:
		l.h.log.Warn("LANPeers channel full; event dropped", "peer", ShortID(id))
	}
}

// connect makes sure there is a connection to a peer just found on the
// LAN, by the smaller-ID-dials rule.
func (l *lan) connect(id peer.ID) {
	nw := l.h.h.Network()
	if nw.Connectedness(id) == network.Connected {
		return
	}
	if l.h.ID() > id && !l.waitConnected(id, LANDialWait) && l.ctx.Err() == nil {
		l.h.log.Debug("LAN peer did not dial; dialing it", "peer", ShortID(id))
	}
	if nw.Connectedness(id) == network.Connected || l.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(l.ctx, LANDialTimeout)
	defer cancel()
	if err := l.h.h.Connect(ctx, peer.AddrInfo{ID: id}); err != nil {
		l.h.log.Debug("LAN dial failed", "peer", ShortID(id), "err", err)
	}
}

// sleepCtx sleeps d unless ctx ends first; it reports whether it slept.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// disconnected re-asks a known LAN peer as soon as its last connection
// closes, so a peer that quit is reported gone quickly.
func (l *lan) disconnected(_ network.Network, c network.Conn) {
	id := c.RemotePeer()
	l.mu.Lock()
	_, known := l.known[id]
	l.mu.Unlock()
	if known && l.ctx.Err() == nil && l.h.h.Network().Connectedness(id) != network.Connected {
		l.spawnProbe(id)
	}
}

// waitConnected polls for a connection to id for at most d.
func (l *lan) waitConnected(id peer.ID, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		if l.h.h.Network().Connectedness(id) == network.Connected {
			return true
		}
		select {
		case <-tick.C:
		case <-t.C:
			return false
		case <-l.ctx.Done():
			return false
		}
	}
}

// refreshLoop asks every known LAN peer again every LANRefresh.
func (l *lan) refreshLoop() {
	t := time.NewTicker(l.refresh)
	defer t.Stop()
	for {
		select {
		case <-l.ctx.Done():
			return
		case <-t.C:
		}
		l.mu.Lock()
		ids := make([]peer.ID, 0, len(l.known))
		for id := range l.known {
			ids = append(ids, id)
		}
		l.mu.Unlock()
		for _, id := range ids {
			l.spawnProbe(id)
		}
	}
}

// samePeerInfo compares everything a listener sees.
func samePeerInfo(a, b PeerInfo) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Offer == b.Offer && a.Gone == b.Gone &&
		slices.EqualFunc(a.Addrs, b.Addrs, func(x, y ma.Multiaddr) bool { return x.Equal(y) })
}

// hasMulticast reports an up, multicast-capable, non-loopback interface
// with at least one address.
func hasMulticast() bool {
	ifs, err := net.Interfaces()
	if err != nil {
		return false
	}
	for _, ifc := range ifs {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagMulticast == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		if addrs, err := ifc.Addrs(); err == nil && len(addrs) > 0 {
			return true
		}
	}
	return false
}
