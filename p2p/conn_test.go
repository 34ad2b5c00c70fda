package p2p

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
)

func TestMatchExchange(t *testing.T) {
	for _, transport := range []string{"tcp", "quic-v1"} {
		t.Run(transport, func(t *testing.T) {
			a, b := pair(t, transport, Config{}, Config{})
			ca, cb := matchPair(t, a, b)
			if ca.Remote() != b.ID() || cb.Remote() != a.ID() {
				t.Fatalf("Remote: %s / %s, want %s / %s", ca.Remote(), cb.Remote(), b.ID(), a.ID())
			}
			if ca.Kind() != KindLAN || cb.Kind() != KindLAN {
				t.Fatalf("Kind over loopback: %q / %q, want %q", ca.Kind(), cb.Kind(), KindLAN)
			}
			ctx := ctxT(t, 10*time.Second)
			big := bytes.Repeat([]byte{0xab}, MaxFrame)
			frames := [][]byte{{}, []byte("x"), []byte(`{"seq":1}`), big}
			// Both directions at once: each side sends all frames while the
			// other reads them.
			var wg sync.WaitGroup
			for _, dir := range []struct{ from, to *Conn }{{ca, cb}, {cb, ca}} {
				wg.Go(func() {
					for i, f := range frames {
						if err := dir.from.Send(ctx, f); err != nil {
							t.Errorf("send frame %d: %v", i, err)
							return
						}
					}
				})
				wg.Go(func() {
					for i, f := range frames {
						got, err := dir.to.Recv(ctx)
						if err != nil {
							t.Errorf("recv frame %d: %v", i, err)
							return
						}
						if !bytes.Equal(got, f) {
							t.Errorf("frame %d: got %d bytes, want %d", i, len(got), len(f))
						}
					}
				})
			}
			wg.Wait()
			if rtt := ca.RTT(); rtt <= 0 || rtt > time.Second {
				t.Errorf("RTT over loopback = %v", rtt)
			}
			if err := ca.Close(); err != nil {
				t.Fatal(err)
			}
			_, err := cb.Recv(ctx)
			if !errors.Is(err, ErrPeerClosed) || !errors.Is(err, io.EOF) {
				t.Fatalf("Recv after peer Close: %v, want ErrPeerClosed wrapping io.EOF", err)
			}
			if err := ca.Send(ctx, []byte("late")); !errors.Is(err, ErrClosed) {
				t.Fatalf("Send after Close: %v, want ErrClosed", err)
			}
		})
	}
}

func TestHandleMatch(t *testing.T) {
	a, b := pair(t, "tcp", Config{}, Config{})
	echoed := make(chan error, 1)
	b.HandleMatch(func(c *Conn) {
		defer c.Close()
		ctx := ctxT(t, 10*time.Second)
		for {
			p, err := c.Recv(ctx)
			if err != nil {
				if errors.Is(err, ErrPeerClosed) {
					err = nil
				}
				echoed <- err
				return
			}
			if err := c.Send(ctx, append([]byte("echo:"), p...)); err != nil {
				echoed <- err
				return
			}
		}
	})
	ca, err := a.OpenMatch(ctxT(t, 10*time.Second), b.ID())
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxT(t, 10*time.Second)
	for i := range 5 {
		msg := fmt.Appendf(nil, "m%d", i)
		if err := ca.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
		got, err := ca.Recv(ctx)
		if err != nil || string(got) != "echo:"+string(msg) {
			t.Fatalf("round %d: %q, %v", i, got, err)
		}
	}
	_ = ca.Close()
	if err := <-echoed; err != nil {
		t.Fatalf("handler: %v", err)
	}
	select {
	case c := <-b.Incoming():
		t.Fatalf("stream %v went to Incoming although a handler is set", c)
	default:
	}
}

func TestMatchProtection(t *testing.T) {
	a, b := pair(t, "tcp", Config{}, Config{})
	if isProtected(a, b.ID()) || isProtected(b, a.ID()) {
		t.Fatal("protected before any match stream")
	}
	ca1, cb1 := matchPair(t, a, b)
	if !isProtected(a, b.ID()) || !isProtected(b, a.ID()) {
		t.Fatal("not protected on both sides while a Conn is open")
	}
	ca2, cb2 := matchPair(t, a, b)
	_ = ca1.Close()
	if !isProtected(a, b.ID()) {
		t.Fatal("closing one of two Conns unprotected the peer")
	}
	_ = ca2.Close()
	if isProtected(a, b.ID()) {
		t.Fatal("still protected after every Conn closed")
	}
	// b learns of the closes through Recv; the failed Conns release too.
	ctx := ctxT(t, 5*time.Second)
	for _, c := range []*Conn{cb1, cb2} {
		if _, err := c.Recv(ctx); !errors.Is(err, ErrPeerClosed) {
			t.Fatalf("Recv: %v, want ErrPeerClosed", err)
		}
	}
	if isProtected(b, a.ID()) {
		t.Fatal("b still protects a after both streams ended")
	}
	// The protection survives the connection manager trimming.
	ca3, _ := matchPair(t, a, b)
	a.cm.TrimOpenConns(context.Background())
	if a.Libp2p().Network().Connectedness(b.ID()) != network.Connected {
		t.Fatal("trim dropped a protected peer")
	}
	_ = ca3.Close()
}

