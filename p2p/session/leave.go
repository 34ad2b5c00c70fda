package session

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
)

// TellLeft tells the other peer of a match that this side has left it on
// purpose, after this side's referee stopped without a word on the match
// stream (as a stopping program does). It opens a resume stream, runs the
// resume handshake at seq (the last message this side has) and sends the
// end frame: the other side's transport reads the end as the match being
// over here, and its referee records this seat's forfeit at once instead
// of waiting its give-up time for a peer that will not come back.
//
// It then waits for the other side's own end frame (or the end of the
// stream, or ctx), so that the stream is not torn down before the end is
// read. A peer that is no longer playing the match is not an error.
func TellLeft(ctx context.Context, h *p2p.Host, remote peer.ID, match string, seq uint64) error {
	c, err := h.OpenResume(ctx, remote)
	if err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	defer c.Close()
	if err := sendResume(ctx, c, resumeFrame{T: "resume", Match: match, Seq: seq}); err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	f, err := recvResume(ctx, c)
	switch {
	case errors.Is(err, ErrNoSuchMatch):
		return nil // the match is already over there
	case err != nil:
		return fmt.Errorf("session: tell left: %w", err)
	case f.Match != match:
		return fmt.Errorf("session: tell left: the peer answered for match %.12s…, not %.12s…", f.Match, match)
	}
	if err := c.Send(ctx, endFrame); err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	for {
		// The other side first sends again what it sent after seq, then
		// its end once its referee has recorded the forfeit.
		b, err := c.Recv(ctx)
		if err != nil {
			return nil
		}
		if _, end, _ := decodeEnd(b); end {
			return nil
		}
	}
}

// Forget removes a match's peer record, so that a match left on purpose
// is not offered for resuming (by List, the lobby or salvo resume). The
// transcript and the secrets stay; forgetting an unknown match is not an
// error.
func (s Store) Forget(match string) error {
	path, err := s.file(match, s.peerFile)
	if err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("session: forget match %.12s…: %w", match, err)
	}
	s.dropAlive(match)
	return nil
}
