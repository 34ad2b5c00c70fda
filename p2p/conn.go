package p2p

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"
	msmux "github.com/multiformats/go-multistream"
)

// Conn errors, wrapped with the peer and the operation.
var (
	// ErrIdle means no frame arrived within the idle timeout.
	ErrIdle = errors.New("idle stream: no frame within the idle timeout")
	// ErrSendStalled means the peer did not take a frame within WriteTimeout.
	ErrSendStalled = errors.New("send stalled: peer is not reading")
	// ErrPeerClosed means the peer closed the match stream; it also wraps io.EOF.
	ErrPeerClosed = errors.New("peer closed the match stream")
	// ErrPeerReset means the peer (or its host) reset the match stream.
	ErrPeerReset = errors.New("peer reset the match stream")
	// ErrNotAccepted means an incoming match stream found no reader in time.
	ErrNotAccepted = errors.New("incoming match stream not accepted")
)

// Conn is one /salvo/match/1 stream to a peer, carrying frames. Send and
// Recv may run concurrently with each other (one of each at a time; more
// are serialised). Apart from a context ending between frames, the first
// failure of either is terminal: the stream is reset, the Conn is closed
// and every later call returns that error. While a Conn is open its peer
// is protected in the connection manager.
type Conn struct {
	h      *Host
	s      network.Stream
	r      *bufio.Reader
	remote peer.ID
	idle   time.Duration

	rmu sync.Mutex
	wmu sync.Mutex

	// ctx ends when the Conn does; background work for it uses ctx.
	ctx    context.Context
	cancel context.CancelFunc

	once sync.Once
	done chan struct{}
	err  error // set once, before done is closed

	rttMu   sync.Mutex
	rttAt   time.Time // when the last ping finished
	rttBusy bool      // a background ping is running

	// gated says the Conn holds a place in the host's pending gate (an
	// incoming stream), given back once, at its first frame or its end.
	gated    bool
	gateOnce sync.Once
}

// leaveGate gives back the Conn's place in the pending gate, if it holds
// one.
func (c *Conn) leaveGate() {
	c.gateOnce.Do(func() {
		if c.gated {
			c.h.pending.Leave(c.remote, c)
		}
	})
}

// OpenMatch opens a match stream to p, dialing it from the peerstore if it
// is not connected. Relayed (limited) connections are allowed. It returns
// once p has agreed to the protocol, so p's Incoming (or handler) has the
// Conn even before the first frame, and a peer that does not speak
// MatchProtocol is an error here. Without a context deadline the opening is
// bounded by OpenTimeout.
func (h *Host) OpenMatch(ctx context.Context, p peer.ID) (*Conn, error) {
	if p == h.ID() {
		return nil, fmt.Errorf("p2p: open match: %s is this host", p)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("p2p: open match: %w", err)
	}
	s, err := h.openNegotiated(ctx, p, MatchProtocol)
	if err != nil {
		return nil, fmt.Errorf("p2p: open match with %s: %w", p, err)
	}
	c, err := h.newConn(s, false)
	if err != nil {
		return nil, fmt.Errorf("p2p: open match with %s: %w", p, err)
	}
	h.log.Debug("match stream opened", "peer", ShortID(p), "kind", c.Kind())
	return c, nil
}

// openNegotiated opens a stream to p and completes the multistream-select
// negotiation of proto before returning. (libp2p's NewStream negotiates
// lazily, on the first read or write, once identify says the peer supports
// the protocol: the peer's handler would not run until the opener used the
// stream.)
func (h *Host) openNegotiated(ctx context.Context, p peer.ID, proto protocol.ID) (network.Stream, error) {
	ctx = network.WithAllowLimitedConn(ctx, string(proto))
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, OpenTimeout)
		defer cancel()
	}
	if err := h.h.Connect(ctx, peer.AddrInfo{ID: p}); err != nil {
		return nil, err
	}
	s, err := h.h.Network().NewStream(network.WithNoDial(ctx, "already connected"), p)
	if err != nil {
		return nil, fmt.Errorf("new stream: %w", err)
	}
	deadline, _ := ctx.Deadline()
	_ = s.SetDeadline(deadline)
	stop := interruptOn(ctx, s.SetDeadline)
	err = msmux.SelectProtoOrFail(proto, s)
	if fired := stop(); fired && err != nil {
		err = context.Cause(ctx)
	}
	if err != nil {
		_ = s.ResetWithError(network.StreamProtocolNegotiationFailed)
		return nil, fmt.Errorf("negotiate %s: %w", proto, err)
	}
	if err := s.SetProtocol(proto); err != nil {
		_ = s.ResetWithError(network.StreamResourceLimitExceeded)
		return nil, fmt.Errorf("set protocol %s: %w", proto, err)
	}
	_ = s.SetDeadline(time.Time{})
	_ = h.h.Peerstore().AddProtocols(p, proto)
	return s, nil
}

