package fairness

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Who a frame can be blamed on.
//
// A frame has an author: on a pubsub topic the peer whose key signed the
// pubsub message (libp2p checks that signature; whoever relayed the frame,
// the author stays the same), on a match stream the only other seat. The
// envelope it carries names a sender in From. The two differ legitimately:
// gossip relays every message, and a validly signed envelope proves its
// signer sent it, whoever relayed it. But an envelope that does not carry a
// valid signature of the seat it names, for this match, proves nothing
// against that seat: anyone may have written it. So such an envelope is
// only held against its author, and only when the author is the seat it
// names (its own frame, then checked and blamed as always); from anyone
// else it is dropped, never blamed on the seat it names. Blaming the author
// instead would rest on this peer's word alone and, on a topic, would let
// the author end the match at some honest peers and not at others (it
// chooses whom to send to), which then time out on each other; dropping
// leaves every honest peer where it was.
//
// For the same reason, in a group match a validly signed envelope whose
// place in the chain (its Prev) is not the one this peer holds is dropped
// too: the seat before it may have sent two versions of its message to
// different peers (equivocation, caught when both arrive), and an honest
// signer that saw the other version must not be blamed for it.

// screening is what screen decides about a decoded envelope.
type screening int

const (
	// vouched: validly signed by the seat it names, for this match.
	vouched screening = iota
	// owned: not vouched, but its author is the seat it names; the checks
	// of Accept blame that seat for what is wrong with it.
	owned
	// dropped: proves nothing against anyone.
	dropped
)

// screen decides what an envelope received from author (a peer ID) is.
// A vouched envelope is marked verified, so that Accept does not check its
// signature again.
func (r *Referee) screen(e *Envelope, author string) screening {
	h := r.m.Header()
	named := h.Seat(e.From)
	if named == engine.NoSeat {
		return dropped
	}
	if e.Match == h.Match && e.verifyOnce(r.m.keys[named]) == nil {
		// The decoder reads only the one spelling of a message (a
		// re-spelled copy comes through vouchedCopy), so its ID is the
		// one its signer gave it: a copy is a copy, never a second
		// version, an equivocation of its signer.
		return vouched
	}
	if named == h.Seat(author) {
		return owned
	}
	return dropped
}

// vouchedCopy reads a frame that is not in the one byte form Salvo writes
// but may still carry a seat's validly signed message in another spelling
// (a line break or other padding bits in its signature, keys in another
// order or case). Whoever relays a message on a topic can re-spell it, and
// its signer must not pay for that: the signature covers the values, not
// their spelling. It returns the message in its one form when that form
// verifies against the seat the message names, for this match; nil
// otherwise, and the frame is then judged as it came.
func (r *Referee) vouchedCopy(b []byte) *Envelope {
	if len(b) > MaxEnvelope {
		return nil
	}
	var loose Envelope
	if strictUnmarshal(b, &loose) != nil {
		return nil
	}
	h := r.m.Header()
	named := h.Seat(loose.From)
	if named == engine.NoSeat || loose.Match != h.Match {
		return nil
	}
	loose.Sig = respell(loose.Sig)
	canon, err := EncodeEnvelope(&loose)
	if err != nil {
		return nil
	}
	e, err := DecodeEnvelope(canon)
	if err != nil || e.Verify(r.m.keys[named]) != nil {
		return nil
	}
	return e
}

// respell returns the one spelling of a signature that Sign writes (sig
// decodes: it verified).
func respell(sig string) string {
	b, err := base64.StdEncoding.DecodeString(sig)
	if err != nil {
		return sig
	}
	return base64.StdEncoding.EncodeToString(b)
}

