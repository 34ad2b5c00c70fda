package fairness

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

// Violation is a message that broke the protocol or the rules: who sent it,
// which message it was, and what was wrong. Signed is true when the message
// carries the sender's valid signature, so it is evidence anyone can check;
// otherwise the blame rests on the authenticated connection it came over.
type Violation struct {
	Seat   engine.Seat
	Peer   string
	Seq    uint64
	Signed bool
	Err    error
	// Surfaced is set when the message that brought the violation to light
	// was sent by another seat, Found: an honest reveal that completed a set
	// of hidden choices one of which breaks the rules. The violator's own
	// earlier signed messages are the evidence.
	Surfaced bool
	Found    engine.Seat
}

// Error names the seat, the message and the reason.
func (v *Violation) Error() string { return v.Words().String() }

// Words returns the error's text with its seats apart ([engine.Worded]),
// for an interface to name them.
func (v *Violation) Words() engine.Words {
	return engine.Wordsf("%s (%s) message %d: %v", v.Seat, shortPeer(v.Peer), v.Seq, v.Err)
}

// Unwrap returns the reason.
func (v *Violation) Unwrap() error { return v.Err }

// OnWord reports whether the violation rests only on the word of the
// player whose closing record vouches for it: no signature of the
// offender's proves it at its place (bytes that carry none, or a signed
// message claimed to have come where it was not signed for). A record that
// holds the offender's signed message at that place refutes it (see
// evidence, which words the two cases).
func (v *Violation) OnWord() bool {
	return !errors.Is(v.Err, ErrFalseClaim) && !v.Surfaced && (!v.Signed || needsWitness(v))
}

func shortPeer(p string) string {
	if len(p) > 12 {
		return p[:6] + "…" + p[len(p)-4:]
	}
	return p
}

// ErrOutOfTurn is wrapped when a player sends while it is another's turn.
var ErrOutOfTurn = errors.New("out of turn")

// ErrOtherMatch is wrapped when a message belongs to another match.
var ErrOtherMatch = errors.New("message from another match")

// ErrStateHash is wrapped when a sender's state hash differs from ours.
var ErrStateHash = errors.New("state hash mismatch")

// ErrSequence is wrapped when a message does not continue the match's chain.
var ErrSequence = errors.New("message out of sequence")

// ErrRepeated is wrapped (with ErrSequence) when an accepted message comes again.
var ErrRepeated = fmt.Errorf("%w: repeated", ErrSequence)

// Accept checks one envelope from the network (or a transcript) and applies
// it. A copy of an envelope already accepted returns an error wrapping
// ErrRepeated and changes nothing. Otherwise it checks the match ID, the
// sender, its signature, its place in the chain, whose turn it is, every input against the current need (openings against their
// commitments, dice preimages against their chains, moves against the rules)
// and finally the sender's state hash against ours. The first failure is
// returned as a *Violation, and the match stays stopped.
func (m *Match) Accept(e *Envelope) ([]engine.Event, error) { return m.accept(e, nil) }

// accept is Accept with the body already decoded (nil: decode it here).
func (m *Match) accept(e *Envelope, body *Body) ([]engine.Event, error) {
	if m.broken != nil {
		return nil, m.broken
	}
	if e.Seq >= 1 && e.Seq <= m.seq && e.Hash() == m.history[e.Seq-1].hash {
		// A copy of a message already accepted (a resend after a dropped
		// link): harmless on the wire, never part of an intact transcript.
		return nil, fmt.Errorf("%w: message %d came before", ErrRepeated, e.Seq)
	}
	if v := m.check(e); v != nil {
		m.broken = v
		return nil, v
	}
	from := m.header.Seat(e.From)
	if body == nil {
		var err error
		if body, err = DecodeBody(e.Body); err != nil {
			return nil, m.fail(from, e, true, err)
		}
	}
	return m.acceptBody(e, from, body)
}

// acceptBody applies the decoded body of an envelope that passed check.
func (m *Match) acceptBody(e *Envelope, from engine.Seat, body *Body) ([]engine.Event, error) {
	member := m.isMember(e)
	if member {
		if err := m.checkMember(e, from, body); err != nil {
			return nil, m.fail(engine.Blame(err, from), e, true, err)
		}
	}
	var evs []engine.Event
	m.cuts = m.cuts[:0]
	for i, in := range body.Inputs {
		m.cuts = append(m.cuts, len(evs))
		got, err := m.apply(from, in)
		if err != nil {
			return nil, m.refused(from, e, i+1, in, err)
		}
		if evs == nil {
			evs = got // apply's own slice: most envelopes carry one input
		} else {
			evs = append(evs, got...)
		}
	}
	// A member states the base's state (checkMember); the next chained
	// message states the state the members led to.
	sh := m.StateHash()
	if !member && !hexIs(body.State, sh) {
		return nil, m.fail(from, e, true, fmt.Errorf("%w: sender says %.8s…, this peer computed %.8s…", ErrStateHash, body.State, hexDigest(sh)))
	}
	m.advance(e, from, body.Inputs, sh)
	return evs, nil
}

// refused records the violation of envelope e, sent by from, whose n-th
// input (from 1), in, the match refused with err: the seat err blames is
// at fault.
func (m *Match) refused(from engine.Seat, e *Envelope, n int, in WireInput, err error) *Violation {
	return m.fail(engine.Blame(err, from), e, true, engine.Errorf("input %d (%s): %w", n, in.T, err))
}

func (m *Match) fail(seat engine.Seat, e *Envelope, signed bool, err error) *Violation {
	peer := e.From
	if seat != engine.NoSeat && int(seat) < len(m.header.Players) {
		peer = m.header.Players[seat].Peer
	}
	m.broken = &Violation{Seat: seat, Peer: peer, Seq: e.Seq, Signed: signed, Err: err}
	if from := m.header.Seat(e.From); from != seat && from != engine.NoSeat {
		m.broken.Surfaced, m.broken.Found = true, from
	}
	return m.broken
}

