package cheat

import (
	"sync/atomic"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/fairness"
)

// Cheat alters what its seat's own referee sends.
type Cheat interface {
	// AlterInput may change an input the referee produced honestly (sec
	// holds the seat's own secrets); it reports whether it did.
	AlterInput(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool
	// AlterEnvelope returns the envelopes to send in place of e (e itself,
	// changed or not, and possibly more).
	AlterEnvelope(m *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope
}

// Peer is one cheating seat: its cheat, plugged into the seat's honest
// referee through fairness.Hooks. Once the cheat has fired (an input or a
// message altered, or an input its own engine refused sent all the same)
// the referee stops at the next wait and hangs up, leaving the honest
// side to catch it. A nil Peer is an honest seat.
type Peer struct {
	cheat Cheat
	fired atomic.Bool
}

// NewPeer returns the seat that cheats with c.
func NewPeer(c Cheat) *Peer { return &Peer{cheat: c} }

// Hooks returns the hooks for the seat's fairness.Config (nil for a nil
// Peer).
func (p *Peer) Hooks() *fairness.Hooks {
	if p == nil {
		return nil
	}
	return &fairness.Hooks{
		Input: func(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) {
			if p.cheat.AlterInput(m, sec, st, in) {
				p.fired.Store(true)
			}
		},
		Envelope: func(m *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope {
			envs := p.cheat.AlterEnvelope(m, e, key)
			if len(envs) != 1 || envs[0] != e {
				p.fired.Store(true)
			}
			return envs
		},
		// The cheating seat sends what its own engine refused, then stops.
		Refused: func(fairness.Step, error) bool {
			p.fired.Store(true)
			return true
		},
		Done: p.fired.Load,
	}
}

// Cheated reports whether the cheat fired: false for a match that gave it
// no chance (and for a nil Peer).
func (p *Peer) Cheated() bool { return p != nil && p.fired.Load() }
