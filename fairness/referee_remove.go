package fairness

import (
	"errors"
	"fmt"

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
	r.note(Note{Seat: gone, Dir: "local", OK: true, Text: fmt.Sprintf("%s %s: this seat takes it off the table, and play goes on", gone, why), Events: evs})
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
