package fairness

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Parallel groups (issue 15): independent contributions sent at once.
//
// Every envelope is one link of a single signed chain: message n names
// message n-1 as its Prev. A joint step (a roll's dice preimages, a deal's
// unmasking shares, the commitments and then the openings of a hidden
// choice, the hellos) takes its contributions one seat at a time, in the
// order Match.order fixes, so that with four players a roll waited for
// three flights in a row. Yet none of those contributions can be chosen
// after seeing the others': a dice preimage is fixed by the seat's
// committed chain, an unmasking share by the committed deck keys (and
// proved), a choice commitment reveals nothing, a choice's opening is
// fixed by its commitment, and openings start only once every commitment
// of the choice is in; a hello's chain tip binds nothing another seat
// could exploit, since a roll depends on preimages nobody has seen.
//
// So at such a step, the base (the last message before the step, or the
// match ID before the first), the contributors still owed, c1..ck, are
// known to everyone, in the order Match.order already fixes. Contributor
// ci may send, without waiting for c1..c(i-1), a member: an envelope
// numbered base+i whose Prev is the base's ID (not message base+i-1's),
// holding exactly its one contribution and, as its state hash, the base's
// (it cannot know the state the earlier members lead to). Every peer
// applies the messages in number order as before, so every transcript
// holds the same lines in the same order and the audit replays them as it
// always did; the true state hash is stated again by the next chained
// message. Any contributor may instead wait and chain as before (message
// base+i after message base+i-1), as a person's choice does.
//
// A member is accepted only where the group it names is intact: every
// message since the base was one contribution to the same step, and the
// step still waits for the member's sender at its number. Anything else
// (a removal in between, two inputs, another kind, another state hash, a
// number beyond the group) is refused as any message out of its place is.

// parGroup is the group of independent contributions the match is at: the
// base message and the places after it, each one contribution of one seat.
type parGroup struct {
	seq    uint64 // the base's number (0: the match ID)
	id     Digest // the base's ID, a member's Prev
	state  Digest // the state hash after the base, a member's state
	places []Step // places[i] is message seq+1+i: its seat, kind and need
}

// ErrMember is wrapped when an envelope that claims a place in a parallel
// group (its Prev names the group's base, not the message before it) is
// not a member that place can hold: it is out of sequence, signed after a
// message it does not follow.
var ErrMember = fmt.Errorf("%w: not a member of the parallel group", ErrSequence)

// ErrBadMember is wrapped when an envelope signed for a member's place of
// the group the match is at (numbered for the place, its Prev the group's
// base, the group intact) holds what no member there may: other inputs,
// another seat's place, another state. The places follow from the base
// alone, so its signature proves the fault wherever the record puts it,
// unlike a message out of sequence (needsWitness): a later member of
// another seat, signed at once, may already be on its way (a run of rolls
// puts places of one seat after another's), and a record holding the
// sender's honest member at that place then shows two versions of it.
var ErrBadMember = fmt.Errorf("%w: not what its place holds", ErrMember)

// independent reports whether a step of kind k is one whose contributions
// no seat can choose after seeing the others' (see the comment above). A
// deck key share is one too: it is proved (a Schnorr proof of knowledge
// bound to its seat), so no seat can cancel another's key with it, and a
// key tells nobody anything of a card.
func independent(k InputKind) bool {
	switch k {
	case InHello, InShare, InUnmask, InChoose, InReveal, InDeckKey:
		return true
	}
	return false
}

// regroup sets the group the match is at after the message with ID id
// (the match ID at the start), after which the state hash is state: the
// same group while its places are filled one message each, else a new one
// based on this message when the match waits for a run of independent
// contributions of more than one seat.
func (m *Match) regroup(id Digest, single bool, kind InputKind, state Digest) {
	if g := m.group; g != nil && single && m.seq > g.seq && m.seq < g.seq+uint64(len(g.places)) {
		k := m.seq - g.seq // the place just filled is k-1
		if kind == g.places[k-1].Kind {
			if st, ok := m.Next(); ok && st.Seat == g.places[k].Seat && st.Kind == g.places[k].Kind {
				return // the group goes on
			}
		}
	}
	m.group = nil
	st, ok := m.Next()
	if !ok {
		return
	}
	places := m.run(st)
	if len(places) < 2 || !slices.ContainsFunc(places[1:], func(p Step) bool { return p.Seat != places[0].Seat }) {
		return
	}
	m.group = &parGroup{seq: m.seq, id: id, state: state, places: places}
}