// handleEnvelope checks and applies a decoded envelope received from
// author; group is set on a topic, where frames come out of order and may
// be relayed. Envelopes numbered ahead of the next are held, once their
// signature verifies, until their turn; see handleFrame for what it
// returns.
func (r *Referee) handleEnvelope(ctx context.Context, e *Envelope, size int, author string, group bool) error {
	switch sc := r.screen(e, author); {
	case sc == dropped:
		return r.drop(e, author, "it does not carry a valid signature of the seat it names for this match")
	case r.m.Removed(r.m.Header().Seat(e.From)):
		return r.drop(e, author, "its signer was taken off the table")
	case sc == owned:
		return r.acceptEnvelope(ctx, e)
	}
	if e.Seq > r.m.Seq()+1 {
		if !r.early.hold(e, r.m.Header().Seat(e.From), size, author) {
			return r.drop(e, author, "it is beyond what is held ahead of the match for its signer")
		}
		r.res.HeldPeak = max(r.res.HeldPeak, r.early.total)
		return errIgnored
	}
	if err := r.acceptInPlace(ctx, e, author, group); err != nil {
		return err
	}
	return r.drain(ctx, group)
}

// acceptInPlace accepts a vouched envelope, unless in a group match it
// does not continue the chain this peer holds (see the comment at the top).
func (r *Referee) acceptInPlace(ctx context.Context, e *Envelope, author string, group bool) error {
	if (group || r.m.Header().Seat(e.From) == r.cfg.Seat) && !r.m.follows(e) {
		// Our own member too, when its group broke up before its place
		// (a seat taken off the table in between): it has no place now.
		return r.drop(e, author, "it does not follow the message this peer holds before it")
	}
	if r.m.Removed(r.m.Header().Seat(e.From)) {
		return r.drop(e, author, "its signer was taken off the table")
	}
	if r.holdClaim(e, author, group) {
		return errIgnored
	}
	return r.acceptEnvelope(ctx, e)
}

// drain applies the held envelopes whose turn has come, in order: at each
// number the one of the seat the match waits for first, then the others
// (which the checks then blame on their signers, or drop).
func (r *Referee) drain(ctx context.Context, group bool) error {
	for r.res.Closing == nil && !r.m.Done() {
		seq, ok := r.early.lowest()
		if !ok || seq > r.m.Seq()+1 {
			return nil
		}
		st, _ := r.m.Next()
		for _, x := range r.early.take(seq, st.Seat) {
			if r.res.Closing != nil || r.m.Done() {
				return nil
			}
			if err := r.acceptInPlace(ctx, x.e, x.author, group); err != nil && !errors.Is(err, errIgnored) {
				return err
			}
		}
	}
	return nil
}

// drop counts and logs a frame that proves nothing against anyone.
func (r *Referee) drop(e *Envelope, author, why string) error {
	r.res.Dropped++
	r.log.Warn("message dropped", "seq", e.Seq, "named", shortPeer(e.From), "author", shortPeer(author), "why", why)
	return errIgnored
}

// follows reports whether a validly signed envelope of this match sits where
// this match's chain has a place for it: right after the last message
// accepted, or in the place of an accepted one (a copy, or a rival that
// the checks then blame on its signer).
func (m *Match) follows(e *Envelope) bool {
	switch {
	case e.Seq == m.seq+1:
		return e.Prev == hexDigest(m.prev) || m.isMember(e)
	case e.Seq >= 1 && e.Seq <= m.seq:
		return m.history[e.Seq-1].inPlace(e.Prev)
	}
	return false
}

// House bounds of the envelopes held ahead of their turn, per signing seat.
// Nothing is held before its signature verifies, so a seat fills only its
// own share. An honest seat is never far ahead of another: the match waits
// for every seat's own messages.
const (
	// maxEarlyPerSeat bounds the envelopes held for one seat.
	maxEarlyPerSeat = 16
	// maxEarlyBytesPerSeat bounds their bytes: room for two of the
	// largest envelopes.
	maxEarlyBytesPerSeat = 2 * MaxEnvelope
)

// heldEnvelope is an envelope held ahead of its turn.
type heldEnvelope struct {
	e      *Envelope
	seat   engine.Seat // its signer
	author string      // the peer it came from
	size   int
}