// Incoming delivers match streams opened by other peers, unless a handler
// is set with HandleMatch. A stream nobody takes within AcceptWait is
// reset. The channel is closed by Close.
func (h *Host) Incoming() <-chan *Conn { return h.incoming }

// HandleMatch makes f receive incoming match streams instead of the
// Incoming channel (nil goes back to the channel). f runs on its own
// goroutine per stream and owns the Conn.
func (h *Host) HandleMatch(f func(*Conn)) {
	h.mu.Lock()
	h.handler = f
	h.mu.Unlock()
}

// handleMatch is the libp2p stream handler for MatchProtocol.
func (h *Host) handleMatch(s network.Stream) {
	c, err := h.newConn(s, true)
	if err != nil {
		return
	}
	h.mu.Lock()
	f := h.handler
	if f == nil && !h.closed {
		h.wg.Add(1) // Close waits before closing h.incoming
	} else if f == nil {
		h.mu.Unlock()
		_ = c.Close()
		return
	}
	h.mu.Unlock()
	if f != nil {
		f(c)
		return
	}
	defer h.wg.Done()
	t := time.NewTimer(h.acceptWait)
	defer t.Stop()
	select {
	case h.incoming <- c:
		h.log.Debug("match stream accepted", "peer", ShortID(c.remote), "kind", c.Kind())
	case <-t.C:
		h.log.Warn("incoming match stream dropped: nobody reading Incoming", "peer", ShortID(c.remote))
		c.fail(fmt.Errorf("p2p: match from %s: %w within %v", c.remote, ErrNotAccepted, h.acceptWait), network.StreamResourceLimitExceeded)
	case <-c.Done(): // evicted while it waited (see Admission): nothing to hand over
	case <-h.closing:
		_ = c.Close()
	}
}

// newConn wraps s, registers it with the host and protects its peer. On a
// closing host the stream is reset and ErrClosed returned. A stream another
// peer opened (incoming) takes a place in the pending admission until its
// first frame arrives or it ends: over its peer's limit it is reset at
// once; when all places are taken it evicts the oldest stream of the peer
// holding the most.
func (h *Host) newConn(s network.Stream, incoming bool) (*Conn, error) {
	c, err := h.register(s)
	if err != nil || !incoming {
		return c, err
	}
	c.gated = true // before Enter shares c; nobody else has it yet
	old, evicted, err := h.pending.Enter(c.remote, c)
	if err != nil {
		c.gated = false
		h.log.Debug("incoming stream refused", "peer", ShortID(c.remote), "protocol", s.Protocol(), "err", err)
		c.fail(fmt.Errorf("p2p: stream from %s: %w", c.remote, err), network.StreamResourceLimitExceeded)
		return nil, err
	}
	if evicted {
		old.fail(fmt.Errorf("p2p: stream from %s: %w: evicted without a first frame, %d streams waiting", old.remote, ErrNotAccepted, h.pending.all), network.StreamResourceLimitExceeded)
	}
	return c, nil
}

// register wraps s and registers it with the host.
func (h *Host) register(s network.Stream) (*Conn, error) {
	remote := s.Conn().RemotePeer()
	ctx, cancel := context.WithCancel(context.Background())
	c := &Conn{
		ctx:    ctx,
		cancel: cancel,
		h:      h,
		s:      s,
		r:      bufio.NewReader(s),
		remote: remote,
		idle:   h.idle,
		done:   make(chan struct{}),
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		cancel()
		_ = s.Reset()
		return nil, fmt.Errorf("host %w", ErrClosed)
	}
	h.conns[c] = struct{}{}
	if h.protected[remote] == 0 {
		h.cm.Protect(remote, protectTag)
	}
	h.protected[remote]++
	return c, nil
}

// release unregisters c and unprotects its peer when no other Conn to it
// remains.
func (h *Host) release(c *Conn) {
	c.leaveGate()
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.conns[c]; !ok {
		return
	}
	delete(h.conns, c)
	h.protected[c.remote]--
	if h.protected[c.remote] <= 0 {
		delete(h.protected, c.remote)
		h.cm.Unprotect(c.remote, protectTag)
	}
}