// rawStream opens a bare libp2p stream on the match protocol, bypassing
// Conn, so the test can write anything.
func rawStream(t *testing.T, a, b *Host) network.Stream {
	t.Helper()
	s, err := a.Libp2p().NewStream(ctxT(t, 10*time.Second), b.ID(), MatchProtocol)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Reset() })
	return s
}

func TestMatchRejectsBadFrames(t *testing.T) {
	uv := func(n uint64) []byte { return binary.AppendUvarint(nil, n) }
	tests := []struct {
		name      string
		send      []byte
		closeW    bool // half-close after sending
		want      error
		violation bool // b resets with StreamProtocolViolation
	}{
		{name: "oversize frame", send: uv(MaxFrame + 1), want: ErrFrameTooLarge, violation: true},
		{name: "huge length", send: uv(1 << 40), want: ErrFrameTooLarge, violation: true},
		{name: "truncated body", send: append(uv(100), "only a few bytes"...), closeW: true, want: ErrTruncatedFrame},
		{name: "truncated length", send: []byte{0x80}, closeW: true, want: ErrTruncatedFrame},
		{name: "non-minimal length", send: []byte{0x85, 0x00, 'h', 'e', 'l', 'l', 'o'}, want: ErrMalformedFrame, violation: true},
		{name: "garbage", send: bytes.Repeat([]byte{0xff}, 64), want: ErrMalformedFrame, violation: true},
	}
	a, b := pair(t, "tcp", Config{}, Config{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := rawStream(t, a, b)
			if _, err := s.Write(tc.send); err != nil {
				t.Fatal(err)
			}
			if tc.closeW {
				_ = s.CloseWrite()
			}
			cb := accept(t, b)
			_, err := cb.Recv(ctxT(t, 5*time.Second))
			if !errors.Is(err, tc.want) {
				t.Fatalf("Recv: %v, want %v", err, tc.want)
			}
			t.Logf("Recv: %v", err)
			if !errors.Is(cb.Err(), tc.want) {
				t.Fatalf("Conn not closed with the error: Err() = %v", cb.Err())
			}
			select {
			case <-cb.Done():
			default:
				t.Fatal("Done not closed after a terminal error")
			}
			if _, err := cb.Recv(ctxT(t, time.Second)); !errors.Is(err, tc.want) {
				t.Fatalf("second Recv: %v, want the same terminal error", err)
			}
			if isProtected(b, a.ID()) {
				t.Fatal("peer still protected after the Conn failed")
			}
			// The sender sees its stream reset.
			_ = s.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, rerr := s.Read(make([]byte, 1))
			if !errors.Is(rerr, network.ErrReset) {
				t.Fatalf("sender read: %v, want a reset", rerr)
			}
			var se *network.StreamError
			if tc.violation && (!errors.As(rerr, &se) || se.ErrorCode != network.StreamProtocolViolation) {
				t.Fatalf("sender read: %v, want reset code StreamProtocolViolation", rerr)
			}
		})
	}
}

