package session

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/fairness"
)

// ServeEnded makes the resumer answer, from store, a late resume of a
// match that ended here by the other peer's forfeit in an earlier run of
// this process (the process stopped before the peer came back): it sends
// again our envelopes the peer lacks, then the end frame with our signed
// closing record, so that the late peer records our word instead of
// claiming our forfeit in turn. Call it before the host accepts streams.
func (r *Resumer) ServeEnded(store Store) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.store = &store
}

// reviveEnded rebuilds, from the store, the transport of a match that
// ended here by remote's forfeit, closed and holding our envelopes and our
// closing record, ready to answer remote's resume. It lingers
// ForfeitLinger, like a match that just ended so.
func (r *Resumer) reviveEnded(match string, remote peer.ID) (*Reconnecting, error) {
	r.mu.Lock()
	store := r.store
	r.mu.Unlock()
	if store == nil {
		return nil, errors.New("session: no store of ended matches")
	}
	pr, err := store.readPeer(match)
	if err != nil {
		return nil, err
	}
	if pr.Ended == "" || pr.Ended == endedOver || pr.Remote != remote.String() {
		return nil, fmt.Errorf("session: match %.12s… did not end here by %s's forfeit", match, short(remote.String()))
	}
	sent, last, closing, err := ownRecord(store.Transcript(match), r.h.ID().String())
	if err != nil {
		return nil, err
	}
	if closing == nil {
		return nil, fmt.Errorf("session: match %.12s… has no forfeit record of ours", match)
	}
	// Built whole, closed and holding what it will send, before anyone
	// else can find it: a second resume stream must never meet a
	// transport with nothing to send again.
	rc := newReconnecting(r, match, remote, ReconnectConfig{})
	rc.mu.Lock()
	rc.sent, rc.maxSeq = sent, last
	rc.mark.Reset(last)
	rc.mu.Unlock()
	if err := rc.closeWithForfeit(closing); err != nil {
		rc.release()
		return nil, err
	}
	r.mu.Lock()
	if old, ok := r.live[match]; ok {
		r.mu.Unlock()
		rc.release() // another stream revived it first
		return old, nil
	}
	r.live[match] = rc
	r.mu.Unlock()
	return rc, nil
}

// ownRecord reads our side of a transcript: the envelopes we sent (to
// send again), the last message's seq, and the closing record we wrote if
// it records another seat's forfeit, or our own (we left: see Leave).
func ownRecord(path, me string) (sent []sentFrame, last uint64, closing *fairness.Closing, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("session: %w", err)
	}
	defer f.Close()
	h, tr, err := fairness.ReadTranscript(f)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("session: %s: %w", path, err)
	}
	seat := h.Seat(me)
	var envs []*fairness.Envelope
	for {
		ln, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, nil, fmt.Errorf("session: %s: %w", path, err)
		}
		switch c := ln.Closing; {
		case ln.Envelope != nil:
			last = ln.Envelope.Seq
			envs = append(envs, ln.Envelope)
		case isOwnForfeit(c, me) && int(seat) != c.Seat, isOwnAdmission(c, me) && int(seat) == c.Seat:
			closing = c
		}
	}
	if sent, err = ownFrames(envs, me); err != nil {
		return nil, 0, nil, fmt.Errorf("session: %s: %w", path, err)
	}
	return sent, last, closing, nil
}

// ownFrames encodes, to send again, the envelopes of envs that me sent.
func ownFrames(envs []*fairness.Envelope, me string) ([]sentFrame, error) {
	var sent []sentFrame
	for _, e := range envs {
		if e.From != me {
			continue
		}
		b, err := fairness.EncodeEnvelope(e)
		if err != nil {
			return nil, err
		}
		sent = append(sent, sentFrame{e.Seq, b})
	}
	return sent, nil
}

// isOwnForfeit reports a closing record that me wrote for another
// player's forfeit (a timeout or an abandon).
func isOwnForfeit(c *fairness.Closing, me string) bool {
	return c != nil && c.By == me &&
		(c.Closing == fairness.CloseTimeout || c.Closing == fairness.CloseAbandoned)
}

// isOwnAdmission reports a closing record in which me admits that it left
// (see Leave).
func isOwnAdmission(c *fairness.Closing, me string) bool {
	return c != nil && c.By == me && c.Closing == fairness.CloseLeft
}
