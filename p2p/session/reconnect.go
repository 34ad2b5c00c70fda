package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// Reconnection house values.
const (
	// DefaultGiveUp is how long a match waits without any stream to the
	// other peer before that peer forfeits (ReconnectConfig.GiveUp).
	DefaultGiveUp = 2 * time.Minute
	// RedialFirst is the first wait between attempts to open a new stream;
	// it doubles up to RedialMax.
	RedialFirst = 100 * time.Millisecond
	RedialMax   = 5 * time.Second
	// ResumeTimeout bounds one attempt: dial, open and handshake.
	ResumeTimeout = 10 * time.Second
	// DefaultLinger is how long a finished match still answers a resume,
	// so a peer that lost the last message can fetch it.
	DefaultLinger = 10 * time.Second
	// DefaultForfeitLinger is how long a match that ended here by the
	// other peer's forfeit (it never came back, or left) still answers
	// that peer's resume, to hand over our signed closing record: a peer
	// that comes back late then records our word instead of claiming our
	// forfeit in turn.
	DefaultForfeitLinger = 30 * time.Minute
	// inboxSize is how many received frames wait for Recv.
	inboxSize = 64
)

// endFrame is the last frame a side sends when its match is over; a
// stream that ends without it was lost, not finished. The transport
// consumes it: the referee never sees it. A side that ended the match by
// recording the other's forfeit sends its signed closing record in it:
// {"t":"end","closing":{…}}.
var endFrame = []byte(`{"t":"end"}`)

// endBody is an end frame.
type endBody struct {
	T       string            `json:"t"`
	Closing *fairness.Closing `json:"closing,omitempty"`
}

// marshalEnd returns the end frame carrying closing record c.
func marshalEnd(c *fairness.Closing) ([]byte, error) {
	b, err := json.Marshal(endBody{T: "end", Closing: c})
	if err != nil {
		return nil, fmt.Errorf("session: end frame: %w", err)
	}
	return b, nil
}

// decodeEnd reads an end frame; ok is false for any other frame (an
// envelope), err set for an end frame that is malformed.
func decodeEnd(b []byte) (f endBody, ok bool, err error) {
	if !bytes.HasPrefix(b, []byte(`{"t":"end"`)) {
		return endBody{}, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return endBody{}, true, fmt.Errorf("session: malformed end frame: %w", err)
	}
	if dec.More() {
		return endBody{}, true, errors.New("session: malformed end frame: data after it")
	}
	// The other side writes the record into its own transcript as it
	// is: a detail near the frame's size could be written as a line over
	// the transcript's line bound (encoding/json writes U+2028, three
	// bytes in the frame, as a six-byte escape), and the record meant to
	// prove its writer's forfeit would no longer audit.
	if c := f.Closing; c != nil && len(c.Detail) > fairness.MaxDetail {
		return endBody{}, true, fmt.Errorf("session: malformed end frame: its closing record's detail is %d bytes, at most %d", len(c.Detail), fairness.MaxDetail)
	}
	return f, true, nil
}

// A Reconnecting tells its referee when the other side's end arrived.
var _ fairness.EndSeen = (*Reconnecting)(nil)

// KindReconnecting is what Reconnecting.Kind says while no stream is up.
const KindReconnecting = "reconnecting"

// ErrPeerGone means the other peer stayed unreachable for the whole
// give-up time; the referee records its forfeit.
var ErrPeerGone = errors.New("peer gone: no connection")

// ReconnectConfig says how a match survives lost streams.
type ReconnectConfig struct {
	// Dialer is true on the side that opened the first match stream: it
	// opens the new ones. The other side waits for them.
	Dialer bool
	// GiveUp is how long without a stream before Recv fails with
	// ErrPeerGone (the referee then writes the forfeit); 0 means
	// DefaultGiveUp.
	GiveUp time.Duration
	// Linger is how long after Close the match still answers resumes; 0
	// means DefaultLinger.
	Linger time.Duration
	// ForfeitLinger replaces Linger for a match that ended here by the
	// other peer's forfeit; 0 means DefaultForfeitLinger.
	ForfeitLinger time.Duration
	// Liveness probes the other peer with libp2p's ping while a stream is
	// up; a dead link is closed, so the match shows it is reconnecting
	// within seconds (zero fields: p2p's house values).
	Liveness p2p.Liveness
	Logger   *slog.Logger
}