func TestMatchRecvEnds(t *testing.T) {
	t.Run("idle timeout", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{IdleTimeout: 150 * time.Millisecond})
		ca, cb := matchPair(t, a, b)
		start := time.Now()
		_, err := cb.Recv(context.Background())
		if !errors.Is(err, ErrIdle) {
			t.Fatalf("Recv: %v, want ErrIdle", err)
		}
		if d := time.Since(start); d < 100*time.Millisecond {
			t.Fatalf("idle error after %v, before the timeout", d)
		}
		if _, err := ca.Recv(ctxT(t, 5*time.Second)); !errors.Is(err, ErrPeerReset) {
			t.Fatalf("other side: %v, want ErrPeerReset", err)
		}
	})
	t.Run("context deadline between frames keeps the Conn", func(t *testing.T) {
		a, b := pair(t, "quic-v1", Config{}, Config{})
		ca, cb := matchPair(t, a, b)
		ctx, cancel := ctxWithin(100 * time.Millisecond)
		defer cancel()
		if _, err := cb.Recv(ctx); !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrIdle) {
			t.Fatalf("Recv: %v, want context.DeadlineExceeded", err)
		}
		if err := cb.Err(); err != nil {
			t.Fatalf("Conn closed by a context that ended between frames: %v", err)
		}
		if err := ca.Send(ctxT(t, 5*time.Second), []byte("later")); err != nil {
			t.Fatal(err)
		}
		if p, err := cb.Recv(ctxT(t, 5*time.Second)); err != nil || string(p) != "later" {
			t.Fatalf("Recv after the deadline: %q, %v", p, err)
		}
	})
	t.Run("context cancelled between frames keeps the Conn", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{})
		ca, cb := matchPair(t, a, b)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err := cb.Recv(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("Recv: %v, want context.Canceled", err)
		}
		if err := ca.Send(ctxT(t, 5*time.Second), []byte("later")); err != nil {
			t.Fatal(err)
		}
		if p, err := cb.Recv(ctxT(t, 5*time.Second)); err != nil || string(p) != "later" {
			t.Fatalf("Recv after the cancel: %q, %v", p, err)
		}
	})
	t.Run("context ending inside a frame closes the Conn", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{})
		s := rawStream(t, a, b)
		// A header promising 10 bytes, then only 4 of them.
		if _, err := s.Write(append(binary.AppendUvarint(nil, 10), "half"...)); err != nil {
			t.Fatal(err)
		}
		cb := accept(t, b)
		ctx, cancel := ctxWithin(150 * time.Millisecond)
		defer cancel()
		if _, err := cb.Recv(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Recv: %v, want context.DeadlineExceeded", err)
		}
		if !errors.Is(cb.Err(), context.DeadlineExceeded) {
			t.Fatalf("Conn left open after a context ended mid-frame: Err() = %v", cb.Err())
		}
	})
	t.Run("local Close unblocks Recv", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{})
		_, cb := matchPair(t, a, b)
		time.AfterFunc(50*time.Millisecond, func() { _ = cb.Close() })
		if _, err := cb.Recv(ctxT(t, 5*time.Second)); !errors.Is(err, ErrClosed) {
			t.Fatalf("Recv: %v, want ErrClosed", err)
		}
	})
	t.Run("peer reset", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{})
		s := rawStream(t, a, b)
		if err := WriteFrame(s, []byte("one")); err != nil {
			t.Fatal(err)
		}
		cb := accept(t, b)
		if p, err := cb.Recv(ctxT(t, 5*time.Second)); err != nil || string(p) != "one" {
			t.Fatalf("Recv: %q, %v", p, err)
		}
		_ = s.Reset()
		if _, err := cb.Recv(ctxT(t, 5*time.Second)); !errors.Is(err, ErrPeerReset) {
			t.Fatalf("Recv: %v, want ErrPeerReset", err)
		}
	})
	t.Run("host Close closes Conns and channels", func(t *testing.T) {
		a, b := newHost(t, Config{}), newHost(t, Config{})
		if _, err := a.Connect(ctxT(t, 5*time.Second), b.Invite()); err != nil {
			t.Fatal(err)
		}
		ca, _ := matchPair(t, a, b)
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		if !errors.Is(ca.Err(), ErrClosed) {
			t.Fatalf("Conn after host Close: %v", ca.Err())
		}
		if _, ok := <-a.Incoming(); ok {
			t.Fatal("Incoming still open")
		}
		if _, ok := <-a.LANPeers(); ok {
			t.Fatal("LANPeers still open")
		}
		if _, err := a.OpenMatch(ctxT(t, time.Second), b.ID()); err == nil {
			t.Fatal("OpenMatch on a closed host worked")
		}
	})
}

func TestSendLimits(t *testing.T) {
	a, b := pair(t, "tcp", Config{}, Config{})
	ca, cb := matchPair(t, a, b)
	ctx := ctxT(t, 5*time.Second)
	if err := ca.Send(ctx, make([]byte, MaxFrame+1)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("Send oversize: %v, want ErrFrameTooLarge", err)
	}
	if ca.Err() != nil {
		t.Fatalf("a refused oversize Send closed the Conn: %v", ca.Err())
	}
	if err := ca.Send(ctx, []byte("still fine")); err != nil {
		t.Fatal(err)
	}
	if p, err := cb.Recv(ctx); err != nil || string(p) != "still fine" {
		t.Fatalf("Recv: %q, %v", p, err)
	}
	// A cancelled context fails a Send that cannot complete: b never reads,
	// so a eventually blocks on flow control.
	cctx, cancel := ctxWithin(300 * time.Millisecond)
	defer cancel()
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = ca.Send(cctx, make([]byte, MaxFrame))
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Send to a peer that never reads: %v, want context.DeadlineExceeded", err)
	}
}