// run lists the places of the run of independent contributions the match
// waits for, from step st on, in the order they come (runs.go).
func (m *Match) run(st Step) []Step {
	if m.oneStep {
		return m.oneStepGroup(st)
	}
	switch {
	case st.Kind == InHello || st.Kind == InCommit:
		return m.setupRun(st)
	case !independent(st.Kind) || m.gather == nil:
		return nil
	}
	if st.Kind == InShare {
		return m.rollsRun(st)
	}
	places := m.gatherPlaces(st)
	switch st.Kind {
	case InReveal:
		places = append(places, m.opensAfter(st.Need)...)
	case InUnmask:
		places = append(places, m.dealsAfter(st, places[len(places)-1].Seat)...)
	}
	return places
}

// oneStepGroup lists the places of the group a record of the one-step
// format (oneStepFormat, salvo/3) had at step st: the seats owed to that
// one step alone, hellos or the contributors of a joint step (never a
// deck key share), and nothing after it.
func (m *Match) oneStepGroup(st Step) []Step {
	switch {
	case st.Kind == InHello:
		run := m.setupRun(st)
		if i := slices.IndexFunc(run, func(p Step) bool { return p.Kind != InHello }); i >= 0 {
			run = run[:i] // the hellos in a row, as salvo/3 asked for them
		}
		return run
	case st.Kind == InDeckKey || !independent(st.Kind) || m.gather == nil:
		return nil
	}
	return m.gatherPlaces(st)
}

// gatherPlaces lists the contributors of the joint step st still owed.
func (m *Match) gatherPlaces(st Step) []Step {
	var places []Step
	for _, s := range m.gather.order[m.gather.pos:] {
		p := st
		p.Seat = s
		places = append(places, p)
	}
	return places
}

// memberPlace returns the group and the index in it of message seq when
// an envelope numbered seq may name the group's base as its Prev: it is
// the next message and a member's place (not the group's first, which
// follows the base anyway).
func (m *Match) memberPlace(seq uint64) (*parGroup, int, bool) {
	g := m.group
	if g == nil || seq != m.seq+1 || seq < g.seq+2 || seq > g.seq+uint64(len(g.places)) {
		return nil, 0, false
	}
	return g, int(seq - g.seq - 1), true
}

// isMember reports whether e, the next message, claims a member's place:
// its Prev is the group's base, not the last message.
func (m *Match) isMember(e *Envelope) bool {
	g, _, ok := m.memberPlace(e.Seq)
	return ok && e.Prev == hexDigest(g.id) && e.Prev != hexDigest(m.prev)
}

// checkMember checks what a member's body must be: exactly one input, of
// its place's kind, from the seat owed at its place, stating the base's
// state hash.
func (m *Match) checkMember(e *Envelope, from engine.Seat, body *Body) error {
	g, i, _ := m.memberPlace(e.Seq)
	p := g.places[i]
	contrib := contributions(body.Inputs)
	switch {
	case len(contrib) != 1 || len(body.Inputs) > 1 && !g.closedByPreshares(i):
		return fmt.Errorf("%w: %d inputs; a member holds only its one contribution", ErrBadMember, len(body.Inputs))
	case body.Inputs[0].T != p.Kind:
		return fmt.Errorf("%w: a %s input in the group's place of a %s contribution", ErrBadMember, body.Inputs[0].T, p.Kind)
	case from != p.Seat:
		return engine.Errorf("%w: message %d of the group is %s's", ErrBadMember, e.Seq, p.Seat)
	case body.State != hexDigest(g.state):
		return fmt.Errorf("%w: a member of a parallel group states its base's state %.8s…, it says %.8s…", ErrStateHash, hexDigest(g.state), body.State)
	}
	return nil
}

// closedByPreshares reports whether the member at place i may close with
// pre-shares: the last place of a group of the shares of one roll
// (runs.go). A run of several rolls is predicted exactly, so what follows
// it is no roll its places could have held: its members hold their share
// alone.
func (g *parGroup) closedByPreshares(i int) bool {
	return i == len(g.places)-1 && !slices.ContainsFunc(g.places, func(p Step) bool { return p.Kind != InShare || p.Roll != g.places[0].Roll })
}

