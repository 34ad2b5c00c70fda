package group

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/salvo-game/salvo/p2p"
)

// ErrFrameTooLarge is returned by Send for a frame over MaxFrame.
var ErrFrameTooLarge = errors.New("frame too large")

// ErrAllLeft is returned by RecvFrom, once the frames already received are
// read, when every other player has left the topic (after all of them had
// been seen on it).
var ErrAllLeft = errors.New("every other player left the match topic")

// Stats counts what went through a topic.
type Stats struct {
	Sent, Received       int   // frames published / delivered to Recv
	BytesSent, BytesRecv int64 // their bytes
	Rejected             int   // frames the validator refused (non-player author, oversize)
	Dropped              int   // frames dropped because their author's queue was full
	OwnSeen              int   // own frames echoed back by pubsub and dropped
	Fetched              int   // frames missed on the topic and delivered by Deliver
	MaxQueued            int   // the longest the queue has been
}

// Topic is one match's pubsub topic, joined: a fairness.GroupTransport.
// Send and RecvFrom may be called concurrently.
type Topic struct {
	r       *Router
	name    string
	allowed map[peer.ID]bool
	others  []peer.ID
	pt      *pubsub.Topic
	sub     *pubsub.Subscription
	stop    context.CancelFunc
	done    chan struct{} // closed when the reader and the watcher end

	mu     sync.Mutex
	inbox  *inbox
	ready  chan struct{} // signalled when the queue grows or the reader ends
	err    error         // why the reader ended
	left   bool          // every other player left
	all    bool          // every other player has been seen on the topic
	closed bool
	stats  Stats
	// Presence of each other player (see Away): seen on the topic at
	// least once, unanswered pings since when, away since when.
	seen map[peer.ID]bool
	deaf map[peer.ID]time.Time
	away map[peer.ID]time.Time

	closeOnce sync.Once
	closeErr  error
}

func newTopic(r *Router, name string, allowed map[peer.ID]bool, others []peer.ID) *Topic {
	return &Topic{r: r, name: name, allowed: allowed, others: others, inbox: newInbox(QueuePerAuthor, QueueBytesPerAuthor), ready: make(chan struct{}, 1), done: make(chan struct{}),
		seen: map[peer.ID]bool{}, deaf: map[peer.ID]time.Time{}, away: map[peer.ID]time.Time{}}
}

func (t *Topic) start(pt *pubsub.Topic, sub *pubsub.Subscription) {
	t.pt, t.sub = pt, sub
	ctx, cancel := context.WithCancel(context.Background())
	t.stop = cancel
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); t.read(ctx) }()
	go func() { defer wg.Done(); t.watch(ctx) }()
	go func() { wg.Wait(); close(t.done) }()
	for _, p := range t.others {
		t.r.live.Watch(ctx, t.r.h, p, func(err error) { t.heard(p, err) })
		go t.keepConnected(ctx, p)
	}
}

// keepConnected dials player p again, with a growing wait between
// attempts, whenever the host has lost every connection to it after p was
// seen on the topic, until ctx ends. Gossipsub never dials: without this a
// player whose connection closed in a blip (a transport's keep-alive
// giving up during an outage) would stay gone for good, and forfeit at
// its next turn once the give-up time is over, though it is back. A dial
// uses the addresses the peerstore keeps for p (identify's).
func (t *Topic) keepConnected(ctx context.Context, p peer.ID) {
	wait := RedialFirst
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		t.mu.Lock()
		seen := t.seen[p]
		t.mu.Unlock()
		if !seen || t.r.h.Network().Connectedness(p) == network.Connected {
			wait = RedialFirst
			continue
		}
		dctx, cancel := context.WithTimeout(ctx, RedialTimeout)
		err := t.r.h.Connect(dctx, peer.AddrInfo{ID: p})
		cancel()
		if err == nil {
			t.r.log.Info("a lost player is connected again", "topic", t.name, "peer", p2p.ShortID(p))
			wait = RedialFirst
			continue
		}
		t.r.log.Debug("dialing a lost player failed", "topic", t.name, "peer", p2p.ShortID(p), "err", err)
		wait = min(2*wait, RedialMax)
	}
}

// watch notices when every other player has left the topic, once all of
// them had been on it: it waits LeftGrace first, so that frames still in
// gossipsub's pipeline are delivered before RecvFrom reports it. A player
// has left when it unsubscribed while still connected (it closed the
// topic); one whose connections were lost (a cut link, a killed process)
// may come back, or be restarted and resume, so it is not counted as
// gone here: the session gives up on it after the give-up time.
func (t *Topic) watch(ctx context.Context) {
	tick := time.NewTicker(PollInterval)
	defer tick.Stop()
	var emptySince time.Time
	departed := map[peer.ID]bool{}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		in := t.Peers()
		t.present(in)
		if len(in) == len(t.others) {
			t.sawAll()
		}
		n := t.staying(in, departed)
		t.mu.Lock()
		seenAll := t.all
		t.mu.Unlock()
		switch {
		case n > 0 || !seenAll:
			emptySince = time.Time{}
		case emptySince.IsZero():
			emptySince = time.Now()
		case time.Since(emptySince) >= LeftGrace:
			t.mu.Lock()
			t.left = true
			t.mu.Unlock()
			t.signal()
			t.r.log.Debug("every other player left", "topic", t.name)
			return
		}
	}
}

