package ubuild

import (
	"math/rand/v2"
)

// sampledDensity estimates joint-posterior marginals by rejection sampling.
func (k *knowledge) sampledDensity(n int, r *rand.Rand) ([NumCells]float64, bool) {
	var known mask
	for _, m := range k.ship {
		known = known.or(m)
	}
	blockedAll := k.water.or(known)
	type cand struct{ ps []mask }
	var ships []Ship
	var cands [NumShips][]mask
	var fixed mask
	for s := range Ship(NumShips) {
		if k.sunk[s] {
			fixed = fixed.or(k.ship[s])
			continue
		}
		own := k.ship[s]
		blocked := blockedAll.andNot(own)
		for _, p := range shipPlacements(s) {
			if p.cells.covers(own) && !p.cells.meets(blocked) {
				cands[s] = append(cands[s], p.cells)
			}
		}
		if len(cands[s]) == 0 {
			return [NumCells]float64{}, false
		}
		ships = append(ships, s)
	}
	// constrained ships first
	for i := range ships {
		for j := i + 1; j < len(ships); j++ {
			if len(cands[ships[j]]) < len(cands[ships[i]]) {
				ships[i], ships[j] = ships[j], ships[i]
			}
		}
	}
	var cnt [NumCells]int
	got := 0
	for tries := 0; got < n && tries < 200*n; tries++ {
		var all mask
		ok := true
		for _, s := range ships {
			p := cands[s][r.IntN(len(cands[s]))]
			if all.meets(p) {
				ok = false
				break
			}
			all = all.or(p)
		}
		if !ok {
			continue
		}
		got++
		all.each(func(c Cell) { cnt[c]++ })
	}
	var d [NumCells]float64
	if got == 0 {
		return d, false
	}
	for c := range d {
		d[c] = float64(cnt[c]) / float64(got)
	}
	return d, true
}
