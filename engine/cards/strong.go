package cards

import (
	"context"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// StrongBot plays by a fixed set of priorities: sink what a card can sink,
// play "Play 2 more cards" and "Draw 3" to cycle its deck, shield and repair
// its powerful ships, search with white pegs, keep red pegs for revealed
// ships and never waste them on a Submarine. Ties are broken at random.
type StrongBot struct{ r *rand.Rand }

// NewStrongBot returns the heuristic bot.
func NewStrongBot(r *rand.Rand) *StrongBot { return &StrongBot{r: r} }

// Decide implements engine.Agent.
func (b *StrongBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return decide(ctx, g, seat, sec, n, b.r, func(g *Game, moves []Move) Move {
		faces := g.HandFaces(seat, sec)
		best, bestScore, ties := moves[0], -1e9, 0
		for _, m := range moves {
			s := g.score(seat, m, faces)
			switch {
			case s > bestScore:
				best, bestScore, ties = m, s, 1
			case s == bestScore:
				ties++
				if b.r.IntN(ties) == 0 {
					best = m
				}
			}
		}
		return best
	})
}

// shipWorth is how much keeping a ship afloat is worth to its owner: its
// power plus its strength.
var shipWorth = [NumShips]float64{Carrier: 4, Battleship: 4, Destroyer: 3.5, Submarine: 2, PTBoat: 3}

// score rates a legal move of seat for the strong bot; higher is better.
func (g *Game) score(seat engine.Seat, m Move, faces []Face) float64 {
	opp := other(seat)
	hidden, facedown := g.hiddenShips(opp)
	pShip := 0.0
	if facedown > 0 {
		pShip = float64(hidden) / float64(facedown)
	}
	switch m.Action {
	case Skip:
		return 0
	case PTRepair, Repair:
		f := g.players[seat].ships[m.Ship].pegs[m.Peg]
		v := 20 + 8*float64(g.pegValue(opp, f)) + 3*shipWorth[m.Ship]
		if m.Action == Repair {
			v -= 5
		}
		return v
	case Attack:
		return g.attackScore(seat, m.Ship, m.Face)
	case Tap:
		if m.Face == White {
			return 30 + 20*pShip
		}
		eff := float64(g.pegValue(seat, m.Face))
		v := 5 + pShip*4*eff
		if m.Face == Red4 {
			v -= 10
		}
		if g.anyTarget(seat) {
			v -= 10
		}
		return v
	case PlayTwo:
		useful := 0
		for _, f := range faces {
			if f.Valid() && f != DiscardPlay && g.hasUse(seat, f) {
				useful++
			}
		}
		if useful >= 2 {
			return 70
		}
		return 8
	case DiscardWhite:
		whites := 0
		for _, f := range faces {
			if f == White {
				whites++
			}
		}
		surplus := whites
		if !g.whiteHasTarget(seat) {
			surplus = whites - facedown
		}
		if surplus <= 0 {
			return 2
		}
		n := len(m.Discard)
		return 45 + 5*float64(min(n, surplus)) - 15*float64(max(0, n-surplus))
	case PlaceShield:
		dmg := float64(g.Damage(seat, m.Ship)) / float64(m.Ship.Hits())
		return 25 + 5*shipWorth[m.Ship] + 20*dmg
	case Draw3:
		return 35
	case DiscardDead:
		return 1
	}
	return 0
}

// attackScore rates playing peg card f on the opponent's ship k.
func (g *Game) attackScore(seat engine.Seat, k Ship, f Face) float64 {
	opp := other(seat)
	sh := &g.players[opp].ships[k]
	if f.IsRed() && k == Submarine && g.powerOn(opp, Submarine) {
		return -100
	}
	eff := g.pegValue(seat, f)
	if sh.shield {
		left := ShieldStrength - g.ShieldDamage(opp, k)
		if eff >= left {
			return 40 + 2*shipWorth[k] - 6*float64(eff-left)
		}
		return 15
	}
	left := k.Hits() - g.Damage(opp, k)
	if eff >= left {
		return 100 + 5*shipWorth[k] - 4*float64(eff-left)
	}
	v := 25 + 15*float64(g.Damage(opp, k)+eff)/float64(k.Hits()) + shipWorth[k]
	if f == Red4 {
		v -= 20
	}
	if g.powerOn(opp, PTBoat) {
		v -= 5 // the PT Boat will pull a card back next turn
	}
	return v
}

// hiddenShips returns how many of seat s's ships are still facedown and how
// many of its grid positions are.
func (g *Game) hiddenShips(s engine.Seat) (ships, facedown int) {
	for _, k := range Ships {
		if !g.players[s].ships[k].revealed {
			ships++
		}
	}
	for _, leaf := range g.players[s].grid {
		if leaf < 0 {
			facedown++
		}
	}
	return ships, facedown
}

// anyTarget reports whether the opponent has a revealed ship afloat that a
// red peg can damage.
func (g *Game) anyTarget(seat engine.Seat) bool {
	opp := other(seat)
	for _, k := range Ships {
		if g.afloat(opp, k) && !(k == Submarine && g.powerOn(opp, Submarine)) {
			return true
		}
	}
	return false
}

// whiteHasTarget reports whether a white peg of seat can damage some
// revealed enemy ship.
func (g *Game) whiteHasTarget(seat engine.Seat) bool {
	opp := other(seat)
	for _, k := range Ships {
		if g.afloat(opp, k) && g.whiteDamages(seat, k) {
			return true
		}
	}
	return false
}
