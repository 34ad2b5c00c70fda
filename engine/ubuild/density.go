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
	closed := k.closed()
	var w [NumCells]float64
	ok = true
	for s := range Ship(NumShips) {
		if k.sunk[s] {
			continue
		}
		clear(w[:])
		total := 0.0
		for i := range shipPlacements(s) {
			p := &shipPlacements(s)[i]
			if !k.fits(s, p.cells, closed) {
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

// closed is every cell answered, as water or as some ship.
func (k *knowledge) closed() mask {
	m := k.water
	for _, s := range k.ship {
		m = m.or(s)
	}
	return m
}

// fits reports whether ship s could lie on cells: they cover every cell
// answered as s and no other cell of closed (see [knowledge.closed]).
func (k *knowledge) fits(s Ship, cells, closed mask) bool {
	own := k.ship[s]
	return cells.covers(own) && !cells.meets(closed.andNot(own))
}
