package fairness

import (
	"errors"
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Departures in a game that plays on (engine.Remover: a free-for-all of
// 3-4 player Air, whose winner is the last player in the game).
//
// A player who leaves such a match, or goes silent past the give-up time,
// must not end it: its planes leave the board and the rest play on. Every
// remaining peer must take it off the table at the same place, or their
// matches would part. So the departure is an input of the signed chain,
// InRemove, sent by the one seat the rules make responsible for it, and
// every peer (and the auditor) checks it with the same code:
//
//   - when the match waits for the departed seat itself (its move, its
//     dice share, its card…), only its claimant may send the removal: the
//     first seat after it in seat order still at the table and not out.
//     Its claim needs no more than the departed seat's silence past the
//     give-up time (as a forfeit claim, it blames the seat actually
//     awaited: forfeitFits), or that seat's own signed left record. A
//     claim of silence is the first input of its message: after other
//     inputs of the same message, which are what made the match wait for
//     the seat, nobody could have seen it silent;
//   - when the match waits for another seat, a departure is sequenced
//     only with the leaver's own signed left record, by the seat awaited,
//     as the first input of its next message; a silent seat that is not
//     awaited is not anyone's to remove (nothing shows it is gone).
//
// Nobody may bias a roll by choosing when to remove another: a removal
// never cuts into a joint roll, choice, shuffle or deal already under way
// unless that joint step waits for the departed seat. Then a roll starts
// again from fresh dice-chain links of every seat still at the table
// (each link was fixed when its chain was, and the links already shown are
// spent), so the claimant chooses between two rolls it cannot foresee; a
// shuffle starts again without the leaver; a card choice goes on without
// it (the others' choices stay committed); a deal stops, since the draw
// pile, masked under the leaver's key, is set aside (the engine's house
// choice).
//
// A seat taken off the table is never waited for again and whatever it
// signs afterwards is dropped unread: it cannot end the match for the
// others, nor frame the seat that claimed its departure. A claimant who
// removes a live seat is named where that seat's own message for the same
// place arrived first (the removal is then a message out of turn, signed
// by its claimant), and in the joint audit of the records.

// errRemoval is wrapped by every reason a removal does not fit the match.
var errRemoval = errors.New("removal refused")

// Removed reports whether seat was taken off the table.
func (m *Match) Removed(seat engine.Seat) bool {
	return seat >= 0 && int(seat) < len(m.keys) && m.removed&(1<<uint(seat)) != 0
}

// playsOn reports whether the game goes on without seat if it leaves now.
func (m *Match) playsOn(seat engine.Seat) bool {
	r, ok := m.game.(engine.Remover)
	return ok && r.PlaysOn(seat)
}

// claimant is the seat that claims the departure of gone while the match
// waits for gone: the first seat after it in seat order that is still at
// the table and not out (NoSeat if none).
func (m *Match) claimant(gone engine.Seat) engine.Seat {
	n := len(m.keys)
	for i := 1; i < n; i++ {
		s := engine.Seat((int(gone) + i) % n)
		if !m.Removed(s) && !m.out(s) {
			return s
		}
	}
	return engine.NoSeat
}

// mayClaim reports whether from may send the next message although the
// match waits for waited: from is waited's claimant, in a game that plays
// on without waited. The message must begin with waited's removal.
func (m *Match) mayClaim(from, waited engine.Seat) bool {
	return from != waited && m.playsOn(waited) && m.claimant(waited) == from
}

// jointUnderway reports whether a joint step has taken a contribution.
func (m *Match) jointUnderway() bool {
	j := m.gather
	return j != nil && (j.pos > 0 || j.reveal)
}

// removalFits checks a removal of gone sent by from, with gone's own left
// record (nil for a claim of silence), against the match as it stands.
func (m *Match) removalFits(from, gone engine.Seat, left *Closing) error {
	st, ok := m.Next()
	switch {
	case !ok:
		return fmt.Errorf("%w: the match is over", errRemoval)
	case gone < 0 || int(gone) >= len(m.keys):
		return fmt.Errorf("%w: seat %d is not at this table", errRemoval, gone)
	case gone == from:
		return fmt.Errorf("%w: a seat cannot take itself off the table (its left record is for another seat to sequence)", errRemoval)
	case m.Removed(gone):
		return fmt.Errorf("%w: %s was taken off the table before", errRemoval, gone)
	case !m.playsOn(gone):
		return fmt.Errorf("%w: the game does not play on without %s (a departure is a forfeit there)", errRemoval, gone)
	case left == nil && m.inMessage > 0:
		return fmt.Errorf("%w: %s's silence is claimed after other inputs of the same message, which made the match wait for it: nobody could have seen it silent (a claim of silence is the first input of a message)", errRemoval, gone)
	case st.Seat == gone && from != m.claimant(gone):
		return fmt.Errorf("%w: the match waits for %s, whose departure only %s may claim", errRemoval, gone, m.claimant(gone))
	case st.Seat != gone && from != st.Seat:
		return fmt.Errorf("%w: %w: the match waits for %s's %s", errRemoval, ErrOutOfTurn, st.Seat, st.Kind)
	case st.Seat != gone && left == nil:
		return fmt.Errorf("%w: %s is claimed gone while the match waits for %s, not for it (only the seat awaited can be claimed silent)", errRemoval, gone, st.Seat)
	case st.Seat != gone && m.jointUnderway():
		return fmt.Errorf("%w: the %s %q is under way and does not wait for %s: a removal now could choose its outcome", errRemoval, st.Need.Kind, st.Need.Name, gone)
	case left != nil:
		return m.leftFits(gone, left)
	}
	return nil
}

// leftFits checks gone's own signed word that it left after message c.Seq.
func (m *Match) leftFits(gone engine.Seat, c *Closing) error {
	if err := c.Verify(); err != nil {
		return fmt.Errorf("%w: %s's left record: %w", errRemoval, gone, err)
	}
	switch {
	case c.Closing != CloseLeft || c.Match != m.header.Match:
		return fmt.Errorf("%w: the record is a %q of match %.12s…, not a left record of this match", errRemoval, c.Closing, c.Match)
	case m.header.Seat(c.By) != gone || engine.Seat(c.Seat) != gone:
		return fmt.Errorf("%w: the left record is not %s's own word about itself", errRemoval, gone)
	case c.Seq > m.seq:
		return fmt.Errorf("%w: %s says it left after message %d, the match has %d", errRemoval, gone, c.Seq, m.seq)
	case !m.noneSentBy(gone, c.Seq):
		return fmt.Errorf("%w: %s says it left after message %d, yet it signed a later message", errRemoval, gone, c.Seq)
	}
	return nil
}

// applyRemove takes a seat off the table (InRemove from from).
func (m *Match) applyRemove(from engine.Seat, in WireInput) ([]engine.Event, error) {
	if in.Gone == nil {
		return nil, fmt.Errorf("%w: it names no seat", errRemoval)
	}
	gone := engine.Seat(*in.Gone)
	if err := m.removalFits(from, gone, in.Left); err != nil {
		return nil, err
	}
	evs, err := m.game.(engine.Remover).Remove(gone)
	if err != nil {
		return nil, err
	}
	m.removed |= 1 << uint(gone)
	m.lockDecks(gone)
	more, err := m.dropFromJoint(gone)
	if err != nil {
		return nil, err
	}
	how := engine.Wordsf("went silent past the give-up time; %s claims it", from)
	if in.Left != nil {
		how = engine.Wordsf("left after message %d (its own signed word)", in.Left.Seq)
	}
	head := engine.Eventf(gone, "removed", "%s %s: it is taken off the table and the others play on", gone, how)
	return prepend(head, append(evs, more...)), nil
}

// lockDecks marks the undealt cards of every shuffled deck gone holds a
// key of as never to be dealt: each is masked under that key.
func (m *Match) lockDecks(gone engine.Seat) {
	for _, d := range m.decks {
		if d.holder != nil && d.joint.Key(int(gone)) != nil {
			d.dealt = d.size
		}
	}
}

// dropFromJoint takes gone out of the joint step in progress, if any (see
// the top of the file): a roll, shuffle or deal starts again without it, a
// card choice goes on without it.
func (m *Match) dropFromJoint(gone engine.Seat) ([]engine.Event, error) {
	j := m.gather
	if j == nil {
		return nil, nil
	}
	if j.need.Kind == engine.NeedChoice && j.pos+boolInt(j.reveal) > 0 {
		return m.dropChooser(gone)
	}
	if d, ok := m.decks[j.need.Name]; ok && j.need.Kind == engine.NeedShuffle && d.holder == nil {
		delete(m.decks, j.need.Name) // its keys include the leaver's
	}
	m.gather = nil
	return nil, nil
}

// dropChooser takes gone out of a card choice under way.
func (m *Match) dropChooser(gone engine.Seat) ([]engine.Event, error) {
	j := m.gather
	i := slices.Index(j.order, gone)
	if i < 0 {
		return nil, nil
	}
	j.order = slices.Delete(j.order, i, i+1)
	delete(j.choices, gone)
	if i < j.pos {
		j.pos--
	}
	switch need := m.game.Next(); {
	case need.Kind != engine.NeedChoice || len(j.order) == 0:
		m.gather = nil // the game moved on without a choice
	case j.pos < len(j.order):
	case !j.reveal:
		j.startReveal()
	default:
		return m.completeChoice(need)
	}
	return nil, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ErrClaimOverOwn is wrapped (with ErrOutOfTurn) when a seat's claimant
// takes it off the table as message k where the record holds the seat's
// own message k. Live this is a claim that did not wait for a seat that
// answered (claimhold.go); but in the removed seat's own record it may as
// well be its own message that never reached anyone, withheld or lost, so
// the joint audit does not take that record's word for it alone
// (Joint.ownWordSetAside).
var ErrClaimOverOwn = fmt.Errorf("%w: a claim of silence in the place of the seat's own message", ErrOutOfTurn)

// ousts reports whether e, signed by from for a place the match holds as
// taken, another seat's message, is that seat's claimant taking it off the
// table there.
func (m *Match) ousts(e *Envelope, from engine.Seat, taken accepted) bool {
	if taken.from == from || !m.mayClaim(from, taken.from) || !taken.inPlace(e.Prev) {
		return false
	}
	body, err := DecodeBody(e.Body)
	if err != nil || len(body.Inputs) == 0 {
		return false
	}
	in := body.Inputs[0]
	return in.T == InRemove && in.Gone != nil && engine.Seat(*in.Gone) == taken.from
}
