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
	// PendingTotal is how many such streams all peers together may have;
	// past it, a new one replaces the oldest of the peer with the most
	// (see Admission).
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

// Admission bounds a kind of work strangers can make this host do (streams
// waiting for their first frame, handshakes running): at most perPeer items
// per peer, at most all in all. A full table does not lock newcomers out,
// which would let a few identities wedge the host: a new item takes the
// place of the oldest item of the peer holding the most, so an honest peer,
// with one item and quick to finish it, gets through a flood. It is safe
// for concurrent use.
type Admission[T comparable] struct {
	mu           sync.Mutex
	byPeer       map[peer.ID][]T // oldest first
	total        int
	perPeer, all int
}

// NewAdmission makes an Admission of perPeer items per peer and all in all.
func NewAdmission[T comparable](perPeer, all int) *Admission[T] {
	return &Admission[T]{byPeer: map[peer.ID][]T{}, perPeer: perPeer, all: all}
}

// Enter admits item of peer p. It refuses one over p's own limit. When the
// table is full it makes room by evicting another item, which it returns
// (evicted true): the caller ends that one (its Leave is then a no-op).
func (a *Admission[T]) Enter(p peer.ID, item T) (old T, evicted bool, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.byPeer[p]) >= a.perPeer {
		return old, false, fmt.Errorf("%s already has %d waiting", ShortID(p), a.perPeer)
	}
	if a.total >= a.all {
		old, evicted = a.evictLocked()
	}
	a.byPeer[p] = append(a.byPeer[p], item)
	a.total++
	return old, evicted, nil
}

// evictLocked removes the oldest item of the peer with the most.
func (a *Admission[T]) evictLocked() (T, bool) {
	var most peer.ID
	for p, items := range a.byPeer {
		if len(items) > len(a.byPeer[most]) {
			most = p
		}
	}
	items := a.byPeer[most]
	if len(items) == 0 {
		var zero T
		return zero, false
	}
	a.remove(most, 0)
	return items[0], true
}

// Leave gives back the place of item of peer p, if it still holds one.
func (a *Admission[T]) Leave(p peer.ID, item T) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i, it := range a.byPeer[p] {
		if it == item {
			a.remove(p, i)
			return
		}
	}
}

func (a *Admission[T]) remove(p peer.ID, i int) {
	a.byPeer[p] = append(a.byPeer[p][:i:i], a.byPeer[p][i+1:]...)
	if len(a.byPeer[p]) == 0 {
		delete(a.byPeer, p)
	}
	a.total--
}
