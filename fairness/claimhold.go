package fairness

import (
	"context"
	"time"

	"github.com/salvo-game/salvo/engine"
)

// Claims of silence held until this referee's own give-up time.
//
// A claim that a seat went silent past the give-up time rests on its
// claimant's word (remove.go): no record can show how long the claimant
// waited. A claimant that did not wait at all, claiming the seat before it
// the moment the match waits for it (one message after the one that made
// the match wait, so the first-input rule does not stop it), would take a
// live player off the table whenever it liked: its claim always outruns a
// person's move. So an honest referee does not take such a claim before
// its own give-up time for the seat has passed since the match began to
// wait for it here, or before its own transport reports the seat gone
// past the give-up time (SeatGone: at a table the seat's network gone,
// which the guard tells long before the step's timeout). A seat that answers meanwhile is in the chain first,
// and the held claim is then what it is, its signer's message out of turn
// (named live and in the audit, as any false claim of a live seat). A
// claim sent after an honest wait is held for no more than the time by
// which this referee learnt of the wait later than its claimant.

// heldClaim is a vouched claim of silence of the seat awaited that arrived
// before this referee's give-up time for that seat had passed.
type heldClaim struct {
	e      *Envelope
	author string
	group  bool
	gone   engine.Seat
	timer  *time.Timer // fires at the end of the give-up time
}

// goneReport is this peer's own transport's latest report that a seat has
// been gone past the give-up time (SeatGone: at a table the seat's
// network gone, which the guard tells long before the step's timeout),
// and the message the match stood at then.
type goneReport struct {
	seat engine.Seat
	seq  uint64
	ok   bool
}

// waitStarted returns when the match, as this referee holds it, began to
// wait for what it waits for now: when it reached its last message. The
// referee calls it as each message is sealed or accepted, so that the
// time is taken then, not when a claim comes to ask.
func (r *Referee) waitStarted() time.Time {
	if r.waitSince.IsZero() || r.waitSeq != r.m.Seq() {
		r.waitSeq, r.waitSince = r.m.Seq(), time.Now()
	}
	return r.waitSince
}

// holdClaim holds e if it claims, as the first input of the next message
// and from a seat other than the one awaited, the silence of the seat
// awaited before this referee's give-up time for that seat has passed. It
// reports whether it held e (or already holds a claim for the place).
func (r *Referee) holdClaim(e *Envelope, author string, group bool) bool {
	if e.Seq != r.m.Seq()+1 {
		return false
	}
	// Only the rightful claimant's claim is held: anyone else's is out
	// of turn at once.
	st, ok := r.m.Next()
	if !ok || !r.m.mayClaim(r.m.Header().Seat(e.From), st.Seat) || !claimsSilenceOf(e, st.Seat) {
		return false
	}
	wait, due := r.claimWait(e.Seq, st.Seat)
	if due {
		return false
	}
	if r.held == nil {
		r.held = &heldClaim{e: e, author: author, group: group, gone: st.Seat, timer: time.NewTimer(wait)}
		r.log.Info("a claim of silence held until this seat's own give-up time", "seq", e.Seq, "gone", st.Seat, "for", wait)
	}
	return true
}

// claimWait says whether a claim of gone's silence as message seq is due
// here, and if not, how long to wait before asking again. It is due once
// the match has moved past its place, once this peer's transport reports
// gone away past the give-up time, or once the step's timeout has passed
// since the match began to wait here, unless the seat's link is down:
// then only the give-up time counts (the transport's report), as for the
// step's own timeout.
func (r *Referee) claimWait(seq uint64, gone engine.Seat) (time.Duration, bool) {
	if r.m.Seq() >= seq || r.seenGone(gone) {
		return 0, true
	}
	if left := time.Until(r.waitStarted().Add(r.cfg.Timeout)); left > 0 {
		return left, false
	}
	if lw, ok := r.cfg.Transport.(LinkWatcher); ok && lw.LinkDown() {
		return linkPoll, false
	}
	return 0, true
}

// claimsSilenceOf reports whether e's first input is a claim of seat's
// silence (a removal without the seat's own left record).
func claimsSilenceOf(e *Envelope, seat engine.Seat) bool {
	b, err := DecodeBody(e.Body)
	if err != nil {
		return false
	}
	in := b.Inputs[0]
	return in.T == InRemove && in.Left == nil && in.Gone != nil && *in.Gone == int(seat)
}

// claimDue fires when the held claim is due: at once once the match has
// moved past its place, else when the give-up time ends; never if none.
func (r *Referee) claimDue() <-chan time.Time {
	switch {
	case r.held == nil:
		return nil
	case r.m.Seq() >= r.held.e.Seq || r.seenGone(r.held.gone):
		return dueNow
	}
	return r.held.timer.C
}

// dueNow is always ready.
var dueNow = func() chan time.Time {
	c := make(chan time.Time)
	close(c)
	return c
}()

// reportGone notes this peer's own report that seat has been gone past
// the give-up time while the match waits for it: a claim of its silence
// at this place is then taken at once (held, it is due).
func (r *Referee) reportGone(seat engine.Seat) {
	r.gone = goneReport{seat: seat, seq: r.m.Seq(), ok: true}
}

// seenGone reports whether this peer's transport reported seat gone past
// the give-up time since the match's last message.
func (r *Referee) seenGone(seat engine.Seat) bool {
	return r.gone.ok && r.gone.seat == seat && r.gone.seq == r.m.Seq()
}

// releaseClaim applies the held claim once it is due: the give-up time
// has passed, or this peer's transport reports the seat gone too, or the
// match has moved past the claim's place (the seat answered, and the
// claim is out of turn). errIgnored when none is due; else as handleFrame.
func (r *Referee) releaseClaim(ctx context.Context) error {
	h := r.held
	if h == nil {
		return errIgnored
	}
	if wait, due := r.claimWait(h.e.Seq, h.gone); !due {
		h.timer.Reset(wait)
		return errIgnored
	}
	r.held = nil
	h.timer.Stop()
	if err := r.acceptInPlace(ctx, h.e, h.author, h.group); err != nil {
		return err
	}
	return r.drain(ctx, h.group)
}
