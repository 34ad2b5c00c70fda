package ubuild

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// sampleLayout draws one layout (ship masks) from the posterior by rejection.
func (k *knowledge) sampleLayout(r *rand.Rand, cands *[NumShips][]mask) ([NumShips]mask, bool) {
	var out [NumShips]mask
	for tries := 0; tries < 100000; tries++ {
		var all mask
		ok := true
		for s := range Ship(NumShips) {
			if k.sunk[s] {
				out[s] = k.ship[s]
				all = all.or(out[s])
				continue
			}
			cs := cands[s]
			p := cs[r.IntN(len(cs))]
			if all.meets(p) {
				ok = false
				break
			}
			all = all.or(p)
			out[s] = p
		}
		if ok {
			return out, true
		}
	}
	return out, false
}

func (k *knowledge) candidates() (c [NumShips][]mask, ok bool) {
	var known mask
	for _, m := range k.ship {
		known = known.or(m)
	}
	blockedAll := k.water.or(known)
	for s := range Ship(NumShips) {
		if k.sunk[s] {
			continue
		}
		own := k.ship[s]
		blocked := blockedAll.andNot(own)
		for _, p := range shipPlacements(s) {
			if p.cells.covers(own) && !p.cells.meets(blocked) {
				c[s] = append(c[s], p.cells)
			}
		}
		if len(c[s]) == 0 {
			return c, false
		}
	}
	return c, true
}

func (k *knowledge) shoot(c Cell, lay *[NumShips]mask) {
	k.shot.set(c)
	for s := range Ship(NumShips) {
		if lay[s].has(c) {
			k.ship[s].set(c)
			if k.ship[s] == lay[s] {
				k.sunk[s] = true
			}
			return
		}
	}
	k.water.set(c)
}

func (k *knowledge) done() bool {
	for _, s := range k.sunk {
		if !s {
			return false
		}
	}
	return true
}

func greedyCell(k *knowledge, r *rand.Rand) Cell {
	d, ok := k.density(mask{}, 1)
	return bestCell(d, k.shot, ok, r)
}

func (k *knowledge) rolloutPick(r *rand.Rand, K, M int) Cell {
	d, ok := k.density(mask{}, 1)
	if !ok {
		return bestCell(d, k.shot, ok, r)
	}
	type cv struct {
		c Cell
		p float64
		v int
	}
	var cs []cv
	for c := range Cell(NumCells) {
		if !k.shot.has(c) {
			cs = append(cs, cv{c: c, p: d[c]})
		}
	}
	r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].p > cs[j].p })
	if len(cs) > K {
		cs = cs[:K]
	}
	if cs[0].p > 0.999 {
		return cs[0].c
	}
	cands, _ := k.candidates()
	for m := 0; m < M; m++ {
		lay, ok := k.sampleLayout(r, &cands)
		if !ok {
			return cs[0].c
		}
		seed := r.Uint64()
		for i := range cs {
			rr := rand.New(rand.NewPCG(seed, 1))
			k2 := *k
			k2.shoot(cs[i].c, &lay)
			n := 1
			for !k2.done() {
				k2.shoot(greedyCell(&k2, rr), &lay)
				n++
			}
			cs[i].v += n
		}
	}
	best := 0
	for i := range cs {
		if cs[i].v < cs[best].v {
			best = i
		}
	}
	return cs[best].c
}

var rollK, rollM int

func BenchmarkDensity(b *testing.B) {
	k := knowledge{}
	for b.Loop() {
		k.density(mask{}, 1)
	}
}
