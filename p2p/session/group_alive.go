package session

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// A table has no match stream to lose: a player who is gone simply stops
// sending, and its seat would be waited for until the referee's per-step
// timeout (ten minutes for a person). The topic tells who is gone since
// when (group.Topic.Away: left, its connection closed, or no answer to
// pings), and a match that waits for a seat gone longer than the give-up
// time ends at once by that seat's forfeit, as a two-player match does.

// giveUpCheck is how often a table waiting for a seat looks whether that
// seat has been gone for the give-up time.
const giveUpCheck = 100 * time.Millisecond

// Away says which other seats are gone now, and since when (see
// group.Topic.Away). A seat that comes back is no longer listed.
func (m *GroupMatch) Away() map[engine.Seat]time.Time {
	out := map[engine.Seat]time.Time{}
	for p, at := range m.Topic.Away() {
		if s := m.Header.Seat(p.String()); s != engine.NoSeat {
			out[s] = at
		}
	}
	return out
}

// giveUpGuard is the topic as the referee's transport, ending the match
// when the seat the referee waits for has been away for giveUp: RecvFrom
// then fails with ErrPeerGone, and the referee records the forfeit of the
// seat it waits for, which is that seat. A seat that is away while the
// match waits for another one (or for this seat's own move) is only
// waited for once its turn comes: a forfeit may blame no other seat.
type giveUpGuard struct {
	fairness.GroupTransport
	m       *GroupMatch
	giveUp  time.Duration
	waiting atomic.Int64 // the seat the referee waits for, or engine.NoSeat
}

func newGiveUpGuard(t fairness.GroupTransport, m *GroupMatch, giveUp time.Duration) *giveUpGuard {
	if giveUp <= 0 {
		giveUp = DefaultGiveUp
	}
	g := &giveUpGuard{GroupTransport: t, m: m, giveUp: giveUp}
	g.waiting.Store(int64(engine.NoSeat))
	return g
}

// observe follows the referee's notes: a "wait" note names the seat the
// match now waits for; any other note means it waits for nobody else.
func (g *giveUpGuard) observe(n fairness.Note) {
	seat := engine.NoSeat
	if n.Dir == fairness.DirWait {
		seat = n.Wait
	}
	g.waiting.Store(int64(seat))
}

// RecvFrom is the topic's, but fails with ErrPeerGone once the seat the
// match waits for has been away for the give-up time.
func (g *giveUpGuard) RecvFrom(ctx context.Context) ([]byte, string, error) {
	for {
		rctx, cancel := context.WithTimeout(ctx, giveUpCheck)
		b, from, err := g.GroupTransport.RecvFrom(rctx)
		cancel()
		if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return b, from, err
		}
		if err := g.overdue(); err != nil {
			return nil, "", err
		}
	}
}

// overdue is ErrPeerGone when the seat the match waits for has been away
// for the give-up time.
func (g *giveUpGuard) overdue() error {
	seat, since, away := g.awaitedAway()
	if !away || time.Since(since) < g.giveUp {
		return nil
	}
	// A SeatGone: in a game that plays on without the seat, the referee
	// reads on and the seat's claimant takes it off the table.
	return &fairness.SeatGone{Seat: seat, Err: fmt.Errorf("session: %w: seat %d was gone for %v while the match waited for it", ErrPeerGone, seat, g.giveUp)}
}

// LinkDown reports that the seat the match waits for is away now: the
// referee then pauses that step's timeout (fairness.LinkWatcher), so a
// seat cut for longer than the step timeout but back within give-up plays
// on, and only give-up (overdue) counts while it is gone (issue 13.4).
func (g *giveUpGuard) LinkDown() bool {
	_, _, away := g.awaitedAway()
	return away
}

// awaitedAway is the seat the match waits for, if it is another seat, and
// whether the topic lists it away and since when.
func (g *giveUpGuard) awaitedAway() (seat engine.Seat, since time.Time, away bool) {
	seat = engine.Seat(g.waiting.Load())
	if seat == engine.NoSeat || seat == g.m.Seat || int(seat) >= len(g.m.Header.Players) {
		return seat, time.Time{}, false
	}
	p, err := peer.Decode(g.m.Header.Players[seat].Peer)
	if err != nil {
		return seat, time.Time{}, false
	}
	since, away = g.m.Topic.Away()[p]
	return seat, since, away
}

var (
	_ fairness.GroupTransport = (*giveUpGuard)(nil)
	_ fairness.LinkWatcher    = (*giveUpGuard)(nil)
)
