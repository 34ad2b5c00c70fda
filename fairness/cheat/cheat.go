// Package cheat is the cheating peer: ways a dishonest player could try to
// bend a match, each implemented as a Cheat (and sometimes a dishonest
// agent), so that tests, `salvo selfplay --cheat KIND` and practice against
// a cheating bot can show the honest side catching every one of them live,
// and the auditor naming the cheater and the message afterwards. It ships in
// the binary for practice and testing; nothing here plays for a person in a
// real match. A Peer plugs a cheat into the honest referee through the hooks
// it exposes (fairness.Hooks); package fairness does not import this one.
//
// A cheat works in one of three ways: it doctors an input its referee
// produced honestly (a wrong salt, another slot, a forged dice preimage); its
// dishonest agent decides what the rules forbid, which the referee sends
// although its own engine refuses it (a card not in the hand); or it feeds
// its own engine a doctored input so that the state hash it states follows a
// rule it bent while the input on the wire stays honest (a wrong battle
// total). A dishonest agent also steers the match towards the chance its
// cheat needs (a battle with facedown cards, two destroyers with a target).
//
// The generic kinds apply to every game and fire at their first chance at or
// after their trigger: the openings kinds also spoil whole-vector openings
// and one-leaf vectors, so they happen in games whose secrets are opened
// only that way. The game-specific kinds are in one file per game, each
// listing what catches them.
package cheat

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// Kind describes one way to cheat.
type Kind struct {
	Name  string
	About string
	// Build returns the cheat and, if the cheat needs one, a wrapper that
	// makes the seat's agent dishonest too.
	Build func() (Cheat, func(engine.Agent) engine.Agent)
}

// Peer builds the cheat as a seat (see Peer), with its agent wrapper if it
// needs one.
func (k Kind) Peer() (*Peer, func(engine.Agent) engine.Agent) {
	c, wrap := k.Build()
	return NewPeer(c), wrap
}

var generic = []Kind{
	{"wrong-salt", "opens a committed value with a wrong salt", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &inputCheat{kinds: []fairness.InputKind{fairness.InMove, fairness.InOpen}, alter: wrongSalt}, nil
	}},
	{"wrong-cell", "opens a different committed value than the one the rules call for", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &inputCheat{kinds: []fairness.InputKind{fairness.InMove, fairness.InOpen}, alter: wrongSlot}, nil
	}},
	{"forged-roll", "reveals a dice preimage that is not the next link of its chain", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &inputCheat{kinds: []fairness.InputKind{fairness.InShare}, alter: forgedRoll}, nil
	}},
	{"out-of-turn", "sends a second message while it is the other player's turn", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &envelopeCheat{nth: 4, alter: outOfTurn}, nil
	}},
	{"foreign-key", "sends a message signed by another key", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &envelopeCheat{nth: 4, alter: foreignKey}, nil
	}},
	{"replay", "replays a message from another match", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &envelopeCheat{nth: 4, alter: otherMatch}, nil
	}},
	{"wrong-state", "sends a wrong state hash", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &envelopeCheat{nth: 4, alter: wrongState}, nil
	}},
	{"go-silent", "stops answering once the other player has revealed (the only bias left: it forfeits)", func() (Cheat, func(engine.Agent) engine.Agent) {
		return &envelopeCheat{nth: 4, alter: silence}, nil
	}},
}

// Silent is the kind whose cheater is caught by a timeout, not a violation.
const Silent = "go-silent"

var byGame = map[string][]Kind{}

// register adds game-specific kinds.
func register(game string, kinds ...Kind) { byGame[game] = append(byGame[game], kinds...) }

// Kinds lists the cheats available for a game, sorted by name.
func Kinds(game string) []Kind {
	ks := append(append([]Kind(nil), generic...), byGame[game]...)
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	return ks
}

