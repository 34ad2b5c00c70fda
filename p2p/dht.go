package p2p

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/discovery/routing"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/proto"
	"golang.org/x/crypto/blake2b"
)

// ErrNoDHT is returned by rendezvous calls on a host started with DHTOff.
var ErrNoDHT = errors.New("the DHT is off (Config.DHT)")

// startDHT joins the Kademlia DHT through the bootstrap peers. It speaks
// the public Amino DHT's protocol (DHTProtocol, kad-dht's defaults and
// record validators), so with PublicBootstrap a host is in the network
// IPFS runs on, and with a player's own --bootstrap list in a DHT of
// whoever those peers know (a test's simulated internet, say).
func (n *netState) startDHT(mode DHTMode) error {
	m := dht.ModeAuto
	switch mode {
	case DHTClient:
		m = dht.ModeClient
	case DHTServer:
		m = dht.ModeServer
	}
	kad, err := dht.New(n.h.h,
		dht.Mode(m),
		dht.BootstrapPeers(n.bootstrap...),
	)
	if err != nil {
		return fmt.Errorf("p2p: start DHT: %w", err)
	}
	n.mu.Lock()
	n.kad = kad
	relaying := n.relaySvc != nil
	n.mu.Unlock()
	if relaying {
		n.h.goTracked(func() { n.advertise(n.ctx, RelayRendezvous) })
	}
	return nil
}

// dht returns the DHT or ErrNoDHT.
func (h *Host) dht() (*dht.IpfsDHT, error) {
	h.net.mu.Lock()
	defer h.net.mu.Unlock()
	if h.net.kad == nil {
		return nil, fmt.Errorf("p2p: %w", ErrNoDHT)
	}
	return h.net.kad, nil
}

// RendezvousKey is the DHT namespace a rendezvous name maps to: a hash, so
// the name itself (a match name or code the players agreed on) is never
// published.
func RendezvousKey(name string) string {
	sum := blake2b.Sum256([]byte("salvo/rendezvous/1\x00" + name))
	return RendezvousPrefix + hex.EncodeToString(sum[:16])
}

// Advertise announces this host under a rendezvous name in the DHT and
// keeps the announcement fresh until ctx ends (it returns at once; the
// first announcement is retried until a DHT server takes it). Peers that
// call Rendezvous with the same name find this host.
func (h *Host) Advertise(ctx context.Context, name string) error {
	if _, err := h.dht(); err != nil {
		return err
	}
	if !h.goTracked(func() { h.net.advertise(ctx, RendezvousKey(name)) }) {
		return fmt.Errorf("p2p: advertise: host %w", ErrClosed)
	}
	return nil
}

// advertise provides ns in the DHT until ctx or the host ends, renewing
// before AdvertiseTTL and retrying failures (an empty routing table at
// start, say) every FindInterval.
func (n *netState) advertise(ctx context.Context, ns string) {
	ctx, cancel := mergeCtx(ctx, n.ctx)
	defer cancel()
	n.h.WaitHolePunchReady(ctx) // peers that find us will come through a relay
	retry := findFirst
	for {
		kad, err := n.h.dht()
		if err != nil {
			return
		}
		wait := retry
		retry = min(2*retry, FindInterval)
		// A DHT server keeps its own provider record even with an empty
		// routing table (a lone bootstrap peer that relays), so it
		// advertises at once; a client needs a server to take it.
		if kad.RoutingTable().Size() > 0 || kad.Mode() == dht.ModeServer {
			d := routing.NewRoutingDiscovery(kad)
			if _, err := d.Advertise(ctx, ns); err == nil {
				n.h.log.Debug("advertised", "ns", ns)
				wait = AdvertiseTTL * 3 / 4
			} else if ctx.Err() == nil {
				n.h.log.Debug("advertise failed", "ns", ns, "err", err)
			}
		}
		if !sleepCtx(ctx, wait) {
			return
		}
	}
}

