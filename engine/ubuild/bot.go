package ubuild

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// botPolicy is what distinguishes one bot from another; botDecide does the
// rest.
type botPolicy interface {
	layout() Layout
	weapons(total int) [NumShips]int
	fire(g *Game, seat engine.Seat, sec engine.Secrets) (Ship, []Cell, error)
}

// botDecide answers any need a seat's agent is asked for: commitments from
// the policy's layout and weapons, volleys from its fire, and Auto answers
// honestly.
func botDecide(ctx context.Context, p botPolicy, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if err := ctx.Err(); err != nil {
		return engine.Decision{}, err
	}
	g, ok := eg.(*Game)
	if !ok {
		return engine.Decision{}, fmt.Errorf("ubuild bot: not a U-Build game (%T)", eg)
	}
	switch {
	case n.Kind == engine.NeedCommit && n.Name == GridName:
		return engine.Decision{Leaves: p.layout().Leaves()}, nil
	case n.Kind == engine.NeedCommit && n.Name == WeaponsName:
		return engine.Decision{Leaves: WeaponLeaves(p.weapons(g.st.total))}, nil
	case n.Kind == engine.NeedMove && n.Auto:
		b, err := g.Answer(seat, n, sec)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("ubuild bot: %w", err)
		}
		return engine.Decision{Move: b}, nil
	case n.Kind == engine.NeedMove:
		ship, shots, err := p.fire(g, seat, sec)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("ubuild bot: %w", err)
		}
		b, err := EncodeFire(ship, shots)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("ubuild bot: %w", err)
		}
		return engine.Decision{Move: b}, nil
	}
	return engine.Decision{}, fmt.Errorf("ubuild bot: nothing to decide for a %s need", n.Kind)
}

// RandomBot plays uniformly at random: a uniform legal layout, uniform
// custom weapons, and each turn a random afloat ship firing a random number
// of shots at random uncalled cells.
type RandomBot struct {
	r *rand.Rand
}

// NewRandomBot returns a random bot drawing from r.
func NewRandomBot(r *rand.Rand) *RandomBot { return &RandomBot{r: r} }

// Decide implements [engine.Agent].
func (b *RandomBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return botDecide(ctx, b, g, seat, sec, n)
}

func (b *RandomBot) layout() Layout                  { return RandomLayout(b.r) }
func (b *RandomBot) weapons(total int) [NumShips]int { return RandomWeapons(b.r, total) }

func (b *RandomBot) fire(g *Game, seat engine.Seat, sec engine.Secrets) (Ship, []Cell, error) {
	ship, limit, err := pickShip(g, seat, sec, func(ships []Ship, _ []int) int { return b.r.IntN(len(ships)) })
	if err != nil {
		return NoShip, nil, err
	}
	targets := g.Targets(seat)
	k := 1 + b.r.IntN(limit)
	for i := range k {
		j := i + b.r.IntN(len(targets)-i)
		targets[i], targets[j] = targets[j], targets[i]
	}
	return ship, targets[:k], nil
}

// pickShip lists the ships of seat that can fire this turn with their shot
// limits, and lets choose pick one. In classic it returns NoShip and the
// classic limit.
func pickShip(g *Game, seat engine.Seat, sec engine.Secrets, choose func([]Ship, []int) int) (Ship, int, error) {
	if g.Variant() == Classic {
		n, err := g.ShotsAllowed(seat, NoShip, sec)
		if err != nil || n == 0 {
			return NoShip, 0, fmt.Errorf("no shot available: %v", err)
		}
		return NoShip, n, nil
	}
	var ships []Ship
	var limits []int
	for s := range Ship(NumShips) {
		n, err := g.ShotsAllowed(seat, s, sec)
		if err != nil {
			return NoShip, 0, err
		}
		if n > 0 {
			ships = append(ships, s)
			limits = append(limits, n)
		}
	}
	if len(ships) == 0 {
		return NoShip, 0, fmt.Errorf("%s has no ship that can fire", seat)
	}
	i := choose(ships, limits)
	return ships[i], limits[i], nil
}
