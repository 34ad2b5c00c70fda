package fairness

import "fmt"

// notBeforeOurs refuses a closing record of another player that is dated
// before the last message this side holds (signed here or received and
// accepted): a forfeit after message k while our transcript holds a later
// message is refuted by that message, so writing it into our own record
// would make the record contradict itself, and the joint audit treats a
// closing as its writer's claim, refuted by any signed message after it.
// A record dated so is the other side's claim, never our forfeit.
func notBeforeOurs(m *Match, c *Closing) error {
	if c.Seq < m.Seq() {
		return fmt.Errorf("%w: it is dated after message %d, before message %d that this side signed or received: the other side's claim, refuted by this record", errClosingMisfit, c.Seq, m.Seq())
	}
	return nil
}
