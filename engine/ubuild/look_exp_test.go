package ubuild

import (
	"math"
	"math/rand/v2"
	"sort"
)

// perShip returns per-ship marginals (independent approximation).
func (k *knowledge) perShip() (ps [NumShips][NumCells]float64, ok bool) {
	var known mask
	for _, m := range k.ship {
		known = known.or(m)
	}
	blockedAll := k.water.or(known)
	ok = true
	for s := range Ship(NumShips) {
		if k.sunk[s] {
			continue
		}
		own := k.ship[s]
		blocked := blockedAll.andNot(own)
		total := 0
		var w [NumCells]int
		for _, p := range shipPlacements(s) {
			if !p.cells.covers(own) || p.cells.meets(blocked) {
				continue
			}
			total++
			p.cells.each(func(c Cell) { w[c]++ })
		}
		if total == 0 {
			ok = false
			continue
		}
		for c := range w {
			ps[s][c] = float64(w[c]) / float64(total)
		}
	}
	return ps, ok
}

func (k *knowledge) bestValue() float64 {
	d, ok := k.density(mask{}, 1)
	if !ok {
		return 0
	}
	b := 0.0
	for c := range Cell(NumCells) {
		if !k.shot.has(c) && d[c] > b {
			b = d[c]
		}
	}
	return b
}

var lookK = 8
var lookW = 1.0

func (k *knowledge) lookahead(r *rand.Rand) Cell {
	ps, ok := k.perShip()
	if !ok {
		return -1
	}
	type cv struct {
		c Cell
		p float64
		v float64
	}
	var cs []cv
	for c := range Cell(NumCells) {
		if k.shot.has(c) {
			continue
		}
		p := 0.0
		for s := range NumShips {
			p += ps[s][c]
		}
		cs = append(cs, cv{c: c, p: p})
	}
	r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].p > cs[j].p })
	if len(cs) > lookK {
		cs = cs[:lookK]
	}
	best := -1
	for i := range cs {
		c := cs[i].c
		miss := 1.0
		v := cs[i].p
		for s := range Ship(NumShips) {
			p := ps[s][c]
			if p <= 0 {
				continue
			}
			miss -= p
			k2 := *k
			k2.shot.set(c)
			k2.ship[s].set(c)
			if k2.ship[s].count() == s.Plate() {
				k2.sunk[s] = true
			}
			v += lookW * p * k2.bestValue()
		}
		if miss > 0 {
			k2 := *k
			k2.shot.set(c)
			k2.water.set(c)
			v += lookW * miss * k2.bestValue()
		}
		cs[i].v = v
		if best < 0 || v > cs[best].v+1e-12 {
			best = i
		}
	}
	return cs[best].c
}

var scoreMode = 0
var scoreLam = 0.2

func (k *knowledge) infoPick(r *rand.Rand) Cell {
	ps, ok := k.perShip()
	if !ok {
		return -1
	}
	best := -1e18
	var ties []Cell
	for c := range Cell(NumCells) {
		if k.shot.has(c) {
			continue
		}
		p := 0.0
		h := 0.0
		for s := range NumShips {
			q := ps[s][c]
			p += q
			if q > 0 {
				h -= q * math.Log2(q)
			}
		}
		m := 1 - p
		if m > 1e-12 {
			h -= m * math.Log2(m)
		} else {
			m = 0
		}
		var v float64
		switch scoreMode {
		case 1:
			v = p + scoreLam*h
		case 2:
			v = h / (m + scoreLam)
		}
		if v > best+1e-12 {
			best = v
			ties = append(ties[:0], c)
		} else if v > best-1e-12 {
			ties = append(ties, c)
		}
	}
	return ties[r.IntN(len(ties))]
}

var shipW [NumShips]float64

func (k *knowledge) weightedPick(r *rand.Rand) Cell {
	ps, ok := k.perShip()
	if !ok {
		return -1
	}
	hunt := true
	for s := range NumShips {
		if !k.sunk[s] && !k.ship[s].empty() {
			hunt = false
		}
	}
	best := -1e18
	var ties []Cell
	for c := range Cell(NumCells) {
		if k.shot.has(c) {
			continue
		}
		v := 0.0
		for s := range NumShips {
			if hunt {
				v += ps[s][c] * shipW[s]
			} else {
				v += ps[s][c]
			}
		}
		if v > best+1e-12 {
			best = v
			ties = append(ties[:0], c)
		} else if v > best-1e-12 {
			ties = append(ties, c)
		}
	}
	return ties[r.IntN(len(ties))]
}
