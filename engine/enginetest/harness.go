package enginetest

import (
	"errors"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// ErrOver is returned (wrapped) by [Harness.RunUntil] when the match ends
// before the awaited need.
var ErrOver = errors.New("the match is over")

// Harness plays the referee's part honestly for the game G. Its zero value
// is not usable: start one with [New].
type Harness[G engine.Game] struct {
	// Game is the match being played.
	Game G
	// Agents decide for the seats, indexed by seat. A nil agent is fine for
	// a seat whose decisions a test feeds by hand.
	Agents []engine.Agent
	// Rand draws the joint random values, and whatever a hook wants to draw.
	Rand *rand.Rand
	// Script holds queued joint random values, used before Rand.
	Script []int
	// Answers overrides how the harness satisfies a kind of need. The
	// harness has no answer of its own for NeedShuffle and NeedDeal.
	Answers map[engine.NeedKind]func(n engine.Need) (engine.Input, error)
	// Shadow, when set, is a second engine fed every input Apply accepts;
	// Apply fails if it refuses one or its hash differs.
	Shadow engine.Game
	// RequireChange makes Apply fail when an accepted input leaves the hash
	// unchanged.
	RequireChange bool

	secrets map[engine.Seat]engine.Known
	before  []func(n engine.Need, in engine.Input)
	after   []func(n engine.Need, in engine.Input, ev []engine.Event) error
	inputs  []engine.Input
}

// New returns a harness that plays g with the agents (one per seat, in
// seat order) and draws joint random values from a PCG source seeded with
// seed.
func New[G engine.Game](g G, agents []engine.Agent, seed uint64) *Harness[G] {
	return &Harness[G]{
		Game:    g,
		Agents:  agents,
		Rand:    rand.New(rand.NewPCG(seed, 0x5a1f0)),
		secrets: map[engine.Seat]engine.Known{},
	}
}

// Fork returns a harness that plays g (typically a copy of h's match) with
// h's agents, secrets and random source. Hooks, scripts and records are
// not shared.
func (h *Harness[G]) Fork(g G) *Harness[G] {
	return &Harness[G]{Game: g, Agents: h.Agents, Rand: h.Rand, secrets: h.secrets}
}

// Secrets returns what seat knows: the map the harness fills as the seat
// commits. A test may add to it (a dealt card) or read it.
func (h *Harness[G]) Secrets(seat engine.Seat) engine.Known {
	s, ok := h.secrets[seat]
	if !ok {
		s = engine.Known{}
		h.secrets[seat] = s
	}
	return s
}

// BeforeApply registers f to see every input Apply is given, with the need
// it answers, before the game does.
func (h *Harness[G]) BeforeApply(f func(n engine.Need, in engine.Input)) {
	h.before = append(h.before, f)
}

// AfterApply registers f to run after every input the game accepts, with
// the need it answered and the events it produced; an error from f is
// returned by Apply.
func (h *Harness[G]) AfterApply(f func(n engine.Need, in engine.Input, ev []engine.Event) error) {
	h.after = append(h.after, f)
}

// Inputs returns every input the game accepted through Apply, in order.
func (h *Harness[G]) Inputs() []engine.Input { return h.inputs }

// Steps returns how many inputs the game accepted through Apply.
func (h *Harness[G]) Steps() int { return len(h.inputs) }