// MemberPlace says where seat may send its next contribution to the group
// the match is at as a member, without waiting for the contributors before
// it: the message number, the Prev (the base's ID) and the state hash the
// envelope must carry, and the step it contributes to. after skips the
// seat's places up to that number (those sent already). ok is false when
// seat owes no member's place now (no group, or its turn is the next
// message anyway).
func (m *Match) MemberPlace(seat engine.Seat, after uint64) (seq uint64, prev, state Digest, st Step, ok bool) {
	g := m.group
	if g == nil {
		return 0, Digest{}, Digest{}, Step{}, false
	}
	// Its place must not be taken yet. A seat sends a member even where
	// its place is the next message: its envelope for a member's place is
	// then the same whether it waited or not, so a referee that resumes
	// after a crash, not knowing whether its member went out, cannot sign
	// a chained second version of the place.
	if m.seq == g.seq && g.places[0].Seat == seat {
		// Its own chained message comes first: a seat sends in number
		// order (a transport keeps what it sent by number).
		return 0, Digest{}, Digest{}, Step{}, false
	}
	for i := max(1, int(m.seq-g.seq)); i < len(g.places); i++ {
		if seq := g.seq + 1 + uint64(i); g.places[i].Seat == seat && seq > after {
			return seq, g.id, g.state, g.places[i], true
		}
	}
	return 0, Digest{}, Digest{}, Step{}, false
}

// Member builds and signs seat's member envelope for place seq of the
// group the match is at, holding the one input in (see MemberPlace) and,
// at the last place of a group of dice shares, the pre-shares pre
// (runs.go). It does not apply it: the member is applied, like any message, when its
// number comes.
func (m *Match) Member(seat engine.Seat, seq uint64, in WireInput, sign func(*Envelope) error, pre ...WireInput) (*Envelope, error) {
	at, prev, state, _, ok := m.MemberPlace(seat, seq-1)
	if !ok || at != seq {
		return nil, fmt.Errorf("%w: %s owes no member's place %d now", ErrMember, seat, seq)
	}
	body, err := EncodeBody(&Body{Inputs: append([]WireInput{in}, pre...), State: hexDigest(state)})
	if err != nil {
		return nil, err
	}
	e := &Envelope{Match: hexDigest(m.id), Seq: seq, Prev: hexDigest(prev), Body: body}
	if err := sign(e); err != nil {
		return nil, err
	}
	return e, nil
}

// inRun reports whether the next message is a place of the group the
// match is at that another place follows: it must hold that one
// contribution alone (a seat with two places in a row sends two
// messages), or the places after it would shift.
func (m *Match) inRun() bool {
	g := m.group
	return g != nil && m.seq >= g.seq && m.seq+1 < g.seq+uint64(len(g.places))
}

// MemberBase returns the ID a message numbered seq, the next, may name as
// its Prev besides the last message's: its group's base, when seq is a
// member's place.
func (m *Match) MemberBase(seq uint64) (Digest, bool) {
	g, _, ok := m.memberPlace(seq)
	if !ok {
		return Digest{}, false
	}
	return g.id, true
}

// SeqMark is how far a match has gone as a transport sees the envelopes
// it sends and receives: the highest number seen with every number before
// it seen too. Before parallel groups that was simply the highest number
// seen; a member is numbered ahead of messages not yet sent, and a mark
// that took its number would tell the other side, on a new stream, that
// this side had messages it never received (so they were not sent again).
type SeqMark struct {
	top   uint64
	ahead map[uint64]bool
}

// maxMarkAhead bounds how far ahead of its gap a SeqMark notes numbers: a
// transport notes every frame's number before anything checks it, so a
// peer streaming frames numbered ever further ahead would otherwise grow
// the mark by one entry a frame for the rest of the match. A parallel
// group puts at most a few members (one per other seat) ahead of a gap;
// a number not noted only makes a resume ask for more, which is harmless.
const maxMarkAhead = 64

// See notes that the envelope numbered seq was sent or received.
func (s *SeqMark) See(seq uint64) {
	if seq > s.top+maxMarkAhead {
		return
	}
	if seq > s.top+1 {
		if s.ahead == nil {
			s.ahead = map[uint64]bool{}
		}
		s.ahead[seq] = true
		return
	}
	s.top = max(s.top, seq)
	for s.ahead[s.top+1] {
		delete(s.ahead, s.top+1)
		s.top++
	}
}

// Top returns the mark.
func (s *SeqMark) Top() uint64 { return s.top }

// Reset sets the mark to top (a match taken up from its transcript).
func (s *SeqMark) Reset(top uint64) { s.top, s.ahead = top, nil }