// FindPeers asks the DHT once for the peers advertised under a rendezvous
// name (never this host).
func (h *Host) FindPeers(ctx context.Context, name string) ([]peer.AddrInfo, error) {
	return h.findNS(ctx, RendezvousKey(name))
}

func (h *Host) findNS(ctx context.Context, ns string) ([]peer.AddrInfo, error) {
	kad, err := h.dht()
	if err != nil {
		return nil, err
	}
	ch, err := routing.NewRoutingDiscovery(kad).FindPeers(ctx, ns)
	if err != nil {
		return nil, fmt.Errorf("p2p: find peers: %w", err)
	}
	var out []peer.AddrInfo
	for ai := range ch {
		if ai.ID == h.ID() || ai.ID == "" {
			continue
		}
		out = append(out, ai)
	}
	return out, nil
}

// Rendezvous waits until the DHT names a peer advertised under name (asking
// again every FindInterval), connects to it (directly or through one of its
// relays) and returns it. It fails when ctx ends first.
func (h *Host) Rendezvous(ctx context.Context, name string) (peer.AddrInfo, error) {
	wait := findFirst
	h.WaitHolePunchReady(ctx)
	for {
		peers, err := h.FindPeers(ctx, name)
		if errors.Is(err, ErrNoDHT) {
			return peer.AddrInfo{}, err
		}
		for _, ai := range peers {
			cctx, cancel := context.WithTimeout(ctx, BootstrapTimeout)
			err := h.h.Connect(cctx, ai)
			cancel()
			if err == nil {
				return ai, nil
			}
			h.log.Debug("rendezvous peer unreachable", "peer", ShortID(ai.ID), "err", err)
		}
		wait = min(2*wait, FindInterval)
		if !sleepCtx(ctx, wait) {
			return peer.AddrInfo{}, fmt.Errorf("p2p: rendezvous %q: no reachable peer found: %w", name, ctx.Err())
		}
	}
}

// FindPeer looks a peer's current addresses up in the DHT (for an invite
// whose addresses went stale) and adds them to the peerstore.
func (h *Host) FindPeer(ctx context.Context, id peer.ID) (peer.AddrInfo, error) {
	kad, err := h.dht()
	if err != nil {
		return peer.AddrInfo{}, err
	}
	ai, err := kad.FindPeer(ctx, id)
	if err != nil {
		return peer.AddrInfo{}, fmt.Errorf("p2p: find %s in the DHT: %w", id, err)
	}
	h.h.Peerstore().AddAddrs(id, ai.Addrs, time.Hour)
	return ai, nil
}

// FindRelays asks the DHT for Salvo peers that offer to relay.
func (h *Host) FindRelays(ctx context.Context) ([]peer.AddrInfo, error) {
	return h.findNS(ctx, RelayRendezvous)
}

// findFirst is the first wait between DHT attempts; it doubles up to
// FindInterval.
const findFirst = 100 * time.Millisecond

// mergeCtx is a context that ends when either a or b does.
func mergeCtx(a, b context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(a)
	stop := context.AfterFunc(b, cancel)
	return ctx, func() { stop(); cancel() }
}

// PublicBootstrap is the public Amino DHT's standard bootstrap list
// (kad-dht's DefaultBootstrapPeers, /dnsaddr names of libp2p's bootstrap
// nodes), as Config.Bootstrap takes it: what a host uses when the player
// gave no --bootstrap and did not ask to stay on the LAN. A test host
// refuses it (the test network guard): tests pass their own list.
func PublicBootstrap() []string {
	out := make([]string, 0, len(dht.DefaultBootstrapPeers))
	for _, a := range dht.DefaultBootstrapPeers {
		out = append(out, a.String())
	}
	return out
}

// Findable reports whether a joiner holding only this host's peer ID can
// find it through the DHT: the host is in the DHT (its routing table has
// peers, which hold its addresses and answer lookups of its ID) and has
// an address others can dial, a public one or a relay reservation.
func (h *Host) Findable() bool {
	kad, err := h.dht()
	if err != nil || kad.RoutingTable().Size() == 0 {
		return false
	}
	return h.Reachability() == network.ReachabilityPublic || len(h.RelayAddrs()) > 0
}

