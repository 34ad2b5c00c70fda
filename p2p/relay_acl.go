package p2p

import (
	"context"
	"net"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	ma "github.com/multiformats/go-multiaddr"
	manet "github.com/multiformats/go-multiaddr/net"
	"golang.org/x/time/rate"
)

// A Salvo relay serves Salvo peers only: a relay that joins a public DHT
// would otherwise carry the traffic of any libp2p node that finds it.
// A Salvo peer is one whose identify lists MatchProtocol, as every Salvo
// host's does from its start. That is a claim, not a proof: a program
// written to look like Salvo passes. It keeps the general libp2p
// network off the relay; the limits (RelayLimits) and the per-peer and
// per-IP reservation rates below bound what a pretender gets.

// RelayIdentifyWait bounds how long the relay waits for identify to tell it
// a peer's protocols before deciding on its request.
const RelayIdentifyWait = 5 * time.Second

// relayACL is the relay's access filter (libp2p's relay.ACLFilter).
type relayACL struct {
	h   host.Host
	log interface {
		Info(msg string, args ...any)
	}
	peers, ips *reserveRate
}

func newRelayACL(h *Host, lim RelayLimits) *relayACL {
	return &relayACL{
		h: h.h, log: h.log,
		peers: newReserveRate(lim.ReserveBurst, lim.ReserveEvery),
		// An IP address may be a home with several players: it gets the
		// rate of MaxReservationsPerIP peers.
		ips: newReserveRate(lim.ReserveBurst*lim.MaxReservationsPerIP, lim.ReserveEvery/time.Duration(lim.MaxReservationsPerIP)),
	}
}

// AllowReserve admits a reservation request from a Salvo peer within its
// own rate and its IP address's.
func (a *relayACL) AllowReserve(p peer.ID, addr ma.Multiaddr) bool {
	if !a.isSalvo(p) {
		a.log.Info("relay: reservation refused, not a Salvo peer", "peer", ShortID(p))
		return false
	}
	now := time.Now()
	// Both buckets pay: a peer changing IPs, or many peers behind one IP,
	// is held back either way.
	okPeer := a.peers.allow(string(p), now)
	okIP := a.ips.allow(ipKey(addr), now)
	if !okPeer || !okIP {
		a.log.Info("relay: reservation refused, too many requests", "peer", ShortID(p), "peer_ok", okPeer, "ip_ok", okIP)
		return false
	}
	return true
}

// AllowConnect admits a circuit opened by a Salvo peer (the peer it goes
// to holds a reservation, so it passed AllowReserve).
func (a *relayACL) AllowConnect(src peer.ID, _ ma.Multiaddr, dest peer.ID) bool {
	if !a.isSalvo(src) {
		a.log.Info("relay: circuit refused, not a Salvo peer", "from", ShortID(src), "to", ShortID(dest))
		return false
	}
	return true
}

// isSalvo waits (at most RelayIdentifyWait) for identify on p's
// connections and reports whether p lists MatchProtocol.
func (a *relayACL) isSalvo(p peer.ID) bool {
	if ids, ok := a.h.(interface{ IDService() identify.IDService }); ok {
		ctx, cancel := context.WithTimeout(context.Background(), RelayIdentifyWait)
		defer cancel()
		for _, c := range a.h.Network().ConnsToPeer(p) {
			select {
			case <-ids.IDService().IdentifyWait(c):
			case <-ctx.Done():
			}
		}
	}
	protos, err := a.h.Peerstore().SupportsProtocols(p, MatchProtocol)
	return err == nil && len(protos) > 0
}

// ipKey is the rate key of an address: its IPv4 address, or its IPv6 /64
// (one home or one server gets a whole /64, so single IPv6 addresses
// would cost an attacker nothing).
func ipKey(a ma.Multiaddr) string {
	ip, err := manet.ToIP(a)
	if err != nil {
		return a.String()
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}

// maxRateKeys bounds the keys a reserveRate remembers; past it the idle
// ones are dropped first, and a new key is refused while none is idle
// (the flood then waits like everyone else).
const maxRateKeys = 4096

// reserveRate is a token bucket per key (a peer, an IP address): burst
// requests at once, then one every every.
type reserveRate struct {
	burst int
	every time.Duration

	mu      sync.Mutex
	buckets map[string]*rateBucket
}

type rateBucket struct {
	lim  *rate.Limiter
	last time.Time
}

func newReserveRate(burst int, every time.Duration) *reserveRate {
	return &reserveRate{burst: burst, every: every, buckets: map[string]*rateBucket{}}
}

// allow takes one token of key's bucket, if there is one.
func (r *reserveRate) allow(key string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.buckets[key]
	if b == nil {
		if len(r.buckets) >= maxRateKeys && !r.dropIdle(now) {
			return false
		}
		b = &rateBucket{lim: rate.NewLimiter(rate.Every(r.every), r.burst)}
		r.buckets[key] = b
	}
	b.last = now
	return b.lim.AllowN(now, 1)
}

// dropIdle forgets the buckets that have refilled (a full bucket is the
// same as none); it reports whether any went.
func (r *reserveRate) dropIdle(now time.Time) bool {
	full := r.every * time.Duration(r.burst)
	n := len(r.buckets)
	for k, b := range r.buckets {
		if now.Sub(b.last) >= full {
			delete(r.buckets, k)
		}
	}
	return len(r.buckets) < n
}
