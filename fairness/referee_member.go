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
	if r.cfg.Hooks != nil {
		return nil
	}
	for {
		seq, _, st, ok := r.nextMemberPlace()
		if !ok {
			return nil
		}
		in, ready, err := r.produceMember(ctx, st)
		if err != nil || !ready {
			return err
		}
		if err := r.sendMemberAt(ctx, seq, st, in); err != nil {
			return err
		}
	}
}

// nextMemberPlace returns the seat's next member's place in the group the
// match is at that it has not sent yet (a seat may own several places of a
// run: its hello and its set-up commitment, its reveal and its opening).
func (r *Referee) nextMemberPlace() (seq uint64, base Digest, st Step, ok bool) {
	seat := r.cfg.Seat
	seq, base, _, st, ok = r.m.MemberPlace(seat, 0)
	if ok && r.memberSent.base == base {
		seq, base, _, st, ok = r.m.MemberPlace(seat, r.memberSent.seq)
	}
	return seq, base, st, ok
}

// sendMemberAt signs the seat's contribution in for place seq, holds it
// with the envelopes ahead of their turn and sends it.
func (r *Referee) sendMemberAt(ctx context.Context, seq uint64, st Step, in WireInput) error {
	seat := r.cfg.Seat
	pre := r.memberPreshares(seq, st, in)
	e, err := r.m.Member(seat, seq, in, func(e *Envelope) error { return e.signOwn(r.cfg.Key) }, pre...)
	if err != nil {
		return fmt.Errorf("referee: %w", err)
	}
	base := r.m.group.seq
	r.memberSent = memberKey{seq, r.m.group.id}
	r.log.Debug("member", "seq", e.Seq, "base", base, "at", r.m.Seq(), "places", len(r.m.group.places), "kind", st.Kind)
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
	r.note(Note{Seat: seat, Dir: DirLocal, OK: true, Kind: st.Kind}.WithText(engine.Wordsf("message %d signed and sent at once, a member of the parallel group after message %d: %s", e.Seq, base, describe(st.Need))))
	return nil
}

// memberKey names a member's place: its number and its base.
type memberKey struct {
	seq  uint64
	base Digest
}

// produceMember builds the seat's contribution for a member's place; ready
// is false when it cannot be known yet. A decision (a hidden choice, a
// set-up commitment) kept from before (a resumed referee, or a member
// orphaned by a removal) is committed again as it was. A new one is the
// agent's answer to the question asked early (early.go) once it is in,
// whoever answers (a person at a prompt, a bot), or, from an agent that
// decides at once (a bot), asked now; a person's answer still to come is
// not waited for here: the referee watches the network meanwhile (remote)
// and sends the member when the answer arrives.
func (r *Referee) produceMember(ctx context.Context, st Step) (in WireInput, ready bool, err error) {
	switch st.Kind {
	case InChoose, InCommit:
		return r.decideMember(ctx, st)
	case InOpen:
		open, ok := r.openAfterChoice(st)
		if !ok {
			return WireInput{}, false, nil
		}
		st = open
	}
	in, _, err = r.produce(ctx, st, nil)
	return in, err == nil, err
}

// openAfterChoice returns the seat's opening step that follows the choice
// named by a run's opening place st (runs.go), from its own sealed choice.
func (r *Referee) openAfterChoice(st Step) (Step, bool) {
	v, ok := r.secrets.Vector(st.Need.Name)
	if !ok || v.Size() != 1 {
		return Step{}, false
	}
	choice, ok := r.secrets.Snapshot().Value(engine.Slot{Owner: r.cfg.Seat, Name: st.Need.Name, Index: 0})
	if !ok {
		return Step{}, false
	}
	need, ok := r.m.OpenAfterChoice(st.Need, r.cfg.Seat, choice)
	return Step{Seat: r.cfg.Seat, Kind: InOpen, Need: need}, ok
}

