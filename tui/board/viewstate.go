package board

import (
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/style"
)

// WithDefaults returns e with what a view needs filled in: the default
// theme when e has none, and a randomly seeded source when e has no Rand.
func (e Env) WithDefaults() Env {
	if e.Rand == nil {
		e.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if e.Theme == nil {
		e.Theme = style.Default()
	}
	return e
}

// Deciding returns the seat a view plays: r's while r is pending (not
// nil), else the snapshot's.
func (s Snapshot) Deciding(r *Request) engine.Seat {
	if r != nil {
		return r.Seat
	}
	return s.Seat
}

// SecretsFor returns the hidden values a view knows: r's (the newest)
// while r is pending and has any, else the snapshot's, else none; never
// nil.
func (s Snapshot) SecretsFor(r *Request) engine.Secrets {
	if r != nil && r.Secrets != nil {
		return r.Secrets
	}
	if s.Secrets != nil {
		return s.Secrets
	}
	return Known{}
}
