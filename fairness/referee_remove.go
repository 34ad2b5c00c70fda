package fairness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/salvo-game/salvo/engine"
)

// SeatGone is a group transport's report that one seat has been away for
// the give-up time while the match waits for it (the others are still
// there). In a game that plays on without that seat (remove.go), reading
// goes on: the seat's claimant takes it off the table and every other
// referee waits for that claim. Elsewhere it ends the match as any lost
// link does, by the seat's forfeit.
type SeatGone struct {
	Seat engine.Seat
	Err  error
}

func (e *SeatGone) Error() string { return e.Err.Error() }

// Unwrap returns the transport's error.
func (e *SeatGone) Unwrap() error { return e.Err }

// seatGone reads a transport error as a SeatGone report about a seat the
// game plays on without.
func (r *Referee) seatGone(err error) (*SeatGone, bool) {
	var g *SeatGone
	if !errors.As(err, &g) || !r.m.playsOn(g.Seat) {
		return nil, false
	}
	return g, true
}

// onGone handles a seat away past the give-up time in a game that plays on
// without it: the seat's claimant stages its removal if the match waits
// for it (nil: the caller goes on), every other referee ignores the report
// and waits for the claim (errIgnored).
func (r *Referee) onGone(g *SeatGone) error {
	r.reportGone(g.Seat)
	st, ok := r.m.Next()
	if !ok || st.Seat != g.Seat || !r.m.mayClaim(r.cfg.Seat, g.Seat) {
		return errIgnored
	}
	return r.claimDeparture(g.Seat, fmt.Sprintf("gone past the give-up time (%v)", g.Err))
}

// onSilence decides what the give-up time means for the silent seat the
// match waits for (st) in a game that plays on without it. Its claimant
// stages its removal (staged); any other referee gives the claimant one
// more give-up time to send it (wait, once, reported through graced), and
// only then records the seat's forfeit as before (neither).
func (r *Referee) onSilence(st Step, graced *bool) (staged, wait bool, err error) {
	if !r.m.playsOn(st.Seat) {
		return false, false, nil
	}
	if r.m.mayClaim(r.cfg.Seat, st.Seat) {
		err := r.claimDeparture(st.Seat, fmt.Sprintf("no message for %s", r.cfg.Timeout))
		return err == nil, false, err
	}
	if !*graced {
		*graced = true
		return false, true, nil
	}
	return false, false, nil
}

// claimDeparture stages the removal of gone, which the match waits for and
// which went silent, as the first input of this seat's next message.
func (r *Referee) claimDeparture(gone engine.Seat, why string) error {
	seat := int(gone)
	in := WireInput{T: InRemove, Gone: &seat}
	evs, err := r.m.Stage(r.cfg.Seat, in)
	if err != nil {
		return fmt.Errorf("referee: claim the departure of %s: %w", gone, err)
	}
	r.staged = append(r.staged, in)
	r.note(Note{Seat: gone, Dir: "local", OK: true, Events: evs}.WithText(engine.Wordsf("%s %s: this seat takes it off the table, and play goes on", gone, why)))
	return nil
}

// fromRemoved reports whether seat was taken off the table: whatever it
// signs now is dropped unread (it can neither stop the match for the
// others nor frame its claimant), and counted as dropped.
func (r *Referee) fromRemoved(seat engine.Seat) bool {
	if !r.m.Removed(seat) {
		return false
	}
	r.res.Dropped++
	return true
}

// removedHere ends this referee's part when the others took its seat off
// the table (it was silent past their give-up time): the match goes on
// without it, and its transcript stops at its removal.
func (r *Referee) removedHere() (*Result, error) {
	r.staged = nil // inputs for a seat no longer at the table
	r.res.Removed = true
	r.note(Note{Seat: r.cfg.Seat, Dir: "stop", OK: false, Text: "the others took this seat off the table after its silence; they play on without it"})
	return &r.res, nil
}

// ErrLeaving is the cause a player's program gives the context of a group
// match's referee when the player leaves on purpose (context.WithCancelCause):
// the referee signs the player's left record into its own transcript and
// hands it to the others on the group transport before it stops. In a
// game that plays on they take the seat off the table at once with it
// (the seat awaited sequences it); elsewhere they record the forfeit.
var ErrLeaving = errors.New("the player leaves the match on purpose")

// LeftDetail is the detail of the left record a referee signs for a
// player who leaves a group match on purpose.
const LeftDetail = "left the match on purpose"

// leftSendTimeout bounds handing the left record to the others.
const leftSendTimeout = 2 * time.Second

