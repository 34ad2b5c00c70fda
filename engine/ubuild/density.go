package ubuild

import (
	"math"

	"github.com/salvo-game/salvo/engine"
)

// knowledge is what an attacker publicly knows of the opponent's grid.
type knowledge struct {
	shot  mask           // cells called
	water mask           // cells answered miss
	ship  [NumShips]mask // cells answered hit or sunk on each ship
	sunk  [NumShips]bool // ships sunk
}

// knowledgeOf reads what seat's opponent has revealed of target's grid.
func knowledgeOf(g *Game, target engine.Seat) knowledge {
	var k knowledge
	f := &g.st.fleets[target]
	k.shot = f.shot
	for c, m := range f.marks {
		switch m.Result {
		case Miss:
			k.water.set(Cell(c))
		case Hit, Sunk:
			k.ship[m.Ship].set(Cell(c))
		}
	}
	k.sunk = f.sunk
	return k
}

// hunting reports whether no afloat ship has been hit yet (nothing to
// finish off).
func (k *knowledge) hunting() bool {
	for s := range Ship(NumShips) {
		if !k.sunk[s] && !k.ship[s].empty() {
			return false
		}
	}
	return true
}

// density scores every cell by the chance that it holds a ship still
// afloat, from the positions each afloat ship can still take: those covering
// every cell answered as that ship and no cell answered as water or as
// another ship (the ships are taken as independent; an exact joint posterior
// was measured to play no better). Each ship's positions are weighted
// equally, except that a position covering cells in pick (cells already
// chosen this volley) has its weight multiplied by damp for each of them;
// each ship's weights sum to weight[s], so with unit weights d[c] is the
// expected number of afloat ship cells at c. ok is false when some afloat
// ship has no position left (an opponent whose answers contradict each
// other).
func (k *knowledge) density(pick mask, damp float64, weight *[NumShips]float64) (d [NumCells]float64, ok bool) {
	var known mask
	for _, m := range k.ship {
		known = known.or(m)
	}
	blockedAll := k.water.or(known)
	var w [NumCells]float64
	ok = true
	for s := range Ship(NumShips) {
		if k.sunk[s] {
			continue
		}
		own := k.ship[s]
		blocked := blockedAll.andNot(own)
		clear(w[:])
		total := 0.0
		for i := range shipPlacements(s) {
			p := &shipPlacements(s)[i]
			if !p.cells.covers(own) || p.cells.meets(blocked) {
				continue
			}
			wt := 1.0
			if n := p.cells.and(pick).count(); n > 0 {
				wt = math.Pow(damp, float64(n))
			}
			total += wt
			p.cells.each(func(c Cell) { w[c] += wt })
		}
		if total == 0 {
			ok = false
			continue
		}
		f := weight[s] / total
		for c := range w {
			d[c] += w[c] * f
		}
	}
	return d, ok
}
