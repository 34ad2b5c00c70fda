package seaview

import (
	"slices"

	"github.com/salvo-game/salvo/engine/sea"
)

// toFoe is how far space c is from the enemy carrier (for ordering the
// places a piece can go: nearest the enemy first).
func (v *View) toFoe(c sea.Cell) int {
	car := v.fr().carriers[v.foe()].Cells
	if len(car) == 0 || !c.Valid() {
		return sea.Rows + sea.Cols
	}
	return sea.MinDist([]sea.Cell{c}, car)
}

// byFoe sorts destinations: hits first, then nearest the enemy carrier,
// then in board order.
func (v *View) byFoe(ds []sea.Destination) {
	slices.SortStableFunc(ds, func(a, b sea.Destination) int {
		switch {
		case a.Hit != b.Hit && a.Hit:
			return -1
		case a.Hit != b.Hit:
			return 1
		}
		if d := v.toFoe(a.Cell) - v.toFoe(b.Cell); d != 0 {
			return d
		}
		return int(a.Cell) - int(b.Cell)
	})
}
