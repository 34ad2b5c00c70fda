package p2p

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/event"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	"github.com/libp2p/go-libp2p/p2p/protocol/holepunch"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
)

// DHTMode says how a host takes part in the Salvo DHT.
type DHTMode int

// DHT modes.
const (
	// DHTOff runs no DHT: no rendezvous, no lookup of a peer by ID.
	DHTOff DHTMode = iota
	// DHTAuto answers DHT queries once AutoNAT finds the host publicly
	// reachable, and only asks them before that.
	DHTAuto
	// DHTClient only asks.
	DHTClient
	// DHTServer always answers (a bootstrap peer, a relay).
	DHTServer
)

// String names the mode as the --dht flag spells it.
func (m DHTMode) String() string {
	switch m {
	case DHTOff:
		return "off"
	case DHTAuto:
		return "auto"
	case DHTClient:
		return "client"
	case DHTServer:
		return "server"
	}
	return fmt.Sprintf("DHTMode(%d)", int(m))
}

// ParseDHTMode reads "off", "auto", "client" or "server".
func ParseDHTMode(s string) (DHTMode, error) {
	for _, m := range []DHTMode{DHTOff, DHTAuto, DHTClient, DHTServer} {
		if s == m.String() {
			return m, nil
		}
	}
	return DHTOff, fmt.Errorf("p2p: DHT mode %q: want off, auto, client or server", s)
}

// RelayMode says whether a host relays for other peers.
type RelayMode int

// Relay modes.
const (
	// RelayOff never relays.
	RelayOff RelayMode = iota
	// RelayAuto relays while AutoNAT finds the host publicly reachable
	// (any Salvo peer with a public address helps the others).
	RelayAuto
	// RelayOn relays from the start (a host the operator knows is public).
	RelayOn
)

// String names the mode.
func (m RelayMode) String() string {
	switch m {
	case RelayOff:
		return "off"
	case RelayAuto:
		return "auto"
	case RelayOn:
		return "on"
	}
	return fmt.Sprintf("RelayMode(%d)", int(m))
}

// netState is the internet side of a host: reachability, relay service,
// reservations, hole punching and the DHT.
type netState struct {
	h *Host

	ctx    context.Context
	cancel context.CancelFunc

	mu           sync.Mutex
	reach        network.Reachability
	reachWaiters []chan struct{}
	relaySvc     *relay.Relay
	relayMode    RelayMode
	relayLimits  RelayLimits
	held         map[peer.ID]bool           // relays autorelay holds a reservation on
	found        []peer.AddrInfo            // relay candidates found elsewhere (AddRelayCandidates)
	punched      map[string]bool            // IDs of connections made by hole punching
	punchedPeers map[peer.ID]time.Time      // peers we hole-punched to, and when
	punching     map[peer.ID]time.Time      // peers a hole punch is dialing now, since when
	natTCP       map[peer.ID][]ma.Multiaddr // remote addresses of hole-punched TCP connections
	punchLog     []PunchResult
	bootstrap    []peer.AddrInfo
	relays       []peer.AddrInfo
	noPunch      bool
	announce     func([]ma.Multiaddr) []ma.Multiaddr // Config.AddrsFactory

	kad *dht.IpfsDHT
}

// PunchResult is one hole-punching attempt seen by this host.
type PunchResult struct {
	Peer    peer.ID
	Success bool
	// Elapsed is how long the attempt took.
	Elapsed time.Duration
	Error   string
	At      time.Time
}

func newNetState() *netState {
	ctx, cancel := context.WithCancel(context.Background())
	return &netState{
		ctx:          ctx,
		cancel:       cancel,
		held:         map[peer.ID]bool{},
		punched:      map[string]bool{},
		punchedPeers: map[peer.ID]time.Time{},
		punching:     map[peer.ID]time.Time{},
		natTCP:       map[peer.ID][]ma.Multiaddr{},
	}
}

// parsePeers reads multiaddrs ending in /p2p/<ID>, grouped by peer.
func parsePeers(what string, addrs []string) ([]peer.AddrInfo, error) {
	var out []peer.AddrInfo
	for _, s := range addrs {
		ai, err := ParseAddrs(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		i := slices.IndexFunc(out, func(x peer.AddrInfo) bool { return x.ID == ai.ID })
		if i < 0 {
			out = append(out, ai)
		} else {
			out[i].Addrs = append(out[i].Addrs, ai.Addrs...)
		}
	}
	return out, nil
}

// checkNetConfig says what is wrong with the internet settings of cfg,
// before any host starts.
func checkNetConfig(cfg Config) error {
	if cfg.DiscoverRelays && cfg.DHT == DHTOff {
		return errors.New("DiscoverRelays needs the DHT")
	}
	return relayLimitsOf(cfg).Check()
}

// relayLimitsOf is cfg's relay limits, the defaults for the zero value.
func relayLimitsOf(cfg Config) RelayLimits {
	if cfg.RelayLimits == (RelayLimits{}) {
		return DefaultRelayLimits()
	}
	return cfg.RelayLimits
}

// libp2pOptions are the options the internet features add to New's.
func (n *netState) libp2pOptions(cfg Config) []libp2p.Option {
	opts := []libp2p.Option{
		libp2p.EnableNATService(),
		libp2p.AddrsFactory(n.addrsFactory),
	}
	opts = append(opts, n.autorelayOptions(cfg.NoPortMap || allLoopback(cfg.ListenAddrs))...)
	if !cfg.NoHolePunching {
		opts = append(opts, libp2p.EnableHolePunching(holepunch.WithTracer(n)))
	}
	switch cfg.Reachability {
	case network.ReachabilityPublic:
		opts = append(opts, libp2p.ForceReachabilityPublic())
	case network.ReachabilityPrivate:
		opts = append(opts, libp2p.ForceReachabilityPrivate())
	}
	return opts
}

// addrsFactory adds the circuit addresses of our relay reservations to the
// addresses the host announces (identify, the DHT, invite codes).
func (n *netState) addrsFactory(addrs []ma.Multiaddr) []ma.Multiaddr {
	if n.announce != nil {
		addrs = n.announce(addrs)
	}
	return append(addrs, n.heldCircuits()...)
}

// allLoopback reports listen addresses that are all loopback ones (a
// test's): no port mapping is asked of any router then.
func allLoopback(listen []string) bool {
	for _, s := range listen {
		a, err := ma.NewMultiaddr(s)
		if err != nil || !manet.IsIPLoopback(a) {
			return false
		}
	}
	return len(listen) > 0
}

func sortedPeers[V any](m map[peer.ID]V) []peer.ID {
	ids := make([]peer.ID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// start runs the services New's config asked for, once the libp2p host
// exists.
func (n *netState) start(h *Host, cfg Config) error {
	// Under the lock: autorelay and the address manager may already ask
	// relaySource and addrsFactory.
	n.mu.Lock()
	n.h = h
	if cfg.Reachability != network.ReachabilityUnknown {
		n.reach = cfg.Reachability
	}
	n.mu.Unlock()
	n.relayMode = cfg.RelayService
	n.relayLimits = relayLimitsOf(cfg)
	n.noPunch = cfg.NoHolePunching
	sub, err := h.h.EventBus().Subscribe(new(event.EvtLocalReachabilityChanged))
	if err != nil {
		return fmt.Errorf("subscribe to reachability: %w", err)
	}
	h.goTracked(func() { n.watchReachability(sub) })
	// Forget hole-punched connections once they close, and reservations
	// on relays we lost.
	h.h.Network().Notify(&network.NotifyBundle{DisconnectedF: func(_ network.Network, c network.Conn) {
		n.mu.Lock()
		delete(n.punched, c.ID())
		n.mu.Unlock()
		n.relayGone(c.RemotePeer())
	}})
	if cfg.Reachability == network.ReachabilityUnknown {
		if err := n.announceUnknown(); err != nil {
			return err
		}
	}
	if cfg.RelayService == RelayOn {
		if err := n.startRelay(); err != nil {
			return err
		}
	}
	if cfg.DHT != DHTOff {
		if err := n.startDHT(cfg.DHT); err != nil {
			return err
		}
	}
	if len(n.bootstrap) > 0 {
		h.goTracked(n.connectBootstrap)
	}
	if cfg.DiscoverRelays {
		h.goTracked(n.discoverRelays)
	}
	return nil
}

// discoverRelays looks for relays in the DHT (RelayCandidates: Salvo
// relays first, then DHT peers offering circuit relay v2) while this host
// is not public and has found fewer than MaxDiscoveredRelays, and hands
// each one found to autorelay.
func (n *netState) discoverRelays() {
	wait := findFirst
	for {
		if !sleepCtx(n.ctx, wait) {
			return
		}
		wait = min(2*wait, RelaySearchInterval)
		if n.relayCandidates() >= MaxDiscoveredRelays || n.h.Reachability() == network.ReachabilityPublic {
			continue
		}
		var found []peer.AddrInfo
		for ai := range n.h.RelayCandidates(n.ctx, MaxDiscoveredRelays) {
			found = append(found, ai)
		}
		if added := n.h.AddRelayCandidates(found...); added > 0 {
			n.h.log.Info("relays found in the DHT", "new", added)
		}
	}
}

// stop ends every background service; the libp2p host is closed after.
func (n *netState) stop() {
	n.cancel()
	n.mu.Lock()
	svc := n.relaySvc
	n.relaySvc = nil
	kad := n.kad
	n.mu.Unlock()
	if svc != nil {
		_ = svc.Close()
	}
	if kad != nil {
		_ = kad.Close()
	}
}

// watchReachability follows AutoNAT and starts or stops the relay service
// in RelayAuto mode.
func (n *netState) watchReachability(sub event.Subscription) {
	defer sub.Close()
	for {
		select {
		case <-n.ctx.Done():
			return
		case e, ok := <-sub.Out():
			if !ok {
				return
			}
			r := e.(event.EvtLocalReachabilityChanged).Reachability
			n.mu.Lock()
			n.reach = r
			waiters := n.reachWaiters
			n.reachWaiters = nil
			mode := n.relayMode
			n.mu.Unlock()
			for _, w := range waiters {
				close(w)
			}
			n.h.log.Info("reachability", "now", r.String())
			if mode == RelayAuto {
				if r == network.ReachabilityPublic {
					if err := n.startRelay(); err != nil {
						n.h.log.Warn("relay service", "err", err)
					}
				} else {
					n.stopRelay()
				}
			}
		}
	}
}

// Reachability is what AutoNAT has found about this host (or what
// Config.Reachability forced): public, private (behind a NAT or firewall)
// or unknown (not found out yet).
func (h *Host) Reachability() network.Reachability {
	h.net.mu.Lock()
	defer h.net.mu.Unlock()
	return h.net.reach
}

// WaitReachability waits until AutoNAT has an answer other than unknown,
// or ctx ends.
func (h *Host) WaitReachability(ctx context.Context) (network.Reachability, error) {
	for {
		h.net.mu.Lock()
		r := h.net.reach
		if r != network.ReachabilityUnknown {
			h.net.mu.Unlock()
			return r, nil
		}
		w := make(chan struct{})
		h.net.reachWaiters = append(h.net.reachWaiters, w)
		h.net.mu.Unlock()
		select {
		case <-w:
		case <-ctx.Done():
			return network.ReachabilityUnknown, fmt.Errorf("p2p: wait for reachability: %w", ctx.Err())
		}
	}
}

// connectBootstrap dials every bootstrap peer once at start (the DHT
// bootstraps through them; they are also relays when they offer to be).
func (n *netState) connectBootstrap() {
	n.mu.Lock()
	bootstrap := slices.Clone(n.bootstrap) // UseRelays may add more
	n.mu.Unlock()
	var wg sync.WaitGroup
	for _, ai := range bootstrap {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(n.ctx, BootstrapTimeout)
			defer cancel()
			if err := n.h.h.Connect(ctx, ai); err != nil {
				n.h.log.Warn("bootstrap peer unreachable", "peer", ShortID(ai.ID), "err", err)
				return
			}
			n.h.log.Debug("bootstrap peer connected", "peer", ShortID(ai.ID))
		}()
	}
	wg.Wait()
	n.mu.Lock()
	kad := n.kad
	n.mu.Unlock()
	if kad != nil {
		_ = kad.Bootstrap(n.ctx)
	}
}
