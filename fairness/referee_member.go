package fairness

import (
	"context"
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// sendMember sends the local seat's contribution to the parallel group the
// match is at (parallel.go) at once, as a member: it does not wait for the
// contributors before it. Where its place is the next message it sends the
// member form all the same (see MemberPlace: one version of each place). The
// member is held with the envelopes that arrived ahead of their turn and
// applied, and written to the transcript, when its number comes, like any
// other (so every transcript keeps the lines in number order).
//
// A member is a function of the base and of what the seat's secrets hold,
// saved before it is sent (a dice link, an unmasking share, an opening, a
// chain tip, a choice's commitment kept by name): a referee that resumes
// after a crash signs the very same envelope again, never a second version
// of its place.
//
// The seat that acts on a roll sends its share as a member too: it must
// wait for the others' shares before it moves either way, so its move in
// an envelope of its own costs no flight, and when the roll decides
// something by itself (a second roll follows at once) the share saved a
// flight. A hidden choice is committed as a member once the agent has
// answered the question asked early (a person too: remote wakes when the
// answer comes, see earlyMember), and chains as before when the answer
// comes only at the seat's turn. A peer with Hooks (a test's cheat) never
// sends members.
func (r *Referee) sendMember(ctx context.Context) error {
	seat := r.cfg.Seat
	seq, prev, _, st, ok := r.m.MemberPlace(seat)
	if !ok || r.cfg.Hooks != nil || r.memberSent == (memberKey{seq, prev}) {
		return nil
	}
	in, ready, err := r.produceMember(ctx, st)
	if err != nil || !ready {
		return err
	}
	e, err := r.m.Member(seat, in, func(e *Envelope) error { return e.Sign(r.cfg.Key) })
	if err != nil {
		return fmt.Errorf("referee: %w", err)
	}
	r.memberSent = memberKey{seq, prev}
	r.log.Debug("member", "seq", e.Seq, "base", r.m.group.seq, "at", r.m.Seq(), "seats", r.m.group.seats, "kind", st.Kind)
	b, err := EncodeEnvelope(e)
	if err != nil {
		return err
	}
	if !r.early.hold(e, seat, len(b), r.m.Header().Players[seat].Peer) {
		return fmt.Errorf("referee: no room to hold the seat's own member %d", e.Seq)
	}
	if err := r.send(ctx, e); err != nil {
		return err
	}
	// A local note, not an outgoing one: the match has not reached the
	// member's number here, and whoever counts how far it went by the
	// notes (a transport asking for missed messages) must not count it
	// until it takes its place (acceptEnvelope notes it then).
	r.note(Note{Seat: seat, Dir: DirLocal, OK: true, Kind: st.Kind}.WithText(engine.Wordsf("message %d signed and sent at once, a member of the parallel group after message %d: %s", e.Seq, r.m.group.seq, describe(st.Need))))
	return nil
}

// memberKey names a member's place: its number and its base.
type memberKey struct {
	seq  uint64
	base Digest
}

// produceMember builds the seat's contribution for a member's place; ready
// is false when it cannot be known yet. A choice kept from before (a
// resumed referee) is committed again as it was. A new one is the agent's
// answer to the question asked early (early.go) once it is in, whoever
// answers (a person at a prompt, a bot), or, from an agent that decides at
// once (a bot), asked now; a person's answer still to come is not waited
// for here: the referee watches the network meanwhile (remote) and sends
// the member when the answer arrives.
func (r *Referee) produceMember(ctx context.Context, st Step) (in WireInput, ready bool, err error) {
	if st.Kind != InChoose {
		in, _, err := r.produce(ctx, st, nil)
		return in, err == nil, err
	}
	if v, ok := r.secrets.Vector(st.Need.Name); ok {
		return WireInput{T: InChoose, Name: st.Need.Name, Root: hexDigest(v.Root())}, true, nil
	}
	var d engine.Decision
	switch a := r.answeredEarly(st); {
	case a != nil:
		d = a.ans.d
		r.ahead = a.next // its question is answered for good: the member takes its place
	case isImmediate(r.cfg.Agent):
		if d, err = r.cfg.Agent.Decide(ctx, r.m.Game().Clone(), r.cfg.Seat, r.secrets.Snapshot(), st.Need); err != nil {
			return WireInput{}, false, fmt.Errorf("referee: agent: %w", err)
		}
	default:
		return WireInput{}, false, nil
	}
	v, err := NewVector(r.m.ID(), r.cfg.Seat, st.Need.Name, [][]byte{d.Choice})
	if err != nil {
		return WireInput{}, false, fmt.Errorf("referee: %w", err)
	}
	r.secrets.Add(v)
	if err := r.saveSecrets(); err != nil {
		return WireInput{}, false, err
	}
	return WireInput{T: InChoose, Name: st.Need.Name, Root: hexDigest(v.Root())}, true, nil
}

// answeredEarly returns the early question for the member's step st when
// the agent has answered it (without error) and nothing since has made it
// wrong, else nil.
func (r *Referee) answeredEarly(st Step) *ask {
	a := r.ahead
	if a == nil || !r.stands(a, st) {
		return nil
	}
	select {
	case <-a.answered:
		if a.ans.err == nil {
			return a
		}
	default:
	}
	return nil
}

// earlyMember returns what remote watches, besides the network, for a
// member the seat owes: the early question for its member's step, closed
// once answered. Nil when there is none to watch: no member's place, the
// member sent already, or no question for it asked.
func (r *Referee) earlyMember() <-chan struct{} {
	seq, prev, _, st, ok := r.m.MemberPlace(r.cfg.Seat)
	if !ok || r.cfg.Hooks != nil || r.memberSent == (memberKey{seq, prev}) || st.Kind != InChoose {
		return nil
	}
	if a := r.ahead; a != nil && r.stands(a, st) {
		return a.answered
	}
	return nil
}

// heldDue reports whether an envelope held ahead of its turn is the next
// message (with own, only the seat's own member): the loop applies it
// instead of waiting for a frame or producing the input again.
func (r *Referee) heldDue(own bool) bool {
	low, ok := r.early.lowest()
	if !ok || low != r.m.Seq()+1 {
		return false
	}
	for _, x := range r.early.held[low] {
		if !own || x.seat == r.cfg.Seat {
			return true
		}
	}
	return false
}

// isGroup reports whether t is shared by more than two seats.
func isGroup(t Transport) bool {
	_, ok := t.(GroupTransport)
	return ok
}