// earlyBuffer holds validly signed envelopes numbered ahead of the next, in
// arrival order per number. Every distinct version is kept (within bounds):
// a later valid message of a number is never blocked by an earlier one.
// Not safe for concurrent use.
type earlyBuffer struct {
	held  map[uint64][]heldEnvelope
	count map[engine.Seat]int
	bytes map[engine.Seat]int64
	total int64 // bytes held, all seats
}

// hold keeps e, signed by seat, of size bytes on the wire, received from
// author. Over the seat's count bound, its envelopes numbered furthest
// ahead go first (they are needed last); over its byte bound, its largest
// (real ones are small); it reports false when that is e itself.
//
// Only the signer's own signed envelopes count against its bounds, so no
// seat can push out another's. A seat can push out its own: signing many
// versions of the messages just ahead, it can make a peer lose its real
// one, which is no more than going silent towards that peer (the peer then
// names it by timeout).
func (b *earlyBuffer) hold(e *Envelope, seat engine.Seat, size int, author string) bool {
	if b.held == nil {
		b.held = map[uint64][]heldEnvelope{}
		b.count = map[engine.Seat]int{}
		b.bytes = map[engine.Seat]int64{}
	}
	for _, x := range b.held[e.Seq] {
		// Everything held verified against its signer's key, so the
		// signer and the signature text identify it.
		if x.e.From == e.From && x.e.Sig == e.Sig {
			return true // a copy of one held
		}
	}
	b.held[e.Seq] = append(b.held[e.Seq], heldEnvelope{e: e, seat: seat, author: author, size: size})
	b.count[seat]++
	b.bytes[seat] += int64(size)
	b.total += int64(size)
	for b.count[seat] > maxEarlyPerSeat || b.bytes[seat] > maxEarlyBytesPerSeat {
		if b.evict(seat, b.count[seat] <= maxEarlyPerSeat) == e {
			return false
		}
	}
	return true
}

// evict removes the seat's envelope numbered furthest ahead (of those, the
// last to arrive) and returns it; bySize, the largest first (real
// envelopes are small: an Air shuffle, the largest, is about 16 KB).
func (b *earlyBuffer) evict(seat engine.Seat, bySize bool) *Envelope {
	var top uint64
	at, size := -1, -1
	for seq, xs := range b.held {
		for i, x := range xs {
			if x.seat != seat {
				continue
			}
			bigger := bySize && x.size > size
			later := (!bySize || x.size == size) && (seq > top || seq == top && i > at)
			if at < 0 || bigger || later {
				top, at, size = seq, i, x.size
			}
		}
	}
	x := b.held[top][at]
	b.held[top] = append(b.held[top][:at:at], b.held[top][at+1:]...)
	if len(b.held[top]) == 0 {
		delete(b.held, top)
	}
	b.release(x)
	return x.e
}

func (b *earlyBuffer) release(x heldEnvelope) {
	if b.count[x.seat]--; b.count[x.seat] == 0 {
		delete(b.count, x.seat)
	}
	if b.bytes[x.seat] -= int64(x.size); b.bytes[x.seat] == 0 {
		delete(b.bytes, x.seat)
	}
	b.total -= int64(x.size)
}

// lowest returns the lowest number held.
func (b *earlyBuffer) lowest() (uint64, bool) {
	var low uint64
	found := false
	for seq := range b.held {
		if !found || seq < low {
			low, found = seq, true
		}
	}
	return low, found
}

// take removes and returns every envelope of number seq: first's in
// arrival order, then the others' in arrival order.
func (b *earlyBuffer) take(seq uint64, first engine.Seat) []heldEnvelope {
	xs := b.held[seq]
	delete(b.held, seq)
	out := make([]heldEnvelope, 0, len(xs))
	for _, pass := range []bool{true, false} {
		for _, x := range xs {
			if (x.seat == first) == pass {
				out = append(out, x)
			}
		}
	}
	for _, x := range xs {
		b.release(x)
	}
	return out
}

// String describes what is held, for logs and tests.
func (b *earlyBuffer) String() string {
	n := 0
	for _, xs := range b.held {
		n += len(xs)
	}
	return fmt.Sprintf("%d envelopes, %d bytes held early", n, b.total)
}
