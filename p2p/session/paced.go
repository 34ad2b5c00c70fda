package session

import (
	"context"
	"time"

	"github.com/salvo-game/salvo/engine"
)

// Paced returns an agent that waits d before each of a's decisions, like a
// person: a human-paced match over the network, long enough for things
// (a dropped link, a move to another network) to happen during it.
func Paced(a engine.Agent, d time.Duration) engine.Agent { return paced{a, d} }

// paced is an agent that takes its time.
type paced struct {
	engine.Agent
	d time.Duration
}

// Decide waits d, then lets the agent decide; it gives up with ctx's error
// if ctx ends first.
func (p paced) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	select {
	case <-time.After(p.d):
	case <-ctx.Done():
		return engine.Decision{}, ctx.Err()
	}
	return p.Agent.Decide(ctx, g, seat, sec, n)
}