func TestOpenMatchReachesPeerBeforeAnyFrame(t *testing.T) {
	for _, transport := range []string{"tcp", "quic-v1"} {
		t.Run(transport, func(t *testing.T) {
			a, b := pair(t, transport, Config{}, Config{})
			// Identify has run, so libp2p would negotiate lazily; OpenMatch
			// must not.
			ca, err := a.OpenMatch(ctxT(t, 10*time.Second), b.ID())
			if err != nil {
				t.Fatal(err)
			}
			cb := accept(t, b)
			// The accepting side may speak first.
			ctx := ctxT(t, 5*time.Second)
			if err := cb.Send(ctx, []byte("welcome")); err != nil {
				t.Fatal(err)
			}
			if p, err := ca.Recv(ctx); err != nil || string(p) != "welcome" {
				t.Fatalf("Recv: %q, %v", p, err)
			}
		})
	}
}

func TestOpenMatchUnsupported(t *testing.T) {
	a, b := pair(t, "tcp", Config{}, Config{})
	b.Libp2p().RemoveStreamHandler(MatchProtocol)
	_, err := a.OpenMatch(ctxT(t, 10*time.Second), b.ID())
	if err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Fatalf("OpenMatch to a peer without the protocol: %v, want a not-supported error", err)
	}
	if isProtected(a, b.ID()) {
		t.Fatal("a failed OpenMatch left the peer protected")
	}
}

func TestSendStalled(t *testing.T) {
	defer func(d time.Duration) { writeTimeout = d }(writeTimeout)
	writeTimeout = 200 * time.Millisecond
	a, b := pair(t, "tcp", Config{}, Config{})
	ca, cb := matchPair(t, a, b)
	// b never reads: a's sends fill the flow-control window, then stall.
	var err error
	for i := 0; i < 1000 && err == nil; i++ {
		err = ca.Send(context.Background(), make([]byte, MaxFrame))
	}
	if !errors.Is(err, ErrSendStalled) {
		t.Fatalf("Send to a peer that never reads: %v, want ErrSendStalled", err)
	}
	t.Logf("Send: %v", err)
	if !errors.Is(ca.Err(), ErrSendStalled) {
		t.Fatalf("Conn not closed by the stall: %v", ca.Err())
	}
	// b sees the reset once it reads past what arrived.
	for {
		if _, err := cb.Recv(ctxT(t, 5*time.Second)); err != nil {
			if !errors.Is(err, ErrPeerReset) {
				t.Fatalf("b: %v, want ErrPeerReset", err)
			}
			break
		}
	}
}

func TestOpenMatchErrors(t *testing.T) {
	a := newHost(t, Config{})
	if _, err := a.OpenMatch(ctxT(t, time.Second), a.ID()); err == nil {
		t.Fatal("OpenMatch to self worked")
	}
	if _, err := a.OpenMatch(ctxT(t, time.Second), ""); err == nil {
		t.Fatal("OpenMatch to an empty peer ID worked")
	}
	c, cancel := ctxWithin(2 * time.Second)
	defer cancel()
	if _, err := a.OpenMatch(c, testPeerID(t)); err == nil {
		t.Fatal("OpenMatch to an unknown peer worked")
	}
}

func TestIncomingNotAccepted(t *testing.T) {
	defer func(d time.Duration) { acceptWait = d }(acceptWait)
	acceptWait = 200 * time.Millisecond
	// More streams than the pending gate lets one peer keep waiting.
	defer func(n int) { pendingPerPeer = n }(pendingPerPeer)
	pendingPerPeer = 2 * IncomingBuffer
	a, b := pair(t, "tcp", Config{}, Config{})
	streams := make([]network.Stream, IncomingBuffer+1)
	for i := range streams {
		streams[i] = rawStream(t, a, b)
		if err := WriteFrame(streams[i], []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	// Nobody reads Incoming: IncomingBuffer streams wait there and the one
	// that found it full is reset after acceptWait.
	errs := make([]error, len(streams))
	var wg sync.WaitGroup
	deadline := time.Now().Add(acceptWait + 1500*time.Millisecond)
	for i, s := range streams {
		_ = s.SetReadDeadline(deadline)
		wg.Go(func() { _, errs[i] = s.Read(make([]byte, 1)) })
	}
	wg.Wait()
	var reset int
	for _, err := range errs {
		var se *network.StreamError
		switch {
		case errors.As(err, &se) && se.ErrorCode == network.StreamResourceLimitExceeded:
			reset++
		case isTimeout(err):
		default:
			t.Fatalf("raw stream read: %v", err)
		}
	}
	if reset != 1 {
		t.Fatalf("%d streams reset, want 1", reset)
	}
	for range IncomingBuffer {
		c := accept(t, b)
		if p, err := c.Recv(ctxT(t, 5*time.Second)); err != nil || string(p) != "x" {
			t.Fatalf("queued stream: %q, %v", p, err)
		}
	}
}
