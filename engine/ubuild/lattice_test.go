package ubuild

import (
	"math/rand/v2"
	"testing"
)

// know builds public knowledge from cells answered as water and cells
// answered as each ship; a ship whose cells are all listed is sunk.
func know(t *testing.T, water []string, ships map[Ship][]string) knowledge {
	t.Helper()
	var k knowledge
	for _, s := range water {
		c, err := ParseCell(s)
		if err != nil {
			t.Fatal(err)
		}
		k.shot.set(c)
		k.water.set(c)
	}
	for s, cs := range ships {
		for _, x := range cs {
			c, err := ParseCell(x)
			if err != nil {
				t.Fatal(err)
			}
			k.shot.set(c)
			k.ship[s].set(c)
		}
		k.sunk[s] = len(cs) == s.Plate()
	}
	return k
}

func TestLatticeClassesMeetEveryShip(t *testing.T) {
	for m := 2; m <= 3; m++ {
		for i, cls := range latticeClasses[m] {
			for s := range Ship(NumShips) {
				if s.Plate() < m {
					continue
				}
				for _, p := range shipPlacements(s) {
					n := p.cells.and(cls).count()
					if n == 0 || s.Plate() == m && n != 1 {
						t.Fatalf("period %d class %d: %s at %s covers %d of its cells", m, i, s, p.start, n)
					}
				}
			}
		}
	}
}

func TestLattice(t *testing.T) {
	pt := []string{"A-1", "A-2"}
	destroyer := []string{"J-8", "J-9", "J-10"}
	sub := []string{"C-10", "D-10", "E-10"}
	tests := []struct {
		name   string
		water  []string
		ships  map[Ship][]string
		period int // 0: no lattice
	}{
		{"every ship afloat: the checkerboard", nil, nil, 2},
		{"PT boat hit, not sunk: found, so period 3", nil, map[Ship][]string{PTBoat: pt[:1]}, 3},
		{"PT boat sunk: period 3", nil, map[Ship][]string{PTBoat: pt}, 3},
		{"only the long ships unfound: none", nil, map[Ship][]string{PTBoat: pt, Destroyer: destroyer, Submarine: sub}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := know(t, tt.water, tt.ships)
			_, ok := k.lattice(rand.New(rand.NewPCG(1, 1)))
			if got := k.smallestUnfound(); ok != (tt.period != 0) || ok && got != tt.period {
				t.Fatalf("lattice: ok=%v, smallest unfound %d; want period %d", ok, got, tt.period)
			}
		})
	}
	t.Run("the class holding the most water", func(t *testing.T) {
		// Water on three cells of (row-col) mod 3 = 0, one elsewhere.
		k := know(t, []string{"D-4", "E-5", "H-8", "B-9"}, map[Ship][]string{PTBoat: pt})
		for seed := range uint64(20) {
			cls, ok := k.lattice(rand.New(rand.NewPCG(seed, 1)))
			if !ok || !cls.has(CellAt(3, 3)) || !cls.has(CellAt(4, 4)) || !cls.has(CellAt(7, 7)) {
				t.Fatalf("seed %d: lattice %v, %v does not hold D-4, E-5 and H-8", seed, cls, ok)
			}
		}
	})
}

// TestVolleyKeepsToTheLattice: with misses on the even cells of the
// checkerboard, the best cell (F-5, density 1.956) is odd; the best even one
// (F-4, 1.944) is within hunterLatticeSlack of it, so the hunter shoots an
// even cell. Once a ship is hit it finishes it off wherever the density
// says.
func TestVolleyKeepsToTheLattice(t *testing.T) {
	water := []string{"I-9", "G-3", "E-1", "D-6", "H-6"}
	k := know(t, water, nil)
	d, _ := k.density(mask{}, 1, &huntWeights)
	best := bestCell(d, k.shot, true, rand.New(rand.NewPCG(1, 1)))
	if best != CellAt(5, 4) {
		t.Fatalf("best cell %s, want F-5 (the test's premise)", best)
	}
	for seed := range uint64(50) {
		c := k.volley(1, rand.New(rand.NewPCG(seed, 2)))[0]
		if (c.Row()+c.Col())%2 != 0 {
			t.Fatalf("seed %d: hunter shot %s, off the even cells its misses are on", seed, c)
		}
	}

	k = know(t, water, map[Ship][]string{Carrier: {"F-5"}})
	d, _ = k.density(mask{}, 1, &unitWeights)
	top := 0.0
	for c := range Cell(NumCells) {
		if !k.shot.has(c) {
			top = max(top, d[c])
		}
	}
	for seed := range uint64(50) {
		if c := k.volley(1, rand.New(rand.NewPCG(seed, 2)))[0]; d[c] < top-1e-9 {
			t.Fatalf("seed %d: finishing the carrier, the hunter shot %s (%.3f), not a best cell (%.3f)", seed, c, d[c], top)
		}
	}
}
