package fairness

import (
	"errors"
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// EndedThere is the error a transport reports when the other side says
// its match is over and hands over the signed closing record it wrote (it
// gave up waiting for this side, or saw this side leave). The referee
// records that closing, the other player's own signed word, instead of
// one of its own: both transcripts then end the same way, and neither
// player claims the other's forfeit after a long cut.
type EndedThere struct {
	Closing *Closing
}

func (e *EndedThere) Error() string {
	if e.Closing == nil {
		return "the other side ended the match"
	}
	return fmt.Sprintf("the other side ended the match: %s of seat %d after message %d (%s)",
		e.Closing.Closing, e.Closing.Seat, e.Closing.Seq, e.Closing.Detail)
}

// errClosingMisfit is wrapped by every reason a forfeit closing record
// does not fit the match.
var errClosingMisfit = errors.New("the closing record does not fit the match")

// errOwnTurn is wrapped when a forfeit is claimed by the player the match
// waited for. Nothing can show that the other side left or went silent
// rather than that the claimant stalled itself: the claim is refused on
// its face (the audit then finds no result, and blames nobody, since an
// honest referee may see a connection close while it thinks).
var errOwnTurn = fmt.Errorf("%w: its writer owed the next message", errClosingMisfit)

// forfeitFits checks a timeout or abandoned closing record (signature
// already checked) against the match as it stands: it must name this
// match, be written by a player about another player, and be written
// after a message this side has. When this side holds messages after the
// record's (the writer never received them), every one of them must be
// the blamed seat's. Its writer must not be the seat the match waited for
// (errOwnTurn). A timeout blames only the seat the match waited for; a
// player may leave whoever's turn it is (in a group match, the topic
// tells when players left, not whose turn it was), as long as it was not
// the writer's. It returns the step the match waited for when the record
// was written (the zero Step when that was before this side's last
// message).
func forfeitFits(h Header, m *Match, c *Closing) (Step, error) {
	blamed, writer := engine.Seat(c.Seat), h.Seat(c.By)
	switch {
	case c.Closing != CloseTimeout && c.Closing != CloseAbandoned:
		return Step{}, fmt.Errorf("%w: a %q record is no forfeit", errClosingMisfit, c.Closing)
	case c.Match != h.Match:
		return Step{}, fmt.Errorf("%w: it names match %.12s…", errClosingMisfit, c.Match)
	case writer == engine.NoSeat:
		return Step{}, fmt.Errorf("%w: its writer %.16s… is no player", errClosingMisfit, c.By)
	case blamed < 0 || int(blamed) >= len(h.Players) || blamed == writer:
		return Step{}, fmt.Errorf("%w: it blames seat %d, written by seat %d", errClosingMisfit, c.Seat, writer)
	case c.Seq > m.Seq():
		return Step{}, fmt.Errorf("%w: it follows message %d, the match has %d", errClosingMisfit, c.Seq, m.Seq())
	case c.Seq < m.Seq():
		if !m.sentOnlyBy(blamed, c.Seq) {
			return Step{}, fmt.Errorf("%w: messages after %d that its writer never saw are not all seat %d's", errClosingMisfit, c.Seq, c.Seat)
		}
		return Step{}, nil
	}
	next, ok := m.Next()
	if !ok {
		return Step{}, fmt.Errorf("%w: the match waits for nobody", errClosingMisfit)
	}
	if next.Seat == writer {
		return next, fmt.Errorf("%w: it claims seat %d's %s after message %d, while the match waited for the writer's own %s", errOwnTurn, c.Seat, c.Closing, c.Seq, next.Kind)
	}
	if c.Closing == CloseTimeout && next.Seat != blamed {
		return Step{}, fmt.Errorf("%w: it blames seat %d at message %d, but the match was waiting for seat %d", errClosingMisfit, c.Seat, c.Seq, next.Seat)
	}
	return next, nil
}

// sentOnlyBy reports whether every message after seq was sent by seat.
func (m *Match) sentOnlyBy(seat engine.Seat, seq uint64) bool {
	for _, a := range m.history[min(seq, uint64(len(m.history))):] {
		if a.from != seat {
			return false
		}
	}
	return true
}