// check validates everything about an envelope but its body.
func (m *Match) check(e *Envelope) *Violation {
	expect, _ := m.Next()
	from := m.header.Seat(e.From)
	if from == engine.NoSeat {
		// Not a player of this match: blame the seat whose turn it is, the
		// only one that could have put it on the wire in a two-seat match.
		return &Violation{Seat: expect.Seat, Peer: e.From, Seq: e.Seq, Err: fmt.Errorf("sender %s is not a player of this match", shortPeer(e.From))}
	}
	if !e.verified {
		if err := e.Verify(m.keys[from]); err != nil {
			return &Violation{Seat: from, Peer: e.From, Seq: e.Seq, Err: err}
		}
	}
	signed := func(err error) *Violation {
		return &Violation{Seat: from, Peer: e.From, Seq: e.Seq, Signed: true, Err: err}
	}
	if !hexIs(e.Match, m.id) {
		return signed(fmt.Errorf("%w: it names match %.16s…, this is %.16s…", ErrOtherMatch, e.Match, hexDigest(m.id)))
	}
	if m.Done() {
		return signed(fmt.Errorf("%w: message after the end of the match", ErrSequence))
	}
	if e.Seq >= 1 && e.Seq <= m.seq {
		past := m.history[e.Seq-1]
		inPlace := past.inPlace(e.Prev)
		switch {
		case m.ousts(e, from, past):
			return signed(engine.Errorf("%w: sent as message %d while it was %s's turn", ErrClaimOverOwn, e.Seq, past.from))
		case inPlace && past.from != from:
			return signed(engine.Errorf("%w: sent as message %d while it was %s's turn", ErrOutOfTurn, e.Seq, past.from))
		case inPlace:
			// Signed for a place already taken by another message of its
			// sender: the record holds both, so it proves the equivocation
			// by itself, wherever this one arrived.
			return signed(fmt.Errorf("%w: %w: a second, different message %d", ErrSequence, ErrEquivocation, e.Seq))
		}
		return signed(fmt.Errorf("%w: message %d does not follow message %d", ErrSequence, e.Seq, e.Seq-1))
	}
	if e.Seq != m.seq+1 {
		return signed(fmt.Errorf("%w: numbered %d, the next is %d", ErrSequence, e.Seq, m.seq+1))
	}
	if !hexIs(e.Prev, m.prev) && !m.isMember(e) {
		return signed(fmt.Errorf("%w: it does not follow message %d (prev %.8s…, want %.8s…)", ErrSequence, m.seq, e.Prev, hexDigest(m.prev)))
	}
	if expect.Seat != from && !m.mayClaim(from, expect.Seat) {
		return signed(engine.Errorf("%w: the match waits for %s's %s", ErrOutOfTurn, expect.Seat, expect.Kind))
	}
	return nil
}

// advance records e, sent by from with inputs, as the last message, and
// the parallel group the match is at after it; state is the state hash
// after it.
func (m *Match) advance(e *Envelope, from engine.Seat, inputs []WireInput, state Digest) {
	id := e.Hash()
	a := accepted{prev: m.prev, hash: id, from: from}
	if g, _, ok := m.memberPlace(e.Seq); ok {
		a.base, a.member = g.id, hexIs(e.Prev, g.id) && !hexIs(e.Prev, m.prev)
		a.baseSeq = g.seq
	}
	m.history = append(m.history, a)
	m.seq = e.Seq
	m.prev = id
	m.inMessage = 0
	m.msg = msgContribs{}
	m.stated.h, m.stated.ok = state, true
	contrib := contributions(inputs)
	kind := InputKind("")
	if len(contrib) == 1 {
		kind = contrib[0].T
	}
	m.regroup(id, len(contrib) == 1, kind, state)
}

// Staged records e as the last message once its inputs (inputs, from
// from) have been staged one by one, by a replay that does not check the
// record (CountFlights, a viewer's shadow). It must: where a run of rolls
// goes on, the order of its later rolls follows from the parallel group
// the match is at (Match.order), which only a message's end sets.
func (m *Match) Staged(e *Envelope, from engine.Seat, inputs []WireInput) {
	m.advance(e, from, inputs, m.StateHash())
}

// Stage applies one input of the local seat, ahead of sealing it into an
// envelope. Nothing changes if it fails.
func (m *Match) Stage(seat engine.Seat, in WireInput) ([]engine.Event, error) {
	if m.broken != nil {
		return nil, m.broken
	}
	return m.apply(seat, in)
}

// Seal wraps staged inputs into the next envelope, signed with key, and
// records it as accepted.
func (m *Match) Seal(seat engine.Seat, inputs []WireInput, key crypto.PrivKey) (*Envelope, error) {
	state := m.StateHash()
	e, err := m.Draft(inputs, state, key)
	if err != nil {
		return nil, err
	}
	m.advance(e, seat, inputs, state)
	return e, nil
}

// Draft builds and signs the next envelope with the given inputs and state
// hash without recording it. Seal uses it; so does the referee for
// Hooks.Refused, to send what an honest referee would refuse to.
func (m *Match) Draft(inputs []WireInput, state Digest, key crypto.PrivKey) (*Envelope, error) {
	body, err := EncodeBody(&Body{Inputs: inputs, State: hexDigest(state)})
	if err != nil {
		return nil, err
	}
	e := &Envelope{Match: hexDigest(m.id), Seq: m.seq + 1, Prev: hexDigest(m.prev), Body: body}
	if err := e.Sign(key); err != nil {
		return nil, err
	}
	return e, nil
}
