package sea

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// planner decides one kind of bot's moves; bot does the common plumbing.
type planner interface {
	strengths(r *rand.Rand) [][]byte
	missile(g *Game, seat engine.Seat, sec engine.Secrets, f int) Missile
	move(g *Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (Move, error)
}

// bot is an engine.Agent playing Mission Command Sea with a planner.
type bot struct {
	r *rand.Rand
	p planner
}

// Decide returns the bot's decision for need n.
func (b *bot) Decide(ctx context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if err := ctx.Err(); err != nil {
		return engine.Decision{}, err
	}
	g, ok := eg.(*Game)
	if !ok {
		return engine.Decision{}, fmt.Errorf("sea bot: not a Mission Command Sea match (%T)", eg)
	}
	switch n.Kind {
	case engine.NeedCommit:
		if n.Name == StrengthsName {
			return engine.Decision{Leaves: b.p.strengths(b.r)}, nil
		}
		f, ok := g.PendingLoad()
		if !ok {
			return engine.Decision{}, fmt.Errorf("sea bot: unexpected commitment %q", n.Name)
		}
		return engine.Decision{Leaves: [][]byte{EncodeMissile(b.p.missile(g, seat, sec, f))}}, nil
	case engine.NeedMove:
		m, err := b.p.move(g, seat, sec, n)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("sea bot %s: %w", n.Name, err)
		}
		return engine.Decision{Move: m.Encode()}, nil
	}
	return engine.Decision{}, fmt.Errorf("sea bot: nothing to decide for a %s need", n.Kind)
}

// shuffledStrengths returns the squadron's strengths in a random order.
func shuffledStrengths(r *rand.Rand) [][]byte {
	v := StrengthMultiset
	r.Shuffle(len(v), func(i, j int) { v[i], v[j] = v[j], v[i] })
	out := make([][]byte, len(v))
	for i, s := range v {
		out[i] = EncodeStrength(s)
	}
	return out
}

// pick returns a uniformly random element of xs.
func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }
