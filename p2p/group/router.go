package group

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/identify"
	ma "github.com/multiformats/go-multiaddr"
	"github.com/salvo-game/salvo/p2p"
)

// ErrClosed is returned by operations on a closed Router or Topic.
var ErrClosed = errors.New("group: closed")

// Config configures NewRouter. The zero value is usable.
type Config struct {
	// Logger receives this package's logs and gossipsub's own; nil
	// discards them.
	Logger *slog.Logger
	// Liveness probes every other player of a topic (Topic.Away); zero
	// fields are p2p's house values.
	Liveness p2p.Liveness
}

// Router is the pubsub (gossipsub) router of one libp2p host. Make one per
// host and keep it for the host's life: gossipsub registers its stream
// protocols on the host. It is safe for concurrent use.
type Router struct {
	h      host.Host
	ps     *pubsub.PubSub
	cancel context.CancelFunc
	log    *slog.Logger
	live   p2p.Liveness

	mu     sync.Mutex
	closed bool
	topics map[string]*Topic
}

// NewRouter starts gossipsub on h, with flood publishing (a peer sends its
// own frames straight to every subscriber it knows) and strict message
// signing.
func NewRouter(h host.Host, cfg Config) (*Router, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ps, err := pubsub.NewGossipSub(ctx, h,
		pubsub.WithFloodPublish(true),
		pubsub.WithMessageSignaturePolicy(pubsub.StrictSign),
		pubsub.WithLogger(log.With("component", "gossipsub")),
		pubsub.WithRPCLogger(slog.New(slog.DiscardHandler)),
	)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("group: start gossipsub: %w", err)
	}
	return &Router{h: h, ps: ps, cancel: cancel, log: log.With("component", "group", "self", p2p.ShortID(h.ID())), live: cfg.Liveness, topics: map[string]*Topic{}}, nil
}

// Host returns the libp2p host the router runs on.
func (r *Router) Host() host.Host { return r.h }

// ID is the local peer ID.
func (r *Router) ID() peer.ID { return r.h.ID() }

// identifier is what a go-libp2p basic host offers to wait for identify.
type identifier interface {
	IDService() identify.IDService
}

// Addrs returns the addresses known for p, without the /p2p/ suffix: for
// the local host its listen addresses; for a connected peer, once identify
// has run on its connections (or ctx ends), what the peerstore holds,
// which then includes the addresses it listens on and not only the one
// its connection came from.
func (r *Router) Addrs(ctx context.Context, p peer.ID) []ma.Multiaddr {
	if p == r.h.ID() {
		return r.h.Addrs()
	}
	if id, ok := r.h.(identifier); ok {
		for _, c := range r.h.Network().ConnsToPeer(p) {
			select {
			case <-id.IDService().IdentifyWait(c):
			case <-ctx.Done():
			}
		}
	}
	return r.h.Peerstore().Addrs(p)
}

// Connect dials p at addrs, unless it is the local host or already
// connected.
func (r *Router) Connect(ctx context.Context, p peer.ID, addrs []ma.Multiaddr) error {
	if p == r.h.ID() {
		return nil
	}
	if err := r.h.Connect(ctx, peer.AddrInfo{ID: p, Addrs: addrs}); err != nil {
		return fmt.Errorf("group: connect to %s: %w", p2p.ShortID(p), err)
	}
	return nil
}

// TopicName is the pubsub topic of the match with the given ID.
func TopicName(match string) string { return TopicPrefix + match }

// Join subscribes to the topic of match, whose players (the local peer
// among them) are the only authors it accepts.
func (r *Router) Join(match string, players []peer.ID) (*Topic, error) {
	name := TopicName(match)
	allowed := map[peer.ID]bool{}
	var others []peer.ID
	self := false
	for _, p := range players {
		if err := p.Validate(); err != nil {
			return nil, fmt.Errorf("group: join %s: player %q: %w", name, p, err)
		}
		if allowed[p] {
			return nil, fmt.Errorf("group: join %s: player %s listed twice", name, p2p.ShortID(p))
		}
		allowed[p] = true
		if p == r.h.ID() {
			self = true
		} else {
			others = append(others, p)
		}
	}
	if !self {
		return nil, fmt.Errorf("group: join %s: this peer is not one of its players", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if _, busy := r.topics[name]; busy {
		return nil, fmt.Errorf("group: already in %s", name)
	}
	t := newTopic(r, name, allowed, others)
	if err := r.ps.RegisterTopicValidator(name, t.validate, pubsub.WithValidatorInline(true)); err != nil {
		return nil, fmt.Errorf("group: join %s: %w", name, err)
	}
	pt, err := r.ps.Join(name)
	if err != nil {
		_ = r.ps.UnregisterTopicValidator(name)
		return nil, fmt.Errorf("group: join %s: %w", name, err)
	}
	sub, err := pt.Subscribe(pubsub.WithBufferSize(SubscriptionBuffer))
	if err != nil {
		_ = pt.Close()
		_ = r.ps.UnregisterTopicValidator(name)
		return nil, fmt.Errorf("group: subscribe %s: %w", name, err)
	}
	t.start(pt, sub)
	r.topics[name] = t
	for _, p := range others {
		// Keep the connections to the other players through the match,
		// whatever else the host is connected to.
		r.h.ConnManager().Protect(p, name)
	}
	r.log.Debug("joined", "topic", name, "players", len(players))
	return t, nil
}

// leave forgets a closed topic.
func (r *Router) leave(t *Topic) error {
	r.mu.Lock()
	if r.topics[t.name] == t {
		delete(r.topics, t.name)
	}
	r.mu.Unlock()
	for _, p := range t.others {
		r.h.ConnManager().Unprotect(p, t.name)
	}
	var errs []error
	if err := t.pt.Close(); err != nil {
		errs = append(errs, err)
	}
	if err := r.ps.UnregisterTopicValidator(t.name); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("group: leave %s: %w", t.name, err)
	}
	return nil
}

// Close closes every topic still joined and stops gossipsub. The host is
// the caller's to close.
func (r *Router) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	topics := make([]*Topic, 0, len(r.topics))
	for _, t := range r.topics {
		topics = append(topics, t)
	}
	r.mu.Unlock()
	var errs []error
	for _, t := range topics {
		errs = append(errs, t.Close())
	}
	r.cancel()
	return errors.Join(errs...)
}
