// Package fairnesstest is for tests: it holds what the tests of package
// fairness and of the packages built on it (fairness/cheat) share. It must
// not import package fairness, so that fairness's own in-package tests can
// import it; import it from _test.go files only.
package fairnesstest

import (
	"context"
	"io"
	"sync"
)

// pipeBuffer is how many frames one direction of a pipe holds unread.
const pipeBuffer = 64

// PipeEnd is one end of an in-memory, ordered, reliable two-way transport
// (a fairness.Transport). Closing either end closes the pipe for both.
type PipeEnd struct {
	in, out chan []byte
	closed  chan struct{} // shared by both ends
	once    *sync.Once
}

// Pipe returns the two ends of a new in-memory pipe: what one end sends the
// other receives, in order.
func Pipe() (*PipeEnd, *PipeEnd) {
	a, b := make(chan []byte, pipeBuffer), make(chan []byte, pipeBuffer)
	closed, once := make(chan struct{}), new(sync.Once)
	return &PipeEnd{in: a, out: b, closed: closed, once: once}, &PipeEnd{in: b, out: a, closed: closed, once: once}
}

// Send queues a copy of b for the other end. It fails with
// io.ErrClosedPipe once the pipe is closed, or with ctx's error.
func (p *PipeEnd) Send(ctx context.Context, b []byte) error {
	select {
	case p.out <- append([]byte(nil), b...):
		return nil
	case <-p.closed:
		return io.ErrClosedPipe
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Recv returns the next frame the other end sent. Frames sent before the
// pipe closed are still delivered; after them it returns io.EOF.
func (p *PipeEnd) Recv(ctx context.Context) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select { // deliver what was sent before reporting the close
	case b := <-p.in:
		return b, nil
	default:
	}
	select {
	case b := <-p.in:
		return b, nil
	case <-p.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close closes the pipe for both ends; it may be called more than once.
func (p *PipeEnd) Close() { p.once.Do(func() { close(p.closed) }) }

// Inbox is the channel of frames sent to this end, for a test transport
// that wraps the end and reads it its own way.
func (p *PipeEnd) Inbox() <-chan []byte { return p.in }

// Deliver puts a copy of b in this end's inbox as if the other end had sent
// it, even once the pipe is closed (a frame sent again by a resume
// handshake); it blocks while the inbox is full.
func (p *PipeEnd) Deliver(b []byte) { p.in <- append([]byte(nil), b...) }
