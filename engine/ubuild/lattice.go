package ubuild

import "math/rand/v2"

// Hunting lattices. Every position of a ship of length m covers exactly one
// cell of each class of the diagonal lattices {(row+col) mod m} and
// {(row-col) mod m}, so the cells of one class are enough to find every ship
// of that length. A hunter whose misses keep to one class leaves the last
// small ship a region it can sweep with few shots; misses scattered over
// both colours of the checkerboard leave gaps that cost extra shots to close.

// latticeClasses[m] lists the classes of the two diagonal lattices of
// period m (m = 2 and 3; for 2 both lattices are the checkerboard's colours).
var latticeClasses = func() (t [4][]mask) {
	for m := 2; m <= 3; m++ {
		dirs := 2
		if m == 2 {
			dirs = 1
		}
		for dir := range dirs {
			cls := make([]mask, m)
			for c := range Cell(NumCells) {
				v := c.Row() + c.Col()
				if dir == 1 {
					v = c.Row() - c.Col() + NumCells
				}
				cls[v%m].set(c)
			}
			t[m] = append(t[m], cls...)
		}
	}
	return t
}()

// smallestUnfound returns the length of the shortest ship not hit yet, or 0
// if every ship has been hit.
func (k *knowledge) smallestUnfound() int {
	m := 0
	for s := range Ship(NumShips) {
		if !k.sunk[s] && k.ship[s].empty() && (m == 0 || s.Plate() < m) {
			m = s.Plate()
		}
	}
	return m
}

// lattice returns the lattice class the hunter keeps to: for the shortest
// ship not found yet, if it is at most hunterLatticeMax long, the class of
// its lattices that holds the most cells answered as water (ties broken
// uniformly by r); false when there is none.
func (k *knowledge) lattice(r *rand.Rand) (mask, bool) {
	m := k.smallestUnfound()
	if m < 2 || m > hunterLatticeMax {
		return mask{}, false
	}
	var best mask
	most, ties := -1, 0
	for _, cls := range latticeClasses[m] {
		n := k.water.and(cls).count()
		switch {
		case n > most:
			best, most, ties = cls, n, 1
		case n == most:
			ties++
			if r.IntN(ties) == 0 {
				best = cls
			}
		}
	}
	return best, true
}