// leaveIfAsked runs when Run returns: if the player left on purpose
// (ErrLeaving) a group match that is still on, it signs the left record,
// appends it to this seat's transcript and sends it to the others.
func (r *Referee) leaveIfAsked(ctx context.Context) {
	group, ok := r.cfg.Transport.(GroupTransport)
	if !ok || !errors.Is(context.Cause(ctx), ErrLeaving) || r.res.Closing != nil || r.res.Removed {
		return
	}
	c, err := Admit(r.m, r.cfg.Key, LeftDetail)
	if err != nil {
		r.log.Info("leaving signs no left record", "err", err) // over, broken, or out: nothing to forfeit
		return
	}
	if err := r.cfg.Transcript.WriteClosing(c); err != nil {
		r.log.Warn("the left record is not in our transcript", "err", err)
		return
	}
	b, err := marshalCompact(c)
	if err != nil {
		return
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), leftSendTimeout)
	defer cancel()
	if err := group.Send(sctx, b); err != nil {
		r.log.Info("the others did not get our left record; they take us off the table after their give-up time", "err", err)
	}
}

// leftFrame reads a frame that is no envelope as a player's own signed
// left record for this match (nil if it is not one).
func (r *Referee) leftFrame(b []byte) *Closing {
	var c Closing
	h := r.m.Header()
	if len(b) > MaxEnvelope || decodeCanonical(b, &c) != nil || c.Closing != CloseLeft || c.Match != h.Match ||
		h.Seat(c.By) != engine.Seat(c.Seat) || h.Seat(c.By) == r.cfg.Seat || c.Verify() != nil {
		return nil
	}
	return &c
}

// onLeft takes a player's left record from the group transport. In a
// game that plays on without it, it is held until the seat that the
// rules make responsible can sequence it (sequenceLeft): nil when that is
// this seat now, while the match waits for the leaver (the caller goes on
// to it); errIgnored otherwise. In any other game the others record the
// leaver's forfeit at once (adopt).
func (r *Referee) onLeft(c *Closing) error {
	seat := engine.Seat(c.Seat)
	if r.leaving == nil {
		r.leaving = map[engine.Seat]*Closing{}
	}
	r.leaving[seat] = c
	st, ok := r.m.Next()
	if ok && (!r.m.playsOn(seat) || st.Seat == seat && r.m.mayClaim(r.cfg.Seat, seat)) {
		return nil // the caller goes on to it (adoptLeft, sequenceLeft)
	}
	return errIgnored
}

// adoptLeft records the forfeit of a player whose left record this seat
// holds, in a game that does not play on without it, once the record
// follows the last message here (it may arrive ahead of the leaver's last
// messages). It reports whether the match stopped so.
func (r *Referee) adoptLeft() bool {
	for seat, c := range r.leaving {
		if r.m.Removed(seat) {
			delete(r.leaving, seat) // its left record is in the chain already
			continue
		}
		if r.m.playsOn(seat) || c.Seq > r.m.Seq() {
			continue
		}
		delete(r.leaving, seat)
		if err := r.adopt(c); err != nil {
			r.log.Info("a left record is not taken: its writer's give-up time will tell", "seat", seat, "err", err)
			continue
		}
		return true
	}
	return false
}

// sequenceLeft stages the removal of a player whose left record this seat
// holds, as the first input of its next message, if this seat is the one
// to sequence it now (the seat awaited, or the leaver's claimant while the
// match waits for the leaver) and the removal fits (no joint step under
// way that does not wait for the leaver). It reports whether it did: what
// the match waits for has then changed.
func (r *Referee) sequenceLeft(st Step) bool {
	for seat := range engine.Seat(r.m.Seats()) {
		c := r.leaving[seat]
		if c == nil || !r.m.playsOn(seat) {
			continue
		}
		if c.Seq > r.m.Seq() {
			continue // the leaver's last messages are still on their way here
		}
		if r.m.Removed(seat) || r.m.leftFits(seat, c) != nil {
			delete(r.leaving, seat) // gone already, or its record is refuted: its silence will tell
			continue
		}
		if st.Seat != r.cfg.Seat && !(st.Seat == seat && r.m.mayClaim(r.cfg.Seat, seat)) {
			continue
		}
		n := int(seat)
		in := WireInput{T: InRemove, Gone: &n, Left: c}
		evs, err := r.m.Stage(r.cfg.Seat, in)
		if err != nil {
			continue // a joint step under way: after it
		}
		delete(r.leaving, seat)
		r.staged = append(r.staged, in)
		r.note(Note{Seat: seat, Dir: "local", OK: true, Events: evs}.WithText(engine.Wordsf("%s left after message %d (its own signed word): this seat takes it off the table, and play goes on", seat, c.Seq)))
		return true
	}
	return false
}
