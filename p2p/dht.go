package p2p

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	dht "github.com/libp2p/go-libp2p-kad-dht"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/discovery/routing"
	"golang.org/x/crypto/blake2b"
)

// ErrNoDHT is returned by rendezvous calls on a host started with DHTOff.
var ErrNoDHT = errors.New("the DHT is off (Config.DHT)")

// startDHT joins the Salvo DHT (its own protocol prefix, so only Salvo
// peers take part) through the bootstrap peers.
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
		dht.ProtocolPrefix(DHTProtocolPrefix),
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
