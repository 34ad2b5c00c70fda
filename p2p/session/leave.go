package session

import (
	"context"
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
// holds) and appends it to that transcript (WriteAdmission), so that the
// leaver's own record ends with its forfeit, as the dialog promised; it
// marks the match ended in the store (no longer offered for resuming; a
// Resumer serving the store hands the record to a peer that comes back
// late); and it tells the other peer (tellLeft), handing the record over:
// the other side records the same record, so both transcripts end alike.
// Leaving again only tells the other peer again.
func Leave(ctx context.Context, h *p2p.Host, store Store, key crypto.PrivKey, match string) error {
	pr, err := store.readPeer(match)
	if err != nil {
		return fmt.Errorf("session: leave: %w", err)
	}
	if len(pr.Table) > 0 {
		// A table's topic carries envelopes only: the others record the
		// leaver's forfeit by the give-up time (see PROTOCOL.md).
		if _, err := store.admit(pr, key); err != nil {
			return fmt.Errorf("session: leave: %w", err)
		}
		return nil
	}
	remote, err := peer.Decode(pr.Remote)
	if err != nil {
		return fmt.Errorf("session: leave: remote peer: %w", err)
	}
	rec, err := store.admit(pr, key)
	if err != nil {
		return fmt.Errorf("session: leave: %w", err)
	}
	return tellLeft(ctx, h, remote, match, rec)
}

// leftRecord is what a leaver hands the other peer: its envelopes (to
// send again those the other side lacks), its last message, and its
// signed admission (nil if the match ended here otherwise first).
type leftRecord struct {
	sent      []sentFrame
	last      uint64
	admission *fairness.Closing
}

// admit appends this seat's signed admission that it left to the match's
// transcript, once (a transcript that already ends is left as it is), and
// marks the match ended in the store. It returns our side of the
// transcript as it then stands.
func (s Store) admit(pr peerRecord, key crypto.PrivKey) (leftRecord, error) {
	path, err := s.file(pr.Match, s.Transcript)
	if err != nil {
		return leftRecord{}, err
	}
	me, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return leftRecord{}, err
	}
	_, werr := WriteAdmission(path, key) // fails on a transcript that already ends
	var rec leftRecord
	rec.sent, rec.last, rec.admission, err = ownRecord(path, me.String())
	if err != nil {
		return leftRecord{}, errors.Join(werr, err)
	}
	if c := rec.admission; c != nil && c.Closing != fairness.CloseLeft {
		rec.admission = nil // our record of the other's forfeit: the match ended here before
	}
	s.dropAlive(pr.Match)
	if pr.Ended == "" {
		pr.Ended, pr.Seq = "left: "+LeftDetail, rec.last
		if c := rec.admission; c != nil {
			pr.Ended = fmt.Sprintf("%s of seat %d: %s", c.Closing, c.Seat, c.Detail)
		}
		if err := s.writePeer(pr); err != nil {
			return leftRecord{}, err
		}
	}
	return rec, nil
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

// tellLeft tells the other peer of a match that this side has left it on
// purpose, after this side's referee stopped. It runs the resume
// handshake on a fresh resume stream at rec.last, sends again, as every
// resume does, our envelopes after the other side's last message (one
// may have been lost with the stream the stopping referee dropped), then
// the end frame, carrying our signed admission (a bare end frame when
// there is none). The other side's transport reads the end as the match
// being over here, and its referee records our admission, our forfeit in
// our own words, at once (for a bare end: its own record of our
// abandonment) instead of waiting its give-up time for a peer that will
// not come back.
//
// It then waits for the other side's own end frame (or the end of the
// stream, or ctx), so that the stream is not torn down before the end is
// read. A peer that is no longer playing the match is not an error.
func tellLeft(ctx context.Context, h *p2p.Host, remote peer.ID, match string, rec leftRecord) error {
	end := endFrame
	if rec.admission != nil {
		b, err := marshalEnd(rec.admission)
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
	if err := sendResume(ctx, s, resumeFrame{T: "resume", Match: match, Seq: rec.last}); err != nil {
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
	for _, sf := range rec.sent {
		if sf.seq > f.Seq {
			if err := s.Send(ctx, sf.b); err != nil {
				return fmt.Errorf("session: tell left: send message %d again: %w", sf.seq, err)
			}
		}
	}
	if err := s.Send(ctx, end); err != nil {
		return fmt.Errorf("session: tell left: %w", err)
	}
	for {
		// The other side first sends again what it sent after our last
		// message, then its end once its referee has recorded the forfeit.
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