// sentFrame is an envelope this side sent, kept to send again.
type sentFrame struct {
	seq uint64
	b   []byte
}

// Reconnecting is a match transport that outlives its streams: when the
// stream breaks (a reset, a dropped link, the other process killed) the
// dialer side opens a new one over ResumeProtocol, both sides run the
// resume handshake and send again every envelope the other has not seen,
// and the referee above never notices. It also moves the match onto a
// better connection when one appears (a relayed match whose peers just
// hole-punched a direct connection). Only after GiveUp without any stream
// does Recv fail, with ErrPeerGone. It implements Stream.
type Reconnecting struct {
	res    *Resumer
	h      *p2p.Host
	match  string
	remote peer.ID
	cfg    ReconnectConfig
	log    *slog.Logger

	inbox     chan []byte
	gone      chan struct{} // closed when Recv must fail
	remoteEnd chan struct{} // closed when the other side ended the match gracefully
	lingered  chan struct{} // closed when the other side ended too, or Linger passed
	ctx       context.Context
	stop      context.CancelFunc

	sendMu sync.Mutex // serialises Send with stream switches

	mu        sync.Mutex
	cur       *p2p.Conn
	gen       int
	sent      []sentFrame
	maxSeq    uint64           // how far the match went: mark.Top()
	mark      fairness.SeqMark // envelope seqs seen, sent or received
	link      linkState        // connected, reconnecting since …, resuming, given up, closed (linkstate.go)
	downSince time.Time        // a restarted process, until its first stream: its heartbeat's last beat (for Outage)
	absent    time.Duration    // a restarted process, until its first stream: how long its heartbeat proves it was not running the match (alive.go)
	outage    time.Duration    // the absence of ours proven before the current stream: absent for the first one after a restart, else none
	backAt    uint64           // maxSeq when the current stream came up: what outage vouches for
	goneErr   error
	endSeen   bool
	endAt     uint64 // maxSeq when the other side's end arrived (fairness.EndSeen)
	redialing bool
	migrating bool
	switches  int
	history   []string // kinds the match travelled on, in order
	notify    *network.NotifyBundle
	relOnce   sync.Once
	onUp      func()         // called (on its own goroutine) after every new stream
	endMsg    []byte         // the end frame to send: nil for endFrame, or one with our forfeit record
	known     []ma.Multiaddr // where the peer was found; readdAddrs adds them back before a redial
}

// newReconnecting registers a match transport with the resumer.
func newReconnecting(res *Resumer, match string, remote peer.ID, cfg ReconnectConfig) *Reconnecting {
	if cfg.GiveUp <= 0 {
		cfg.GiveUp = DefaultGiveUp
	}
	if cfg.Linger <= 0 {
		cfg.Linger = DefaultLinger
	}
	if cfg.ForfeitLinger <= 0 {
		cfg.ForfeitLinger = DefaultForfeitLinger
	}
	log := cfg.Logger
	if log == nil {
		log = res.log
	}
	ctx, stop := context.WithCancel(res.ctx)
	r := &Reconnecting{
		res: res, h: res.h, match: match, remote: remote, cfg: cfg,
		log:       log.With("component", "reconnect", "match", short(match)),
		inbox:     make(chan []byte, inboxSize),
		gone:      make(chan struct{}),
		remoteEnd: make(chan struct{}),
		lingered:  make(chan struct{}),
		ctx:       ctx, stop: stop,
	}
	r.notify = &network.NotifyBundle{ConnectedF: r.connected}
	r.h.Libp2p().Network().Notify(r.notify)
	cfg.Liveness.Watch(ctx, r.h.Libp2p(), remote, r.probed)
	return r
}