// staying counts the other players that have not left the topic: those
// subscribed now (in), and those whose connections were lost without
// their unsubscribing first. departed remembers who left, from one call
// to the next.
func (t *Topic) staying(in []peer.ID, departed map[peer.ID]bool) int {
	on := map[peer.ID]bool{}
	for _, p := range in {
		on[p] = true
	}
	n := 0
	for _, p := range t.others {
		switch {
		case on[p]:
			departed[p] = false
		case t.r.h.Network().Connectedness(p) == network.Connected:
			departed[p] = true
		}
		if !departed[p] {
			n++
		}
	}
	return n
}

// heard takes a liveness probe's outcome for player p. A player whose
// connection stays open but no longer answers (killed behind a NAT, its
// link cut) counts as away: pubsub would keep it subscribed until the
// transport gives up, 30 s and more. Its connection is left alone: if the
// link comes back, the frames queued on it still arrive.
func (t *Topic) heard(p peer.ID, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch _, deaf := t.deaf[p]; {
	case err == nil:
		delete(t.deaf, p)
	case !deaf:
		t.deaf[p] = time.Now()
		t.r.log.Info("a player does not answer", "topic", t.name, "peer", p2p.ShortID(p), "err", err)
	}
}

// present updates every other player's presence from the players seen
// subscribed now (in) and the liveness probes.
func (t *Topic) present(in []peer.ID) {
	now := time.Now()
	on := map[peer.ID]bool{}
	for _, p := range in {
		on[p] = true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, p := range t.others {
		if on[p] {
			t.seen[p] = true
		}
		deafSince, deaf := t.deaf[p]
		left := t.seen[p] && !on[p]
		switch {
		case !left && !deaf:
			delete(t.away, p)
		case !t.away[p].IsZero():
		case deaf:
			t.away[p] = deafSince
		default:
			t.away[p] = now
			t.r.log.Info("a player left the topic", "topic", t.name, "peer", p2p.ShortID(p))
		}
	}
}

// Away lists the other players that are gone now, with the moment each
// went: a player seen on the topic that is no longer subscribed (it left,
// or its connection closed), or one whose connection stopped answering
// pings. A player that comes back is no longer listed.
func (t *Topic) Away() map[peer.ID]time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[peer.ID]time.Time, len(t.away))
	for p, at := range t.away {
		out[p] = at
	}
	return out
}

// Name is the pubsub topic name.
func (t *Topic) Name() string { return t.name }

// validate is the topic validator: only players author frames, and no
// frame is over MaxFrame. It runs for the local peer's own frames too.
func (t *Topic) validate(_ context.Context, _ peer.ID, msg *pubsub.Message) pubsub.ValidationResult {
	author := msg.GetFrom()
	if !t.allowed[author] || len(msg.GetData()) > MaxFrame {
		t.mu.Lock()
		t.stats.Rejected++
		t.mu.Unlock()
		t.r.log.Debug("frame rejected", "topic", t.name, "author", p2p.ShortID(author), "bytes", len(msg.GetData()))
		return pubsub.ValidationReject
	}
	return pubsub.ValidationAccept
}

// read drains the subscription into the queue.
func (t *Topic) read(ctx context.Context) {
	self := t.r.h.ID()
	for {
		msg, err := t.sub.Next(ctx)
		if err != nil {
			t.mu.Lock()
			if t.err == nil {
				t.err = err
			}
			t.mu.Unlock()
			t.signal()
			return
		}
		author := msg.GetFrom()
		t.mu.Lock()
		switch {
		case author == self:
			t.stats.OwnSeen++
		case !t.inbox.push(inbound{data: msg.GetData(), from: author}):
			t.stats.Dropped++
			t.r.log.Warn("frame dropped: its author's queue is full", "topic", t.name, "author", p2p.ShortID(author))
		}
		t.stats.MaxQueued = t.inbox.max
		t.mu.Unlock()
		t.signal()
	}
}

func (t *Topic) signal() {
	select {
	case t.ready <- struct{}{}:
	default:
	}
}

// Deliver queues a frame for RecvFrom as if author had published it: a
// frame this peer missed on the topic and took back from another player
// (the session's fetch protocol, which delivers only envelopes signed by
// the author it names). It is bounded as every author's frames are; it
// reports false when the frame was dropped.
func (t *Topic) Deliver(frame []byte, author peer.ID) bool {
	t.mu.Lock()
	ok := !t.closed && t.inbox.push(inbound{data: frame, from: author})
	if ok {
		t.stats.Fetched++
	}
	t.mu.Unlock()
	if ok {
		t.signal()
	}
	return ok
}

