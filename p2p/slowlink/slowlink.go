// Package slowlink forwards TCP connections over a link that holds every
// byte a fixed time in each direction.
//
// It exists to measure what the protocol's flights cost a match: the
// time of a match on a slow link is about its flights times the link's
// one-way delay, and only a real connection shows it. This machine's
// kernel has no netem, so the delay is added in user space, between two
// loopback sockets, and everything above it (libp2p's Noise, yamux, the
// match stream) runs unchanged. Bandwidth is not limited and nothing is
// lost: only the delay is modelled.
package slowlink

import (
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"
)

// queueChunks bounds the chunks one direction of one connection holds in
// flight; a sender that outruns it waits, as on a full real link.
const queueChunks = 1024

// chunkSize is the most one read takes from a socket.
const chunkSize = 32 << 10

// Proxy listens on 127.0.0.1 and forwards every connection it accepts to
// its target, holding the bytes Delay in each direction.
type Proxy struct {
	ln     net.Listener
	target string
	delay  time.Duration

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Listen starts a proxy on a free loopback port that forwards to target
// (host:port) with delay each way.
func Listen(target string, delay time.Duration) (*Proxy, error) {
	if delay < 0 {
		return nil, fmt.Errorf("slowlink: negative delay %v", delay)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("slowlink: %w", err)
	}
	p := &Proxy{ln: ln, target: target, delay: delay, conns: map[net.Conn]struct{}{}}
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the proxy's listening address (127.0.0.1:port).
func (p *Proxy) Addr() *net.TCPAddr { return p.ln.Addr().(*net.TCPAddr) }

// Close stops listening, closes every forwarded connection, and waits
// for the proxy's goroutines.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	err := p.ln.Close()
	p.wg.Wait()
	return err
}

// track remembers c for Close; it reports false (and closes c) when the
// proxy is already closed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		out, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = in.Close()
			continue
		}
		if !p.track(in) || !p.track(out) {
			_ = in.Close()
			return
		}
		p.wg.Add(2)
		go p.pipe(in, out)
		go p.pipe(out, in)
	}
}

// chunk is bytes read at one moment, due at the far end delay later.
type chunk struct {
	b   []byte
	due time.Time
}

// pipe copies src to dst, each chunk delay after it was read. Reading
// and writing run apart, so a chunk read while an earlier one waits is
// not held up behind it: the link delays, it does not serialize.
func (p *Proxy) pipe(src, dst net.Conn) {
	defer p.wg.Done()
	q := make(chan chunk, queueChunks)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range q {
			time.Sleep(time.Until(c.due))
			if _, err := dst.Write(c.b); err != nil {
				_ = src.Close()
				for range q { // drain, so the reader never blocks
				}
				return
			}
		}
		closeWrite(dst)
	}()
	for {
		b := make([]byte, chunkSize)
		n, err := src.Read(b)
		if n > 0 {
			q <- chunk{b: b[:n], due: time.Now().Add(p.delay)}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				_ = dst.Close()
			}
			break
		}
	}
	close(q)
	<-done
}

// closeWrite passes a clean end of stream on, half-closing dst.
func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		return
	}
	_ = c.Close()
}