// probed takes a liveness probe's outcome: a ping left unanswered on the
// connection under the current stream means the link died without a word
// (the other process killed, a link cut with nothing sent back). The
// stream is dropped and every connection to the peer closed, as the
// transport itself would do much later: the dialer re-dials on a fresh
// connection, and the give-up clock starts now.
func (r *Reconnecting) probed(err error) {
	if err == nil {
		return
	}
	r.mu.Lock()
	up, gen := r.cur != nil && !r.link.phase.over(), r.gen
	r.mu.Unlock()
	if !up {
		return
	}
	r.log.Info("the link to the other peer is dead", "err", err)
	// Closed first, so that a re-dial cannot pick the dead connection.
	_ = r.h.Libp2p().Network().ClosePeer(r.remote)
	r.lost(gen, err)
}

// Outage says, while the match has no stream, since when (as far as this
// side can prove: a restart dates it from its heartbeat) and when the
// match gives up on the other peer; ok is false while a stream is up.
// It is Link, for callers that only want the outage.
func (r *Reconnecting) Outage() (since, giveUpAt time.Time, ok bool) {
	l := r.Link()
	if !l.Phase.Down() || l.Since.IsZero() {
		return time.Time{}, time.Time{}, false
	}
	return l.Since, l.GiveUpAt, true
}

// Link is what the match's link is doing now: its phase, and during an
// outage since when (as far as this side can prove: a restart dates it
// from its heartbeat) and when the match gives up on the other peer.
func (r *Reconnecting) Link() LinkState {
	away := r.awaySince()
	r.mu.Lock()
	defer r.mu.Unlock()
	l := LinkState{Phase: r.link.phase, Kind: KindReconnecting}
	if r.cur != nil {
		l.Kind = r.cur.Kind()
	}
	switch {
	case l.Phase.Down() && !r.link.since.IsZero():
		l.Since, l.GiveUpAt = away, r.link.since.Add(r.cfg.GiveUp)
	case l.Phase == LinkGivenUp:
		l.Since = r.link.since.Add(r.cfg.GiveUp)
	}
	return l
}

// moveLink applies ev to the link now, logging the change. The caller
// holds mu.
func (r *Reconnecting) moveLink(ev linkEvent) bool {
	from := r.link.phase
	if !r.link.move(ev, time.Now()) {
		r.log.Debug("link event ignored", "phase", from, "event", ev)
		return false
	}
	if r.link.phase != from {
		r.log.Debug("link", "from", from, "to", r.link.phase, "event", ev)
	}
	return true
}