// Remote is the peer at the other end.
func (c *Conn) Remote() peer.ID { return c.remote }

// Kind says how the stream travels: KindLAN, KindDirect, KindRelayed or
// KindHolePunched. A stream lives on one connection: a stream opened on a
// relayed connection stays relayed even when hole punching later makes a
// direct connection (the reconnecting transport of package session moves
// the match onto a new stream then; Host.PeerKind says what a new stream
// would get).
func (c *Conn) Kind() string { return c.h.connKind(c.s.Conn()) }

// Done is closed when the Conn is closed or has failed.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is nil while the Conn is open, then the error that ended it
// (ErrClosed after Close).
func (c *Conn) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Send writes p as one frame. It fails at once, with the Conn left open,
// for a frame over MaxFrame; it waits at most until ctx ends or
// WriteTimeout passes. When ctx ends before the stream took any byte of
// the frame, Send returns the context's error and the Conn stays open;
// any other failure (a stall past WriteTimeout, a frame cut short, a
// reset) closes the Conn.
func (c *Conn) Send(ctx context.Context, p []byte) error {
	if len(p) > MaxFrame {
		return fmt.Errorf("p2p: send to %s: %w: %d bytes, limit %d", c.remote, ErrFrameTooLarge, len(p), MaxFrame)
	}
	if err := c.Err(); err != nil {
		return fmt.Errorf("p2p: send to %s: %w", c.remote, err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	deadline, ctxBound := bound(ctx, c.h.writeTimeout)
	if err := c.s.SetWriteDeadline(deadline); err != nil {
		err = fmt.Errorf("p2p: send to %s: set deadline: %w", c.remote, err)
		c.fail(err, network.StreamNoError)
		return err
	}
	stop := interruptOn(ctx, c.s.SetWriteDeadline)
	n, err := writeFrame(c.s, p)
	fired := stop()
	if err == nil {
		return nil
	}
	if n == 0 && c.Err() == nil && ctxEnded(ctx, fired, ctxBound, err) {
		return fmt.Errorf("p2p: send to %s: %w", c.remote, ctxCause(ctx))
	}
	err = c.explain("send to", ctx, fired, ctxBound, err, ErrSendStalled, c.h.writeTimeout)
	c.fail(err, network.StreamNoError)
	return err
}

// Recv reads the next frame: RecvMax with MaxFrame.
func (c *Conn) Recv(ctx context.Context) ([]byte, error) { return c.RecvMax(ctx, MaxFrame) }

// RecvMax reads the next frame, of at most max bytes (MaxFrame when max is
// 0 or larger); a handshake reads its first frame with MaxFirstFrame, so a
// stranger's stream never costs more. It waits until a frame arrives, ctx
// ends or the idle timeout passes. When ctx ends before any byte of the next frame
// has arrived, Recv returns the context's error and the Conn stays open (a
// later Recv gets that frame). A frame over MaxFrame, a truncated or
// malformed frame, the peer closing or resetting the stream, the idle
// timeout (ErrIdle) or ctx ending in the middle of a frame all give a
// wrapped error and close the Conn, resetting the stream.
func (c *Conn) RecvMax(ctx context.Context, max int) ([]byte, error) {
	if err := c.Err(); err != nil {
		return nil, fmt.Errorf("p2p: recv from %s: %w", c.remote, err)
	}
	c.rmu.Lock()
	defer c.rmu.Unlock()
	deadline, ctxBound := bound(ctx, c.idle)
	if err := c.s.SetReadDeadline(deadline); err != nil {
		err = fmt.Errorf("p2p: recv from %s: set deadline: %w", c.remote, err)
		c.fail(err, network.StreamNoError)
		return nil, err
	}
	stop := interruptOn(ctx, c.s.SetReadDeadline)
	cr := countingReader{r: c.r}
	p, err := readFrame(&cr, max)
	fired := stop()
	if err == nil {
		c.leaveGate()
		return p, nil
	}
	if cr.n == 0 && c.Err() == nil && ctxEnded(ctx, fired, ctxBound, err) {
		return nil, fmt.Errorf("p2p: recv from %s: %w", c.remote, ctxCause(ctx))
	}
	code := network.StreamNoError
	if errors.Is(err, ErrFrameTooLarge) || errors.Is(err, ErrMalformedFrame) {
		code = network.StreamProtocolViolation
	}
	err = c.explain("recv from", ctx, fired, ctxBound, err, ErrIdle, c.idle)
	c.fail(err, code)
	return nil, err
}

// Close closes the stream (data already sent is still delivered) and
// unprotects the peer if no other Conn to it is open. It is idempotent.
func (c *Conn) Close() error {
	var err error
	c.once.Do(func() {
		c.err = fmt.Errorf("match stream %w", ErrClosed)
		close(c.done)
		c.cancel()
		if e := c.s.Close(); e != nil {
			err = fmt.Errorf("p2p: close match stream to %s: %w", c.remote, e)
		}
		c.h.release(c)
	})
	return err
}

// Abort resets the stream at once and closes the Conn: frames still in
// flight may be lost, and the peer reads a reset, not the end of the
// stream (what a transport does to a stream it replaces). It is
// idempotent, and a no-op after Close.
func (c *Conn) Abort() {
	c.fail(fmt.Errorf("match stream %w (aborted)", ErrClosed), network.StreamNoError)
}

// fail ends the Conn with err, resetting the stream with code.
func (c *Conn) fail(err error, code network.StreamErrorCode) {
	c.once.Do(func() {
		c.err = err
		close(c.done)
		c.cancel()
		if code == network.StreamNoError {
			_ = c.s.Reset()
		} else {
			_ = c.s.ResetWithError(code)
		}
		c.h.release(c)
		c.h.log.Debug("match stream failed", "peer", ShortID(c.remote), "err", err)
	})
}

// explain turns a stream error into one that says what happened.
func (c *Conn) explain(op string, ctx context.Context, fired, ctxBound bool, err, timeoutErr error, limit time.Duration) error {
	if cerr := c.Err(); cerr != nil { // closed under us
		return fmt.Errorf("p2p: %s %s: %w", op, c.remote, cerr)
	}
	if fired || ctx.Err() != nil {
		return fmt.Errorf("p2p: %s %s: %w", op, c.remote, context.Cause(ctx))
	}
	if isTimeout(err) {
		if ctxBound {
			return fmt.Errorf("p2p: %s %s: %w", op, c.remote, context.DeadlineExceeded)
		}
		return fmt.Errorf("p2p: %s %s: %w after %v", op, c.remote, timeoutErr, limit)
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("p2p: %s %s: %w: %w", op, c.remote, ErrPeerClosed, io.EOF)
	}
	var se *network.StreamError
	if errors.As(err, &se) && se.Remote {
		return fmt.Errorf("p2p: %s %s: %w: %w", op, c.remote, ErrPeerReset, err)
	}
	if errors.Is(err, network.ErrReset) {
		return fmt.Errorf("p2p: %s %s: %w: %w", op, c.remote, ErrPeerReset, err)
	}
	return fmt.Errorf("p2p: %s %s: %w", op, c.remote, err)
}

// ctxEnded reports whether err came from ctx ending (its cancellation
// moved the deadline, or its deadline was the stream deadline that hit).
func ctxEnded(ctx context.Context, fired, ctxBound bool, err error) bool {
	return fired || ctx.Err() != nil || ctxBound && isTimeout(err)
}

// ctxCause is why ctx ended; a deadline that the stream noticed a moment
// before the context did counts as context.DeadlineExceeded.
func ctxCause(ctx context.Context) error {
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return context.DeadlineExceeded
}

// countingReader counts the bytes a frame read consumed, so Recv can tell
// a wait that ended cleanly from one that ended inside a frame.
type countingReader struct {
	r *bufio.Reader
	n int
}

// Read reads from the buffered stream, counting.
func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// ReadByte reads one byte from the buffered stream, counting.
func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

// bound is the earlier of ctx's deadline and now+limit, and whether ctx's
// deadline is the one that applies.
func bound(ctx context.Context, limit time.Duration) (time.Time, bool) {
	d := time.Now().Add(limit)
	if cd, ok := ctx.Deadline(); ok && !cd.After(d) {
		return cd, true
	}
	return d, false
}

// interruptOn moves a stream deadline into the past when ctx ends, which
// unblocks a pending read or write. The returned stop reports whether that
// happened, and once it returns the deadline setter will not run any more.
func interruptOn(ctx context.Context, set func(time.Time) error) (stop func() bool) {
	if ctx.Done() == nil {
		return func() bool { return false }
	}
	ran := make(chan struct{})
	cancel := context.AfterFunc(ctx, func() {
		_ = set(time.Unix(1, 0))
		close(ran)
	})
	return func() bool {
		if cancel() {
			return false
		}
		<-ran
		return true
	}
}

// isTimeout reports a deadline error from any transport.
func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