// ShortInviteCode is this host's short invite code (EncodeShortInvite)
// when it is Findable, else "" and false: the long code (InviteCode) is
// then the way in.
func (h *Host) ShortInviteCode() (string, bool) {
	if !h.Findable() {
		return "", false
	}
	code, err := EncodeShortInvite(h.ID())
	return code, err == nil
}

// findInvitee looks the host of a short code up in the DHT, asking again
// with backoff (the DHT may still be filling, or the host not yet
// announced) until it has addresses or ctx ends.
func (h *Host) findInvitee(ctx context.Context, id peer.ID) (peer.AddrInfo, error) {
	if _, err := h.dht(); err != nil {
		return peer.AddrInfo{}, fmt.Errorf("a short code is looked up in the public DHT, and this peer is LAN-only: ask the host for the long code: %w", err)
	}
	wait := DialRetryFirst
	for {
		ai, err := h.lookUpAddrs(ctx, id)
		if err == nil && len(ai.Addrs) > 0 {
			return ai, nil
		}
		h.log.Info("host of the short code not found in the DHT yet", "peer", ShortID(id), "retry_in", wait, "err", err)
		if !sleepCtx(ctx, wait) {
			return peer.AddrInfo{}, fmt.Errorf("not found in the DHT (is the host still hosting, and online?): %w", ctx.Err())
		}
		wait = min(2*wait, DialRetryMax)
	}
}

// lookUpAddrs runs one DHT lookup of id and stops it as soon as a DHT
// peer has named addresses for id: kad-dht's FindPeer would go on to dial
// them itself, and a dial of a NATed host's public address (dropped by
// its router) holds the very port pair that DCUtR's simultaneous open
// needs a moment later, and keeps the lookup waiting for its timeout.
func (h *Host) lookUpAddrs(ctx context.Context, id peer.ID) (peer.AddrInfo, error) {
	ps := h.h.Peerstore()
	if len(ps.Addrs(id)) > 0 {
		return ps.PeerInfo(id), nil
	}
	fctx, cancel := context.WithTimeout(ctx, dialAttempt)
	defer cancel()
	go func() {
		for len(ps.Addrs(id)) == 0 && sleepCtx(fctx, 20*time.Millisecond) {
		}
		cancel()
	}()
	ai, err := h.FindPeer(fctx, id)
	if found := ps.PeerInfo(id); len(found.Addrs) > 0 {
		return found, nil
	}
	return ai, err
}

// RelayCandidates is the DHT's side of finding relays, in the form of
// autorelay's peer source (libp2p.EnableAutoRelayWithPeerSource): it
// sends up to num peers that may relay for this host and closes the
// channel. First the Salvo relays advertised in the DHT (RelayRendezvous),
// then the DHT peers this host knows that offer circuit relay v2 (on the
// public network many IPFS nodes do, with libp2p's short default limits;
// the session's resume moves a match from one circuit to the next).
func (h *Host) RelayCandidates(ctx context.Context, num int) <-chan peer.AddrInfo {
	out := make(chan peer.AddrInfo, max(num, 0))
	defer close(out)
	seen := map[peer.ID]bool{h.ID(): true}
	send := func(ai peer.AddrInfo) bool {
		if len(out) == cap(out) {
			return false
		}
		if !seen[ai.ID] {
			seen[ai.ID] = true
			out <- ai
		}
		return true
	}
	fctx, cancel := context.WithTimeout(ctx, BootstrapTimeout)
	found, _ := h.FindRelays(fctx)
	cancel()
	for _, ai := range found {
		if !send(ai) {
			return out
		}
	}
	kad, err := h.dht()
	if err != nil {
		return out
	}
	ps := h.h.Peerstore()
	for _, p := range kad.RoutingTable().ListPeers() {
		if ok, _ := ps.SupportsProtocols(p, proto.ProtoIDv2Hop); len(ok) == 0 {
			continue
		}
		if !send(ps.PeerInfo(p)) {
			return out
		}
	}
	return out
}