func short(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// envelopeSeq reads the seq of an encoded envelope (0 for anything else).
func envelopeSeq(b []byte) uint64 {
	var e struct {
		Seq uint64 `json:"seq"`
	}
	if json.Unmarshal(b, &e) != nil {
		return 0
	}
	return e.Seq
}

// Remote is the other peer.
func (r *Reconnecting) Remote() peer.ID { return r.remote }

// Kind says how the match travels now: a p2p kind ("LAN direct",
// "direct", "relayed", "hole-punched") or KindReconnecting.
func (r *Reconnecting) Kind() string {
	r.mu.Lock()
	c := r.cur
	r.mu.Unlock()
	if c == nil {
		return KindReconnecting
	}
	return c.Kind()
}

// RTT is the round-trip time of the current stream's connection (0 while
// reconnecting or unknown).
func (r *Reconnecting) RTT() time.Duration {
	r.mu.Lock()
	c := r.cur
	r.mu.Unlock()
	if c == nil {
		return 0
	}
	return c.RTT()
}

// Stats tells how often the match changed streams and on which kinds of
// connection it travelled, in order.
func (r *Reconnecting) Stats() (switches int, kinds []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.switches, append([]string(nil), r.history...)
}

// SendSeq sends envelope seq, encoded as b, on the current stream and
// keeps it to send again after a resume (fairness.SeqTransport). While no
// stream is up it only keeps it; a stream that fails under it is dropped
// and replaced, and SendSeq still succeeds: the frame goes again on the
// next stream. Only ctx ending is an error.
func (r *Reconnecting) SendSeq(ctx context.Context, seq uint64, b []byte) error {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	if r.link.phase.over() {
		r.mu.Unlock()
		return fmt.Errorf("session: send: match transport %w", p2p.ErrClosed)
	}
	if seq > 0 {
		r.sent = append(r.sent, sentFrame{seq, b})
		r.mark.See(seq)
		r.maxSeq = r.mark.Top()
	}
	c, gen := r.cur, r.gen
	r.mu.Unlock()
	if c == nil {
		return nil
	}
	if err := c.Send(ctx, b); err != nil {
		if ctx.Err() != nil {
			return err
		}
		r.lost(gen, err)
	}
	return nil
}

// Send sends a frame that is no envelope: it is not kept to send again.
func (r *Reconnecting) Send(ctx context.Context, b []byte) error { return r.SendSeq(ctx, 0, b) }

var _ fairness.SeqTransport = (*Reconnecting)(nil)

// Recv returns the next frame from whichever stream brought it. It fails
// when ctx ends, with ErrPeerGone after GiveUp without a stream, with
// p2p.ErrPeerClosed once the other side closed the match after its last
// frame, and after Close.
func (r *Reconnecting) Recv(ctx context.Context) ([]byte, error) {
	select {
	case b := <-r.inbox:
		return b, nil
	default:
	}
	select {
	case b := <-r.inbox:
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-r.gone:
		select { // frames that came before the end go first
		case b := <-r.inbox:
			return b, nil
		default:
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		return nil, r.goneErr
	}
}

// Close ends the match on this side: Send and Recv fail from now on, an
// end frame goes to the other side on the current stream, and for at most
// Linger the match
// still waits for the other side to end too, answering a resume (or
// re-dialing, on the dialer side) if the last messages were lost on the
// way. Close does not wait for that: Lingered is closed once it is over.
func (r *Reconnecting) Close() error {
	r.sendMu.Lock()
	r.mu.Lock()
	if r.link.phase.over() {
		r.mu.Unlock()
		r.sendMu.Unlock()
		return nil
	}
	r.moveLink(evClose)
	c := r.cur
	r.mu.Unlock()
	r.sendMu.Unlock()
	r.end(fmt.Errorf("session: match transport %w", p2p.ErrClosed))
	if c != nil {
		r.sendEnd(c)
	} else if r.cfg.Dialer {
		r.redial()
	}
	r.mu.Lock()
	forfeit := r.endMsg != nil // closeWithForfeit set our record
	r.mu.Unlock()
	go func() {
		defer r.release()
		t := time.NewTimer(r.cfg.Linger)
		defer t.Stop()
		select {
		case <-r.remoteEnd:
		case <-t.C:
		case <-r.ctx.Done():
		}
		close(r.lingered)
		if !forfeit {
			return
		}
		// The other peer forfeited here; if it comes back, it gets our
		// signed record of that.
		t.Reset(r.cfg.ForfeitLinger)
		select {
		case <-r.remoteEnd:
		case <-t.C:
		case <-r.ctx.Done():
		}
	}()
	return nil
}

// endFrame is the end frame this side sends. The caller holds mu.
func (r *Reconnecting) endFrame() []byte {
	if r.endMsg != nil {
		return r.endMsg
	}
	return endFrame
}

// closeWithForfeit is Close for a match that ended here by the other
// peer's forfeit: c is the closing record this side wrote and signed, and
// the end frame carries it to the other peer, now or when it comes back
// (within ForfeitLinger).
func (r *Reconnecting) closeWithForfeit(c *fairness.Closing) error {
	b, err := marshalEnd(c)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.endMsg = b
	r.mu.Unlock()
	return r.Close()
}

// sendEnd tells the other side, on stream c, that this side's match is
// over. The stream stays open (a p2p.Conn that reads the end of a stream
// resets it, which would cut the other side's own end frame off); it is
// closed once both ends were seen, or Linger passed.
func (r *Reconnecting) sendEnd(c *p2p.Conn) {
	ctx, cancel := context.WithTimeout(r.ctx, p2p.WriteTimeout)
	defer cancel()
	r.mu.Lock()
	b := r.endFrame()
	r.mu.Unlock()
	_ = c.Send(ctx, b)
}

// Lingered is closed once a closed match has lingered: the other side
// ended too, or Linger passed. A process that exits after a match waits
// for it, so that its last message is not lost with it. (A match the
// other peer forfeited goes on answering its resume for ForfeitLinger
// while the process lives.)
func (r *Reconnecting) Lingered() <-chan struct{} { return r.lingered }

// release forgets the match: no more resumes, no more watching.
func (r *Reconnecting) release() {
	r.relOnce.Do(func() {
		r.stop()
		r.h.Libp2p().Network().StopNotify(r.notify)
		r.res.unregister(r.match, r)
		r.mu.Lock()
		c := r.cur
		r.cur = nil
		r.mu.Unlock()
		if c != nil {
			_ = c.Close()
		}
	})
}

// end makes Recv fail with err (once).
func (r *Reconnecting) end(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.goneErr != nil {
		return
	}
	r.goneErr = err
	close(r.gone)
}

// install makes c the current stream after a handshake in which the other
// side said it has every envelope up to theirSeq: the envelopes after that
// are sent again, then c is read. The caller holds sendMu.
func (r *Reconnecting) install(c *p2p.Conn, theirSeq uint64) error {
	r.mu.Lock()
	if r.refuses() {
		r.mu.Unlock()
		_ = c.Close()
		return fmt.Errorf("session: resume: the match already ended here: %w", r.goneErr)
	}
	old := r.cur
	r.cur = c
	r.gen++
	gen := r.gen
	// Only the first stream after a restart follows a proven absence:
	// a later link loss, with this process running, proves none.
	r.outage, r.absent, r.backAt = r.absent, 0, r.maxSeq
	r.moveLink(evStreamUp)
	r.downSince = time.Time{}
	r.switches++
	r.history = append(r.history, c.Kind())
	var again [][]byte
	for _, f := range r.sent {
		if f.seq > theirSeq {
			again = append(again, f.b)
		}
	}
	closed := r.link.phase == LinkClosed
	r.mu.Unlock()
	if old != nil && old != c {
		// Reset, not close: the other side must not read this as the end
		// of the match. Anything unread on it is sent again.
		old.Abort()
	}
	go r.read(c, gen)
	ctx, cancel := context.WithTimeout(r.ctx, p2p.WriteTimeout)
	defer cancel()
	for _, b := range again {
		if err := c.Send(ctx, b); err != nil {
			r.lost(gen, err)
			return fmt.Errorf("session: resume: send again: %w", err)
		}
	}
	r.log.Info("match stream up", "kind", c.Kind(), "resent", len(again), "their_seq", theirSeq)
	r.mu.Lock()
	up := r.onUp
	r.mu.Unlock()
	if up != nil {
		go up()
	}
	if closed {
		// A finished match answering a late resume: the other side now
		// has everything.
		r.sendEnd(c)
	}
	return nil
}

// read moves frames from stream c (generation gen) to the inbox until it
// fails.
func (r *Reconnecting) read(c *p2p.Conn, gen int) {
	for {
		b, err := c.Recv(r.ctx)
		if err != nil {
			r.lost(gen, err)
			return
		}
		if f, ok, err := decodeEnd(b); ok {
			// The other side's match is over, and everything it sent is
			// in: a Recv still waiting gets the end, with the other
			// side's closing record when it recorded our forfeit.
			r.sawEnd()
			r.end(r.endErr(f, err))
			continue
		}
		if seq := envelopeSeq(b); seq > 0 {
			r.mu.Lock()
			r.mark.See(seq)
			r.maxSeq = r.mark.Top()
			r.mu.Unlock()
		}
		select {
		case r.inbox <- b:
		case <-r.ctx.Done():
			return
		}
	}
}

// lost drops stream generation gen after err: the dialer starts opening a
// new one, and the give-up clock starts.
func (r *Reconnecting) lost(gen int, err error) {
	r.mu.Lock()
	if gen != r.gen || r.cur == nil || r.endSeen {
		// An old stream, or the other side's end after its end frame:
		// the current stream stays, for our own end frame.
		r.mu.Unlock()
		r.log.Debug("stream ended", "gen", gen, "err", err)
		return
	}
	c := r.cur
	r.cur = nil
	r.moveLink(evStreamLost)
	closed := r.link.phase == LinkClosed
	r.mu.Unlock()
	c.Abort()
	if closed {
		r.log.Debug("stream lost after the end", "err", err)
		r.mu.Lock()
		seen := r.endSeen
		r.mu.Unlock()
		if !seen && r.cfg.Dialer {
			r.redial() // fetch or deliver the last messages
		}
		return
	}
	r.log.Info("match stream lost", "err", err)
	r.startGiveUp()
	if r.cfg.Dialer {
		r.redial()
	}
}

// endErr is the error Recv reports for the other side's end frame f
// (err: it was malformed). A closing record in it is handed to the
// referee only when this side can confirm the absence it implies
// (claimCheck): we were away as long as we would wait before giving up
// ourselves, so the other side may well have given up on us, and hands
// over its signed word for it. Otherwise (a link that never broke, a blip
// the other side may have caused itself, a restart of a moment after a
// long think) a peer that says it gave up on us is a peer leaving, and
// its claim is only named.
func (r *Reconnecting) endErr(f endBody, err error) error {
	switch {
	case err != nil:
		return fmt.Errorf("session: recv: %w: the match is over there (%v)", p2p.ErrPeerClosed, err)
	case f.Closing == nil:
		return fmt.Errorf("session: recv: %w: the match is over there", p2p.ErrPeerClosed)
	}
	if ok, why := r.claimCheck(f.Closing); !ok {
		r.log.Warn("the other side's record of our forfeit is refused: we were here", "claim", why)
		return fmt.Errorf("session: recv: %w: %s", p2p.ErrPeerClosed, why)
	}
	return fmt.Errorf("session: recv: %w: %w", p2p.ErrPeerClosed, &fairness.EndedThere{Closing: f.Closing})
}

// sawEnd records that the other side ended the match, and how far the
// match had gone here then.
func (r *Reconnecting) sawEnd() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.endSeen {
		r.endSeen, r.endAt = true, r.maxSeq
		close(r.remoteEnd)
	}
}

// EndSeenAt is the highest message this side had, sent or received, when
// the other side's end arrived (fairness.EndSeen): what this side's
// referee sends after it, its writer never received.
func (r *Reconnecting) EndSeenAt() (uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.endAt, r.endSeen
}

// startGiveUp ends the match with ErrPeerGone if no stream comes back in
// GiveUp.
func (r *Reconnecting) startGiveUp() {
	r.mu.Lock()
	since := r.link.since
	r.mu.Unlock()
	time.AfterFunc(r.cfg.GiveUp, func() {
		r.mu.Lock()
		// The same outage still (not one that ended and began again).
		still := r.link.since.Equal(since) && r.moveLink(evGiveUp)
		r.mu.Unlock()
		if still {
			r.log.Warn("peer gone", "after", r.cfg.GiveUp)
			r.end(fmt.Errorf("session: %w for %v", ErrPeerGone, r.cfg.GiveUp))
		}
	})
}

// redial opens new streams until one is up, the match ends or gives up.
// Only one redial loop runs at a time.
func (r *Reconnecting) redial() {
	r.mu.Lock()
	if r.redialing {
		r.mu.Unlock()
		return
	}
	r.redialing = true
	r.mu.Unlock()
	go func() {
		defer func() {
			r.mu.Lock()
			r.redialing = false
			r.mu.Unlock()
		}()
		wait := RedialFirst
		for {
			r.mu.Lock()
			done := r.cur != nil || r.endSeen || (r.link.phase != LinkClosed && r.goneErr != nil)
			r.mu.Unlock()
			if done || r.ctx.Err() != nil {
				return
			}
			err := r.dialOnce()
			if err == nil {
				return
			}
			r.log.Debug("resume attempt failed", "err", err, "retry_in", wait)
			r.mu.Lock()
			closed := r.link.phase == LinkClosed
			r.mu.Unlock()
			if closed && errors.Is(err, ErrNoSuchMatch) {
				return // the other side is done with the match too
			}
			select {
			case <-time.After(wait):
			case <-r.ctx.Done():
				return
			}
			wait = min(2*wait, RedialMax)
		}
	}()
}

// dialOnce opens one resume stream (on the best connection to the peer,
// dialing if there is none) and runs the dialer's side of the handshake.
func (r *Reconnecting) dialOnce() error {
	ctx, cancel := context.WithTimeout(r.ctx, ResumeTimeout)
	defer cancel()
	r.readdAddrs()
	c, err := r.h.OpenResume(ctx, r.remote)
	if err != nil {
		return err
	}
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	mine := r.maxSeq
	r.moveLink(evHandshake)
	r.mu.Unlock()
	f, err := r.dialHandshake(ctx, c, mine)
	if err != nil {
		c.Abort()
		r.mu.Lock()
		r.moveLink(evHandshakeFailed)
		r.mu.Unlock()
		return err
	}
	return r.install(c, f.Seq)
}

// dialHandshake runs the dialer's side of the resume handshake on c: our
// highest seq out, the other side's answer for the same match back.
func (r *Reconnecting) dialHandshake(ctx context.Context, c *p2p.Conn, mine uint64) (resumeFrame, error) {
	if err := sendResume(ctx, c, resumeFrame{T: "resume", Match: r.match, Seq: mine}); err != nil {
		return resumeFrame{}, err
	}
	f, err := recvResume(ctx, c)
	if err != nil {
		return resumeFrame{}, err
	}
	if f.Match != r.match {
		return resumeFrame{}, fmt.Errorf("session: resume: peer answered for match %.12s…", f.Match)
	}
	return f, nil
}

// refuses reports a match that takes no new stream: given up, ended
// there, abandoned, or released (a closed match still answers a late
// resume). The caller holds mu.
func (r *Reconnecting) refuses() bool {
	p := r.link.phase
	return p == LinkAbandoned || r.goneErr != nil && p != LinkClosed || r.ctx.Err() != nil
}

// accepted runs the waiting side of the handshake on a resume stream the
// other side opened (its resume frame already read).
func (r *Reconnecting) accepted(c *p2p.Conn, theirSeq uint64) error {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	r.mu.Lock()
	mine := r.maxSeq
	refuse := r.refuses()
	if !refuse {
		r.moveLink(evHandshake)
	}
	r.mu.Unlock()
	ctx, cancel := context.WithTimeout(r.ctx, ResumeTimeout)
	defer cancel()
	if refuse {
		_ = sendResume(ctx, c, resumeFrame{T: "decline", Reason: "the match is over here"})
		_ = c.Close()
		return fmt.Errorf("session: resume: the match already ended here")
	}
	if err := sendResume(ctx, c, resumeFrame{T: "resume", Match: r.match, Seq: mine}); err != nil {
		c.Abort()
		r.mu.Lock()
		r.moveLink(evHandshakeFailed)
		r.mu.Unlock()
		return err
	}
	return r.install(c, theirSeq)
}

// connected sees every new connection of the host: a new connection to
// the other peer means a better path (a hole punch) or a peer that came
// back, so the dialer opens a new stream, which takes the best connection.
func (r *Reconnecting) connected(_ network.Network, c network.Conn) {
	if c.RemotePeer() != r.remote || !r.cfg.Dialer || r.ctx.Err() != nil {
		return
	}
	r.mu.Lock()
	cur, closed := r.cur, r.link.phase.over()
	r.mu.Unlock()
	if closed {
		return
	}
	if cur == nil {
		r.redial()
		return
	}
	r.migrate() // checks that the peer now has a connection off the relay
}

// migrate moves a relayed match onto a direct connection to the peer, if
// there is one (dialer side; one move at a time). A failed move leaves
// the match on the relayed stream.
func (r *Reconnecting) migrate() {
	r.mu.Lock()
	cur := r.cur
	if !r.cfg.Dialer || r.migrating || r.link.phase.over() || cur == nil || cur.Kind() != p2p.KindRelayed {
		r.mu.Unlock()
		return
	}
	r.migrating = true
	r.mu.Unlock()
	go func() {
		defer func() {
			r.mu.Lock()
			r.migrating = false
			r.mu.Unlock()
		}()
		time.Sleep(50 * time.Millisecond) // let the hole punch finish its bookkeeping
		if k := r.h.PeerKind(r.remote); k == p2p.KindRelayed || k == "" {
			return
		}
		if err := r.dialOnce(); err != nil {
			r.log.Debug("moving to the direct connection failed; staying relayed", "err", err)
			return
		}
		r.log.Info("match moved off the relay", "kind", r.Kind())
	}()
}
