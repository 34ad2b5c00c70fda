package fairness

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// EndSeen is implemented by a transport that knows how far the match had
// gone on this side when the other side's end, with its closing record,
// arrived. The referee reads the end only after the frames before it, and
// may meanwhile have played an automatic step of its own: a message
// signed after the record was already here, which its writer, whose match
// was over, could never have received.
type EndSeen interface {
	// EndSeenAt is the highest message this side had, sent or received,
	// when the other side's end arrived; ok is false before any end.
	EndSeenAt() (seq uint64, ok bool)
}

// notBeforeOurs refuses a closing record of another player that is dated
// before a message this side held when the record arrived (signed here,
// or received): a forfeit after message k while our transcript holds a
// later message the writer could have seen is refuted by that message, so
// writing it into our own record would make the record contradict itself,
// and the joint audit treats a closing as its writer's claim, which such a
// message refutes. A record dated so is the other side's claim, never our
// forfeit. The only messages it may precede are our own, none of them
// received, that were signed after the record arrived (see EndSeen) or
// after this process took the match up again (resumedAt, 0 when it never
// stopped): a restarted peer's automatic step can be signed before the
// resume handshake brings the other side's end, and its writer, whose
// match was over, could never have received it.
func notBeforeOurs(m *Match, seat engine.Seat, t Transport, resumedAt uint64, c *Closing) error {
	held := m.Seq()
	since := func(at uint64) {
		if at < held && m.sentOnlyBy(seat, at) {
			held = at
		}
	}
	if es, ok := t.(EndSeen); ok {
		if at, ok := es.EndSeenAt(); ok {
			since(at)
		}
	}
	if resumedAt > 0 {
		since(resumedAt)
	}
	if c.Seq < held {
		return fmt.Errorf("%w: it is dated after message %d, before message %d that this side signed or received: the other side's claim, refuted by this record", errClosingMisfit, c.Seq, held)
	}
	return nil
}