// Host is the libp2p host of the topic's router.
func (t *Topic) Host() host.Host { return t.r.h }

// Send publishes one frame to the other players.
func (t *Topic) Send(ctx context.Context, frame []byte) error {
	if len(frame) > MaxFrame {
		return fmt.Errorf("group: send on %s: %w: %d bytes, limit %d", t.name, ErrFrameTooLarge, len(frame), MaxFrame)
	}
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	if closed {
		return fmt.Errorf("group: send on %s: %w", t.name, ErrClosed)
	}
	if err := t.pt.Publish(ctx, frame); err != nil {
		return fmt.Errorf("group: send on %s: %w", t.name, err)
	}
	t.mu.Lock()
	t.stats.Sent++
	t.stats.BytesSent += int64(len(frame))
	t.mu.Unlock()
	return nil
}

// Recv returns the next frame from another player.
func (t *Topic) Recv(ctx context.Context) ([]byte, error) {
	b, _, err := t.RecvFrom(ctx)
	return b, err
}

// RecvFrom returns the next frame from another player and its author's
// peer ID. After Close, or once gossipsub stops, it returns an error
// wrapping ErrClosed; once every other player has left (and every frame
// received is read), one wrapping ErrAllLeft.
func (t *Topic) RecvFrom(ctx context.Context) ([]byte, string, error) {
	for {
		t.mu.Lock()
		if in, ok := t.inbox.pop(); ok {
			t.stats.Received++
			t.stats.BytesRecv += int64(len(in.data))
			t.mu.Unlock()
			return in.data, in.from.String(), nil
		}
		if t.closed || t.err != nil {
			err := t.err
			t.mu.Unlock()
			return nil, "", fmt.Errorf("group: receive on %s: %w (%v)", t.name, ErrClosed, err)
		}
		if t.left {
			t.mu.Unlock()
			return nil, "", fmt.Errorf("group: receive on %s: %w", t.name, ErrAllLeft)
		}
		t.mu.Unlock()
		select {
		case <-t.ready:
		case <-ctx.Done():
			return nil, "", fmt.Errorf("group: receive on %s: %w", t.name, ctx.Err())
		}
	}
}

// Peers lists the other players this peer currently sees subscribed.
func (t *Topic) Peers() []peer.ID {
	var out []peer.ID
	in := map[peer.ID]bool{}
	for _, p := range t.pt.ListPeers() {
		in[p] = true
	}
	for _, p := range t.others {
		if in[p] {
			out = append(out, p)
		}
	}
	return out
}

// missing lists the other players not seen subscribed.
func (t *Topic) missing() []peer.ID {
	seen := map[peer.ID]bool{}
	for _, p := range t.Peers() {
		seen[p] = true
	}
	var out []peer.ID
	for _, p := range t.others {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// WaitPeers blocks until this peer sees every other player subscribed: from
// then on its frames go straight to all of them. The error names the
// players still missing.
func (t *Topic) WaitPeers(ctx context.Context) error {
	tick := time.NewTicker(PollInterval)
	defer tick.Stop()
	for {
		miss := t.missing()
		if len(miss) == 0 {
			t.sawAll()
			return nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			names := make([]string, len(miss))
			for i, p := range miss {
				names[i] = fmt.Sprintf("%s (%s)", p, strings.ToLower(t.r.h.Network().Connectedness(p).String()))
			}
			return fmt.Errorf("group: %s: players not seen on the topic: %s: %w", t.name, strings.Join(names, ", "), ctx.Err())
		}
	}
}

// sawAll records that every other player has been seen on the topic.
func (t *Topic) sawAll() {
	t.mu.Lock()
	t.all = true
	for _, p := range t.others {
		t.seen[p] = true
	}
	t.mu.Unlock()
}

// Linger waits until no other player is subscribed any more (each leaves
// once its referee is done, so it has every frame it needs), at most d or
// until ctx ends.
func (t *Topic) Linger(ctx context.Context, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	tick := time.NewTicker(PollInterval)
	defer tick.Stop()
	for len(t.Peers()) > 0 {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return
		}
	}
}

// Stats returns what went through the topic so far.
func (t *Topic) Stats() Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.stats
}

// Close leaves the topic: the subscription ends (RecvFrom returns
// ErrClosed), the other players see this peer leave, and the topic's name
// may be joined again. It is idempotent.
func (t *Topic) Close() error {
	t.closeOnce.Do(func() {
		t.mu.Lock()
		t.closed = true
		t.mu.Unlock()
		t.sub.Cancel()
		t.stop()
		<-t.done
		t.signal()
		t.closeErr = t.r.leave(t)
	})
	return t.closeErr
}
