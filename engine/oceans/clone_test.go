package oceans

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCloneIntoKeepsPilesApart copies random piles with cloneInto and then
// appends to and deletes from them at random, as play does: each copy must
// hold exactly what a pile of its own would, the originals stay as they
// were, and nil and empty piles stay so.
func TestCloneIntoKeepsPilesApart(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 10))
	for range 2000 {
		orig := make([][]int, 1+r.IntN(8))
		for i := range orig {
			switch r.IntN(4) {
			case 0: // nil
			case 1:
				orig[i] = []int{}
			default:
				for range r.IntN(6) {
					orig[i] = append(orig[i], r.IntN(100))
				}
			}
		}
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
