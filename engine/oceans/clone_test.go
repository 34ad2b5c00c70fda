package oceans

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// randomPiles returns up to eight piles, nil, empty or of a few leaves.
func randomPiles(r *rand.Rand) [][]int {
	piles := make([][]int, 1+r.IntN(8))
	for i := range piles {
		if kind := r.IntN(4); kind == 1 {
			piles[i] = []int{}
		} else if kind > 1 {
			for range r.IntN(6) {
				piles[i] = append(piles[i], r.IntN(100))
			}
		}
	}
	return piles
}

// TestCloneIntoKeepsPilesApart copies random piles with cloneInto and then
// appends to and deletes from them at random, as play does: each copy must
// hold exactly what a pile of its own would, the originals stay as they
// were, and nil and empty piles stay so.
func TestCloneIntoKeepsPilesApart(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 10))
	for n := 0; n < 2000; n++ {
		orig := randomPiles(r)
		want := make([][]int, len(orig))
		piles := make([][]int, len(orig))
		ps := make([]*[]int, len(orig))
		for i := range orig {
			want[i], piles[i] = slices.Clone(orig[i]), orig[i]
			ps[i] = &piles[i]
		}
		cloneInto(cloneRoom, ps...)
		for i := range piles {
			if (piles[i] == nil) != (orig[i] == nil) || !slices.Equal(piles[i], orig[i]) {
				t.Fatalf("pile %d copied as %v, was %v", i, piles[i], orig[i])
			}
		}
		kept := make([][]int, len(orig))
		for i := range orig {
			kept[i] = slices.Clone(orig[i])
		}
		for range 20 {
			i := r.IntN(len(piles))
			if r.IntN(3) > 0 || len(piles[i]) == 0 {
				v := make([]int, 1+r.IntN(3))
				piles[i] = append(piles[i], v...)
				want[i] = append(want[i], v...)
			} else {
				d := r.IntN(len(piles[i]))
				piles[i] = slices.Delete(piles[i], d, d+1)
				want[i] = slices.Delete(want[i], d, d+1)
			}
			for j := range piles {
				if !slices.Equal(piles[j], want[j]) || !slices.Equal(orig[j], kept[j]) {
					t.Fatalf("pile %d holds %v, want %v (original %v, was %v)", j, piles[j], want[j], orig[j], kept[j])
				}
			}
		}
	}
}
