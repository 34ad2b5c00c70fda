package p2p

import (
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	rcmgr "github.com/libp2p/go-libp2p/p2p/host/resource-manager"
)

// Limits against a hostile peer. A stream someone opens to this host costs
// memory before it has proved anything; these bound that cost, per peer
// and in all, so that no peer (nor many identities of one attacker) can
// end or wedge the host, and an honest joiner still gets through.
const (
	// MaxFirstFrame bounds the first frame of a handshake (a join, an
	// invitation, a resume): a few hundred bytes when honest.
	MaxFirstFrame = 4 << 10
	// PendingPerPeer is how many incoming match and resume streams one
	// peer may have open before their first frame arrived; an honest peer
	// has one or two. More are reset at once.
	PendingPerPeer = 8
	// PendingTotal is how many such streams all peers together may have.
	PendingTotal = 256
)

// Copies of the limits tests change; read when a Host starts.
var (
	pendingPerPeer = PendingPerPeer
	pendingTotal   = PendingTotal
)

// protocolLimit is what the libp2p resource manager allows one of Salvo's
// protocols: in all, and per peer.
type protocolLimit struct {
	id           protocol.ID
	all, perPeer rcmgr.BaseLimit
}

// protocolLimits are Salvo's own protocols' limits in the resource
// manager, which refuses a stream over them before any handler runs. A
// match needs one stream per peer (two while a resume replaces it); a lobby
// may queue IncomingBuffer joiners. Memory covers the muxer's windows for
// frames up to MaxFrame.
var protocolLimits = []protocolLimit{
	{MatchProtocol,
		rcmgr.BaseLimit{StreamsInbound: 512, StreamsOutbound: 512, Streams: 1024, Memory: 256 << 20},
		rcmgr.BaseLimit{StreamsInbound: 2 * IncomingBuffer, StreamsOutbound: 2 * IncomingBuffer, Streams: 4 * IncomingBuffer, Memory: 32 << 20}},
	{ResumeProtocol,
		rcmgr.BaseLimit{StreamsInbound: 256, StreamsOutbound: 256, Streams: 512, Memory: 128 << 20},
		rcmgr.BaseLimit{StreamsInbound: 8, StreamsOutbound: 8, Streams: 16, Memory: 32 << 20}},
	{InfoProtocol,
		rcmgr.BaseLimit{StreamsInbound: 128, StreamsOutbound: 128, Streams: 256, Memory: 16 << 20},
		rcmgr.BaseLimit{StreamsInbound: 4, StreamsOutbound: 4, Streams: 8, Memory: 4 << 20}},
}

// newResourceManager is libp2p's default resource manager (its scaled
// default limits and its services' limits) with limits for Salvo's own
// protocols added.
func newResourceManager() (network.ResourceManager, error) {
	cfg := rcmgr.DefaultLimits // its protocol maps are nil: the Add calls below make this copy's own
	libp2p.SetDefaultServiceLimits(&cfg)
	for _, l := range protocolLimits {
		cfg.AddProtocolLimit(l.id, l.all, rcmgr.BaseLimitIncrease{})
		cfg.AddProtocolPeerLimit(l.id, l.perPeer, rcmgr.BaseLimitIncrease{})
	}
	rm, err := rcmgr.NewResourceManager(rcmgr.NewFixedLimiter(cfg.AutoScale()))
	if err != nil {
		return nil, fmt.Errorf("resource manager: %w", err)
	}
	return rm, nil
}

// pendingGate counts incoming streams still waiting for their first frame,
// per peer and in all.
type pendingGate struct {
	mu              sync.Mutex
	perPeer         map[peer.ID]int
	total           int
	maxPeer, maxAll int
}

func newPendingGate(maxPeer, maxAll int) *pendingGate {
	return &pendingGate{perPeer: map[peer.ID]int{}, maxPeer: maxPeer, maxAll: maxAll}
}

// enter takes a place for a stream of p, or reports that p or everyone
// together already has too many.
func (g *pendingGate) enter(p peer.ID) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.perPeer[p] >= g.maxPeer:
		return fmt.Errorf("%s already has %d streams waiting for their first frame", ShortID(p), g.maxPeer)
	case g.total >= g.maxAll:
		return fmt.Errorf("%d streams already wait for their first frame", g.maxAll)
	}
	g.perPeer[p]++
	g.total++
	return nil
}

// leave gives back a place enter took.
func (g *pendingGate) leave(p peer.ID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total--
	if g.perPeer[p]--; g.perPeer[p] <= 0 {
		delete(g.perPeer, p)
	}
}