// Lookup finds a cheat kind for a game.
func Lookup(game, name string) (Kind, error) {
	for _, k := range Kinds(game) {
		if k.Name == name {
			return k, nil
		}
	}
	names := ""
	for _, k := range Kinds(game) {
		names += " " + k.Name
	}
	return Kind{}, fmt.Errorf("no cheat %q for %s; known:%s", name, game, names)
}

// inputCheat alters the first input of one of the given kinds that alter
// accepts.
type inputCheat struct {
	kinds []fairness.InputKind
	done  bool
	alter func(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool
}

func (c *inputCheat) AlterInput(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	if c.done {
		return false
	}
	for _, k := range c.kinds {
		if in.T == k && c.alter(m, sec, st, in) {
			c.done = true
			return true
		}
	}
	return false
}

func (c *inputCheat) AlterEnvelope(m *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope {
	return []*fairness.Envelope{e}
}

// envelopeCheat alters the nth envelope it sends.
type envelopeCheat struct {
	nth, sent int
	alter     func(m *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope
}

func (c *envelopeCheat) AlterInput(*fairness.Match, *fairness.Secrets, fairness.Step, *fairness.WireInput) bool {
	return false
}

func (c *envelopeCheat) AlterEnvelope(m *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope {
	c.sent++
	if c.sent != c.nth {
		return []*fairness.Envelope{e}
	}
	return c.alter(m, e, key)
}

// agentCheat only makes the agent dishonest; the referee sends what its own
// engine refuses.
type agentCheat struct{}

func (agentCheat) AlterInput(*fairness.Match, *fairness.Secrets, fairness.Step, *fairness.WireInput) bool {
	return false
}

func (agentCheat) AlterEnvelope(_ *fairness.Match, e *fairness.Envelope, _ crypto.PrivKey) []*fairness.Envelope {
	return []*fairness.Envelope{e}
}

// wrongSalt spoils the salt of the first opening, single or whole-vector.
func wrongSalt(_ *fairness.Match, _ *fairness.Secrets, _ fairness.Step, in *fairness.WireInput) bool {
	switch {
	case len(in.Open) > 0:
		in.Open[0].Salt[0] ^= 0x5a
	case len(in.Full) > 0 && len(in.Full[0].Salts) > 0:
		in.Full[0].Salts[0][0] ^= 0x5a
	default:
		return false
	}
	return true
}

// wrongSlot replaces the first opening with a genuine opening of another
// slot: the next leaf of the same vector, or, for a one-leaf vector (a
// choice, a missile), the leaf of a sibling vector of the seat ("load/3"
// for "load/5"). A whole-vector opening gets two leaves of different values
// swapped, each with its own salt. Every proof holds, but for the wrong value.
func wrongSlot(_ *fairness.Match, sec *fairness.Secrets, _ fairness.Step, in *fairness.WireInput) bool {
	if len(in.Open) > 0 {
		o := in.Open[0]
		v, ok := sec.Vector(o.Slot.Name)
		if !ok {
			return false
		}
		if v.Size() < 2 {
			if v, ok = siblingVector(sec, o.Slot.Name); !ok {
				return false
			}
		}
		other, err := v.Open((o.Slot.Index + 1) % v.Size())
		if err != nil {
			return false
		}
		in.Open[0] = other
		return true
	}
	for _, f := range in.Full {
		for i := range f.Values {
			for j := i + 1; j < len(f.Values); j++ {
				if string(f.Values[i]) != string(f.Values[j]) {
					f.Values[i], f.Values[j] = f.Values[j], f.Values[i]
					f.Salts[i], f.Salts[j] = f.Salts[j], f.Salts[i]
					return true
				}
			}
		}
	}
	return false
}

// siblingVector finds another vector the seat committed under a name that
// differs from name only in its final number ("load/3" for "load/5").
func siblingVector(sec *fairness.Secrets, name string) (*fairness.Vector, bool) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return nil, false
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil {
		return nil, false
	}
	for d := 1; d <= maxSibling; d++ {
		for _, m := range []int{n - d, n + d} {
			if v, ok := sec.Vector(name[:i+1] + strconv.Itoa(m)); ok && m > 0 {
				return v, true
			}
		}
	}
	return nil, false
}

// maxSibling bounds how far siblingVector looks from a vector's number.
const maxSibling = 64

func forgedRoll(_ *fairness.Match, _ *fairness.Secrets, _ fairness.Step, in *fairness.WireInput) bool {
	in.Link = fmt.Sprintf("%064x", 0xdecaf)
	return true
}

func outOfTurn(m *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope {
	body, err := fairness.DecodeBody(e.Body)
	if err != nil {
		return []*fairness.Envelope{e}
	}
	extra, err := m.Draft(body.Inputs[len(body.Inputs)-1:], m.StateHash(), key)
	if err != nil {
		return []*fairness.Envelope{e}
	}
	return []*fairness.Envelope{e, extra}
}

func resign(e *fairness.Envelope, key crypto.PrivKey, from string) *fairness.Envelope {
	c := *e
	if err := c.Sign(key); err != nil {
		return e
	}
	c.From = from
	return &c
}

func foreignKey(_ *fairness.Match, e *fairness.Envelope, _ crypto.PrivKey) []*fairness.Envelope {
	other, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		return []*fairness.Envelope{e}
	}
	return []*fairness.Envelope{resign(e, other, e.From)}
}

func otherMatch(_ *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope {
	c := *e
	c.Match = fmt.Sprintf("%064x", 0xbadc0ffee)
	return []*fairness.Envelope{resign(&c, key, e.From)}
}

func wrongState(_ *fairness.Match, e *fairness.Envelope, key crypto.PrivKey) []*fairness.Envelope {
	body, err := fairness.DecodeBody(e.Body)
	if err != nil {
		return []*fairness.Envelope{e}
	}
	body.State = fmt.Sprintf("%064x", 0x5ca1ab1e)
	c := *e
	if c.Body, err = fairness.EncodeBody(body); err != nil {
		return []*fairness.Envelope{e}
	}
	return []*fairness.Envelope{resign(&c, key, e.From)}
}

func silence(*fairness.Match, *fairness.Envelope, crypto.PrivKey) []*fairness.Envelope { return nil }

// steerFunc decides for a dishonest agent: it may ask the honest agent it
// wraps (inner) and return that decision, a changed one, or its own.
type steerFunc func(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error)

// steered is a dishonest agent: an honest one whose decisions pass through
// steer. A decision the seat's own engine refuses is still sent (the
// referee does that when a Cheat is set), so the cheat happens when steer
// first returns one.
type steered struct {
	inner engine.Agent
	steer steerFunc
}

// Immediate reports that the agent decides at once, as the bots it wraps do.
func (s *steered) Immediate() bool { return true }

// Decide passes the need to steer.
func (s *steered) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return s.steer(ctx, s.inner, g, seat, sec, n)
}

// steering builds the agent wrapper of a Kind from a fresh steerFunc.
func steering(f steerFunc) func(engine.Agent) engine.Agent {
	return func(a engine.Agent) engine.Agent { return &steered{inner: a, steer: f} }
}

// tamper makes the cheating seat's own engine apply a doctored input
// instead of the honest one it is about to send: the engine trusts the
// values it is given (the referee has checked the openings before), so the
// cheater's state, and the state hash of its next envelope, follow the rule
// it bent while the input on the wire stays honest. It reports whether the
// engine took the doctored input.
func tamper(m *fairness.Match, in engine.Input) bool {
	_, err := m.Game().Apply(in)
	return err == nil
}

// moveDecision encodes a move as a decision.
func moveDecision(move any) (engine.Decision, error) {
	b, err := engine.EncodeMove(move)
	if err != nil {
		return engine.Decision{}, fmt.Errorf("cheat: encode move: %w", err)
	}
	return engine.Decision{Move: b}, nil
}
