package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// LeftDetail is the detail of the closing record a player signs when it
// leaves a match on purpose.
const LeftDetail = "left the match on purpose"

// Leave leaves a two-player match of store on purpose, after this side's
// referee stopped without a word on the match stream (as a stopping
// program does). It signs, with key, this seat's own forfeit (a
// fairness.CloseLeft record dated after the last message its transcript
// holds) and appends it to that transcript, so that the leaver's own
// record ends with its forfeit as the dialog promised; it marks the match
// ended in the store (no longer offered for resuming; a Resumer serving
// the store hands the record to a peer that comes back late); and it
// tells the other peer (TellLeft), handing the record over: the other
// side records the same record, so both transcripts end alike. Leaving
// again only tells the other peer again.
func Leave(ctx context.Context, h *p2p.Host, store Store, key crypto.PrivKey, match string) error {
	pr, err := store.readPeer(match)
	if err != nil {
		return fmt.Errorf("session: leave: %w", err)
	}
	remote, err := peer.Decode(pr.Remote)
	if err != nil {
		return fmt.Errorf("session: leave: remote peer: %w", err)
	}
	c, seq, err := store.admit(pr, key)
	if err != nil {
		return fmt.Errorf("session: leave: %w", err)
	}
	return TellLeft(ctx, h, remote, match, seq, c)
}

// admit appends this seat's signed admission that it left to the match's
// transcript, once, and marks the match ended in the store. It returns
// the admission (the one written before, when the transcript already ends
// with it; nil when the match ended here otherwise first) and the last
// message of the transcript.
func (s Store) admit(pr peerRecord, key crypto.PrivKey) (*fairness.Closing, uint64, error) {
	path, err := s.file(pr.Match, s.Transcript)
	if err != nil {
		return nil, 0, err
	}
	me, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, 0, err
	}
	var seq uint64
	c, err := WriteAdmission(path, key)
	if err == nil {
		seq = c.Seq
	} else {
		// Stopped before (a closing record ends the transcript, or the
		// match is over): ours, if we left before.
		_, last, own, rerr := ownRecord(path, me.String())
		if rerr != nil {
			return nil, 0, errors.Join(err, rerr)
		}
		if own == nil || own.Closing != fairness.CloseLeft {
			own = nil
		}
		c, seq = own, last
	}
	s.dropAlive(pr.Match)
	if pr.Ended == "" {
		pr.Ended, pr.Seq = "left: "+LeftDetail, seq
		if c != nil {
			pr.Ended = fmt.Sprintf("%s of seat %d: %s", c.Closing, c.Seat, c.Detail)
		}
		if err := s.writePeer(pr); err != nil {
			return nil, 0, err
		}
	}
	return c, seq, nil
}

// WriteAdmission appends to the transcript at path the signed admission
// of the player holding key that it leaves the match on purpose
// (fairness.Admit): a left record dated after the transcript's last
// message, synced. Its audit then says that player forfeits, on its own
// word. Call it once the seat's referee has stopped. It fails, writing
// nothing, for a transcript that already ends (a closing record, or the
// end of the match) or that key holds no seat of. Leave calls it for a
// match of the store; a match played without one (practice, a table)
// calls it directly.
func WriteAdmission(path string, key crypto.PrivKey) (*fairness.Closing, error) {
	m, _, err := fairness.LoadMatch(games.Spec, path)
	if err != nil {
		return nil, err
	}
	c, err := fairness.Admit(m, key, LeftDetail)
	if err != nil {
		return nil, err
	}
	tw, err := fairness.AppendTranscript(path)
	if err != nil {
		return nil, err
	}
	if err := tw.WriteClosing(c); err != nil {
		tw.Close()
		return nil, err
	}
	return c, tw.Close()
}

// TellLeft tells the other peer of a match that this side has left it on
// purpose, after this side's referee stopped: it opens a resume stream,
// runs the resume handshake at seq (the last message this side has) and
// sends the end frame, carrying c, this side's signed admission that it
// left (nil: a bare end frame). The other side's transport reads the end
// as the match being over here, and its referee records c, this seat's
// forfeit in its own words, at once (a bare end: its own record of this
// seat's abandonment) instead of waiting its give-up time for a peer that
// will not come back.
//
// It then waits for the other side's own end frame (or the end of the
// stream, or ctx), so that the stream is not torn down before the end is
// read. A peer that is no longer playing the match is not an error.
func TellLeft(ctx context.Context, h *p2p.Host, remote peer.ID, match string, seq uint64, c *fairness.Closing) error {
	end := endFrame
	if c != nil {
		b, err := json.Marshal(endBody{T: "end", Closing: c})
		if err != nil {
			return fmt.Errorf("session: tell left: %w", err)
		}
		end = b
	}
	s, err := h.OpenResume(ctx, remote)
	if err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	defer s.Close()
	if err := sendResume(ctx, s, resumeFrame{T: "resume", Match: match, Seq: seq}); err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	f, err := recvResume(ctx, s)
	switch {
	case errors.Is(err, ErrNoSuchMatch):
		return nil // the match is already over there
	case err != nil:
		return fmt.Errorf("session: tell left: %w", err)
	case f.Match != match:
		return fmt.Errorf("session: tell left: the peer answered for match %.12s…, not %.12s…", f.Match, match)
	}
	if err := s.Send(ctx, end); err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	for {
		// The other side first sends again what it sent after seq, then
		// its end once its referee has recorded the forfeit.
		b, err := s.Recv(ctx)
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
