package session

import (
	"context"
	"fmt"

	"github.com/salvo-game/salvo/p2p"
)

// maxReceiver is a stream that can refuse a frame over a limit before
// reading it (a *p2p.Conn).
type maxReceiver interface {
	RecvMax(ctx context.Context, max int) ([]byte, error)
}

// frameLimit is the largest handshake frame of kind want: an offer holds a
// header of every player (and, in a group, their addresses); every other
// frame, and above all the first one a stranger sends (a join, an
// invitation), is a few hundred bytes, capped at p2p.MaxFirstFrame so that
// a stream nobody has vetted yet never costs more.
func frameLimit(want string) int {
	if want == tOffer {
		return maxFrame
	}
	return p2p.MaxFirstFrame
}

// recvMax reads one frame of at most max bytes, refused before it is read
// when the stream can (maxReceiver), checked after it otherwise.
func recvMax(ctx context.Context, s Stream, max int) ([]byte, error) {
	if m, ok := s.(maxReceiver); ok {
		return m.RecvMax(ctx, max)
	}
	b, err := s.Recv(ctx)
	if err == nil && len(b) > max {
		return nil, fmt.Errorf("frame of %d bytes, limit %d", len(b), max)
	}
	return b, err
}
