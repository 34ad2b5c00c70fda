package sea

import (
	"errors"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// NewRandomBot returns an agent that makes uniformly random legal decisions
// (uniform over the options of each choice; a path is a uniformly chosen
// reachable destination, flown by a shortest route).
func NewRandomBot(r *rand.Rand) engine.Agent { return &bot{r: r, p: randomPlanner{r: r}} }

type randomPlanner struct{ r *rand.Rand }

func (p randomPlanner) strengths(r *rand.Rand) [][]byte { return shuffledStrengths(r) }

func (p randomPlanner) missile(*Game, engine.Seat, engine.Secrets, int) Missile {
	if p.r.IntN(2) == 0 {
		return Sidewinder
	}
	return Harpoon
}

var errNoOption = errors.New("no legal option")

func (p randomPlanner) move(g *Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (Move, error) {
	r := p.r
	switch n.Name {
	case NeedPlace:
		opts := g.PlacementOptions()
		if len(opts) == 0 {
			return Move{}, errNoOption
		}
		return pick(r, opts), nil
	case NeedHarpoonPick:
		return HarpoonMove(pick(r, g.PendingHarpoons())), nil
	case NeedHarpoonPath, NeedLaunchPath:
		dests := g.HarpoonDestinations()
		if len(dests) == 0 || (n.Name == NeedHarpoonPath && r.IntN(len(dests)+1) == 0) {
			return PathMove(nil), nil
		}
		return PathMove(pick(r, dests).Path), nil
	case NeedReturn:
		var flying []int
		for _, f := range g.Fighters(seat, nil) {
			if f.State == InFlight {
				flying = append(flying, f.Index)
			}
		}
		for {
			var ret []int
			for _, f := range flying {
				if r.IntN(2) == 0 {
					ret = append(ret, f)
				}
			}
			if len(ret) <= ScrambleDice {
				return ReturnMove(ret), nil
			}
		}
	case NeedScramble:
		return p.scramble(g, seat), nil
	case NeedDestroyers, NeedDefense:
		return p.destroyers(g, seat, n.Name == NeedDefense), nil
	case NeedDamage:
		_, count, _ := g.PendingDamage()
		deck := g.Admiral(seat).Deck
		r.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		return RemoveMove(deck[:count]), nil
	case NeedDefender, NeedAttacker:
		return FighterMove(pick(r, g.DogfightCandidates())), nil
	case NeedSidewinder:
		df, _ := g.Dogfight()
		f := g.Fighters(seat, sec)[df.Fighters[df.Rolling]]
		if f.Missile != Sidewinder {
			return DoneMove(), nil
		}
		opts := []Move{DoneMove(), SidewinderPlus()}
		for i := range df.Dice[df.Rolling] {
			opts = append(opts, SidewinderReroll(i))
		}
		return pick(r, opts), nil
	case NeedLaunch:
		opts := []Move{DoneMove()}
		for _, f := range g.Fighters(seat, sec) {
			if f.State == InFlight && f.Missile == Harpoon {
				opts = append(opts, LaunchMove(f.Index))
			}
		}
		return pick(r, opts), nil
	}
	return Move{}, errNoOption
}

func (p randomPlanner) scramble(g *Game, seat engine.Seat) Move {
	r := p.r
	dice := g.ScrambleRoll()
	var free []int
	for _, f := range g.Fighters(seat, nil) {
		if f.State == InFlight || (f.State == OnDeck && !f.Returned) {
			free = append(free, f.Index)
		}
	}
	var flights []Flight
	for _, d := range r.Perm(len(dice)) {
		k := r.IntN(len(free) + 1)
		if k == len(free) {
			continue
		}
		f := free[k]
		dests := g.FighterDestinations(seat, f, dice[d], flights)
		if len(dests) == 0 {
			continue
		}
		free = append(free[:k], free[k+1:]...)
		flights = append(flights, Flight{Fighter: f, Die: d, Path: pick(r, dests).Path})
	}
	return ScrambleMove(flights)
}

func (p randomPlanner) destroyers(g *Game, seat engine.Seat, defense bool) Move {
	opts := []Move{DoneMove()}
	for _, d := range g.Destroyers(seat) {
		if !d.Afloat || (defense && d.Fired) || (!defense && d.Acted) {
			continue
		}
		for _, t := range g.FireTargets(seat, d.Index) {
			opts = append(opts, FireMove(d.Index, t.Target))
		}
		if !defense {
			for _, path := range g.DestroyerMoves(seat, d.Index) {
				opts = append(opts, DestroyerMove(d.Index, path))
			}
		}
	}
	return pick(p.r, opts)
}