// decideMember builds a member's hidden choice or set-up commitment (see
// produceMember).
func (r *Referee) decideMember(ctx context.Context, st Step) (WireInput, bool, error) {
	if in, ok := r.keptDecision(st); ok {
		return in, true, nil
	}
	var d engine.Decision
	switch a := r.answeredEarly(st); {
	case a != nil:
		d = a.ans.d
		r.ahead = a.next // its question is answered for good: the member takes its place
	case isImmediate(r.cfg.Agent):
		game, ok := r.gameAt(st)
		if !ok {
			return WireInput{}, false, nil
		}
		var err error
		if d, err = r.cfg.Agent.Decide(ctx, game, r.cfg.Seat, r.secrets.Snapshot(), st.Need); err != nil {
			return WireInput{}, false, fmt.Errorf("referee: agent: %w", err)
		}
	default:
		return WireInput{}, false, nil
	}
	in, err := r.commitDecision(st, d)
	return in, err == nil, err
}

// gameAt returns the game the seat's decision st is to be made on: the
// game as it stands for a hidden choice, the copy stepped across the
// commitments before it for a set-up commitment (early.go's prediction).
func (r *Referee) gameAt(st Step) (engine.Game, bool) {
	if st.Kind == InChoose {
		return r.m.Game().Clone(), true
	}
	for _, p := range predictCommits(r.m, r.cfg.Seat) {
		if sameDecision(p.st, st) {
			return p.game, true
		}
	}
	return nil, false
}

// keptDecision returns the input for decision st when the seat has made it
// already (its vector kept, not yet committed in the match) and nothing
// since has made it stale: a decision sent as a member whose group a
// removal broke up is asked again (the removal is news to the seat, see
// early.go), while one kept across a crash is committed again as it was.
func (r *Referee) keptDecision(st Step) (WireInput, bool) {
	v, ok := r.secrets.Vector(st.Need.Name)
	if !ok {
		return WireInput{}, false
	}
	if _, done := r.m.commits[commitKey{r.cfg.Seat, st.Need.Name}]; done {
		return WireInput{}, false
	}
	if f, made := r.decidedAt[st.Need.Name]; made && f != r.m.askFence() {
		return WireInput{}, false
	}
	if st.Kind == InChoose {
		return WireInput{T: InChoose, Name: st.Need.Name, Root: hexDigest(v.Root())}, true
	}
	return WireInput{T: InCommit, Name: st.Need.Name, Size: v.Size(), Root: hexDigest(v.Root())}, v.Size() == st.Need.Size
}

// commitDecision makes the vector of the agent's decision d for st (a
// hidden choice: its one choice; a commitment: its leaves), keeps it with
// the seat's secrets, synced, and returns the input that commits to it.
func (r *Referee) commitDecision(st Step, d engine.Decision) (WireInput, error) {
	leaves := d.Leaves
	if st.Kind == InChoose {
		leaves = [][]byte{d.Choice}
	}
	v, err := NewVector(r.m.ID(), r.cfg.Seat, st.Need.Name, leaves)
	if err != nil {
		return WireInput{}, fmt.Errorf("referee: %w", err)
	}
	if st.Kind == InCommit && v.Size() != st.Need.Size {
		return WireInput{}, fmt.Errorf("referee: agent gave %d values for %s, want %d", v.Size(), st.Need.Name, st.Need.Size)
	}
	r.secrets.Add(v)
	if err := r.saveSecrets(); err != nil {
		return WireInput{}, err
	}
	if r.decidedAt == nil {
		r.decidedAt = map[string]askFence{}
	}
	r.decidedAt[st.Need.Name] = r.m.askFence()
	if st.Kind == InChoose {
		return WireInput{T: InChoose, Name: st.Need.Name, Root: hexDigest(v.Root())}, nil
	}
	return WireInput{T: InCommit, Name: st.Need.Name, Size: v.Size(), Root: hexDigest(v.Root())}, nil
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
	if r.cfg.Hooks != nil {
		return nil
	}
	_, _, st, ok := r.nextMemberPlace()
	if !ok || st.Kind != InChoose && st.Kind != InCommit {
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
