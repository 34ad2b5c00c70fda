package fairness

import (
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

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

// ErrOut is returned for a leave by a seat the game has put out (a squadron
// shot down): it owes nothing, so it signs no forfeit and its record just
// stops; the others play on, never waiting for it.
var ErrOut = errors.New("the seat is out of the game: leaving forfeits nothing")

// errClosingMisfit is wrapped by every reason a forfeit closing record
// does not fit the match.
var errClosingMisfit = errors.New("the closing record does not fit the match")

// errOwnTurn is wrapped when a forfeit is claimed by the player the match
// waited for. Nothing can show that the other side left or went silent
// rather than that the claimant stalled itself: the claim is refused on
// its face (the audit then finds no result, and blames nobody, since an
// honest referee may see a connection close while it thinks).
var errOwnTurn = fmt.Errorf("%w: its writer owed the next message", errClosingMisfit)

// forfeitFits checks a timeout, abandoned or left closing record
// (signature already checked) against the match as it stands: it must
// name this match and be written by a player. A left record is its
// writer's own word about itself (admissionFits). A timeout or abandoned
// record must be about another player and written after a message this
// side has. When this side holds messages after the record's (the writer
// never received them), every one of them must be the blamed seat's. Its
// writer must not be the seat the match waited for (errOwnTurn), and it
// blames only the seat the match waited for: in a 3-4 player match
// nothing shows which of the others left or went silent but the turn
// that never came (a referee whose peers vanish while it owes a move
// makes that move first, see Referee.lost). A player who leaves at any
// turn says so itself (a left record). It returns the step the match
// waited for when the record was written (the zero Step when that was
// before this side's last message).
func forfeitFits(h Header, m *Match, c *Closing) (Step, error) {
	blamed, writer := engine.Seat(c.Seat), h.Seat(c.By)
	switch {
	case !isForfeit(c.Closing):
		return Step{}, fmt.Errorf("%w: a %q record is no forfeit", errClosingMisfit, c.Closing)
	case c.Match != h.Match:
		return Step{}, fmt.Errorf("%w: it names match %.12s…", errClosingMisfit, c.Match)
	case writer == engine.NoSeat:
		return Step{}, fmt.Errorf("%w: its writer %.16s… is no player", errClosingMisfit, c.By)
	case c.Closing == CloseLeft:
		return admissionFits(m, c, writer)
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
	if next.Seat != blamed {
		return Step{}, fmt.Errorf("%w: it blames seat %d at message %d, but the match was waiting for seat %d", errClosingMisfit, c.Seat, c.Seq, next.Seat)
	}
	return next, nil
}

// admissionFits checks a left record, its writer's own signed word that it
// left after message c.Seq, the last it held. It blames nobody but its
// writer, so it needs no witness and fits at any turn, the writer's own
// included: a player may leave while the match waits for its move. It
// must only agree with the record it is in: it blames its writer, the
// match is not over, and no message after c.Seq is the writer's (it held
// every message it signed). Messages of the others after c.Seq are ones
// the writer never received: the record's holder signed or received them
// after the writer left.
func admissionFits(m *Match, c *Closing, writer engine.Seat) (Step, error) {
	switch {
	case engine.Seat(c.Seat) != writer:
		return Step{}, fmt.Errorf("%w: a %s record is its writer's word about itself, yet it blames seat %d, written by seat %d", errClosingMisfit, c.Closing, c.Seat, writer)
	case c.Seq > m.Seq():
		return Step{}, fmt.Errorf("%w: it follows message %d, the match has %d", errClosingMisfit, c.Seq, m.Seq())
	case !m.noneSentBy(writer, c.Seq):
		return Step{}, fmt.Errorf("%w: seat %d says it left after message %d, yet the match holds a later message of its own", errClosingMisfit, c.Seat, c.Seq)
	}
	next, ok := m.Next()
	if !ok {
		return Step{}, fmt.Errorf("%w: the match waits for nobody", errClosingMisfit)
	}
	if c.Seq < m.Seq() {
		return Step{}, nil
	}
	return next, nil
}

// Admit signs the admission of the player holding key that it leaves
// match m on purpose, as m stands in its own transcript: a left record
// dated after m's last message, to append to that transcript and hand to
// the others. It refuses a key that holds no seat and a match that is
// over or broken (nothing is left to forfeit).
func Admit(m *Match, key crypto.PrivKey, detail string) (*Closing, error) {
	id, err := peer.IDFromPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("admit: %w", err)
	}
	h := m.Header()
	seat := h.Seat(id.String())
	switch {
	case seat == engine.NoSeat:
		return nil, fmt.Errorf("admit: %.16s… holds no seat of match %.12s…", id, h.Match)
	case m.Done() || m.Broken() != nil:
		return nil, fmt.Errorf("admit: match %.12s… is over at message %d", h.Match, m.Seq())
	case m.out(seat):
		return nil, fmt.Errorf("admit: %w", ErrOut)
	}
	c := &Closing{Closing: CloseLeft, Match: h.Match, Seat: int(seat), Seq: m.Seq(), Detail: detail}
	if err := c.Sign(key); err != nil {
		return nil, fmt.Errorf("admit: %w", err)
	}
	return c, nil
}

// sentOnlyBy reports whether every message after seq was sent by seat.
func (m *Match) sentOnlyBy(seat engine.Seat, seq uint64) bool {
	return m.allAfter(seq, func(from engine.Seat) bool { return from == seat })
}

// noneSentBy reports whether no message after seq was sent by seat.
func (m *Match) noneSentBy(seat engine.Seat, seq uint64) bool {
	return m.allAfter(seq, func(from engine.Seat) bool { return from != seat })
}

// allAfter reports whether the sender of every message after seq passes
// ok. A member of a parallel group whose base is seq or before is passed
// over: it was signed without seeing anything after its base, so it shows
// neither that its sender had the messages after seq nor that anyone else
// had it (it takes its place only after the messages before it).
func (m *Match) allAfter(seq uint64, ok func(from engine.Seat) bool) bool {
	for _, a := range m.history[min(seq, uint64(len(m.history))):] {
		if a.member && a.baseSeq <= seq {
			continue
		}
		if !ok(a.from) {
			return false
		}
	}
	return true
}
