// Package games is the registry of the games Salvo plays: each game's spec
// and its bots, by name. The command line, the interface, the session layer
// and the auditor find games here.
package games

import (
	"math/rand/v2"
	"slices"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/engine/ubuild"
)

// Entry is one game with its bots.
type Entry struct {
	Spec engine.Spec
	// Bots builds the game's bots by level: "random" (uniformly random legal
	// decisions) and "strong".
	Bots map[string]func(r *rand.Rand) engine.Agent
}

// BotLevels lists the bot levels every game offers, weakest first.
var BotLevels = []string{"random", "strong"}

var entries = []Entry{
	{
		Spec: ubuild.Spec,
		Bots: map[string]func(r *rand.Rand) engine.Agent{
			"random": func(r *rand.Rand) engine.Agent { return Immediate(ubuild.NewRandomBot(r)) },
			"strong": func(r *rand.Rand) engine.Agent { return Immediate(ubuild.NewHunterBot(r)) },
		},
	},
	{
		Spec: cards.Spec,
		Bots: map[string]func(r *rand.Rand) engine.Agent{
			"random": func(r *rand.Rand) engine.Agent { return Immediate(cards.NewRandomBot(r)) },
			"strong": func(r *rand.Rand) engine.Agent { return Immediate(cards.NewStrongBot(r)) },
		},
	},
	{
		Spec: oceans.Spec,
		Bots: map[string]func(r *rand.Rand) engine.Agent{
			"random": func(r *rand.Rand) engine.Agent { return Immediate(oceans.NewRandomBot(r)) },
			"strong": func(r *rand.Rand) engine.Agent { return Immediate(oceans.NewStrongBot(r)) },
		},
	},
	{
		Spec: sea.Spec,
		Bots: map[string]func(r *rand.Rand) engine.Agent{
			"random": func(r *rand.Rand) engine.Agent { return Immediate(sea.NewRandomBot(r)) },
			"strong": func(r *rand.Rand) engine.Agent { return Immediate(sea.NewStrongBot(r)) },
		},
	},
	{
		Spec: air.Spec,
		Bots: map[string]func(r *rand.Rand) engine.Agent{
			"random": func(r *rand.Rand) engine.Agent { return Immediate(air.NewRandomBot(r)) },
			"strong": func(r *rand.Rand) engine.Agent { return Immediate(air.NewStrongBot(r)) },
		},
	},
}

// All returns every game, in menu order.
func All() []Entry { return slices.Clone(entries) }

// Names returns the games' short names, in menu order.
func Names() []string {
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Spec.Name
	}
	return names
}

// Lookup finds a game by its short name.
func Lookup(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Spec.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Spec finds a game's spec by name; it has the shape fairness.Audit takes.
func Spec(name string) (engine.Spec, bool) {
	e, ok := Lookup(name)
	return e.Spec, ok
}

// Bot returns a bot of the given level for a game.
func Bot(game, level string, r *rand.Rand) (engine.Agent, bool) {
	e, ok := Lookup(game)
	if !ok {
		return nil, false
	}
	mk, ok := e.Bots[level]
	if !ok {
		return nil, false
	}
	return mk(r), true
}

// immediate marks a bot as deciding at once, so the referee puts its
// decisions in the envelope it is building rather than sending first.
type immediate struct{ engine.Agent }

func (immediate) Immediate() bool { return true }

// Immediate wraps an agent that decides at once.
func Immediate(a engine.Agent) engine.Agent { return immediate{a} }
