package seaview

import (
	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
)

// frame is what the view reads of the game for one snapshot, computed
// once: a draw asks about every space, and the engine's accessors build
// their answers afresh each call.
type frame struct {
	gen        int
	occ        [sea.NumCells]sea.Occupant
	shallow    [sea.NumCells]bool
	launch     [sea.NumCells]bool
	wreck      [sea.NumCells]bool // where a sunk ship went down
	carriers   [2]sea.CarrierView
	destroyers [2][]sea.DestroyerView
	fighters   [2][]sea.FighterView
}

// fr returns the frame of the game drawn now.
func (v *View) fr() *frame {
	if v.frame != nil && v.frame.gen == v.gen {
		return v.frame
	}
	f := &frame{gen: v.gen}
	g := v.g
	for s := range engine.Seat(2) {
		for _, tl := range g.Shallows(s) {
			for dr := range sea.ShallowSize {
				for dc := range sea.ShallowSize {
					if c := sea.At(tl.Col()+dc, tl.Row()+dr); c != sea.NoCell {
						f.shallow[c] = true
					}
				}
			}
		}
		f.carriers[s] = g.Carrier(s)
		if cv := f.carriers[s]; cv.Sunk {
			for _, c := range cv.Cells {
				if c.Valid() {
					f.wreck[c] = true
				}
			}
		}
		f.destroyers[s] = g.Destroyers(s)
		f.fighters[s] = v.fightersOf(s)
		if cv := f.carriers[s]; cv.Placed && !cv.Sunk {
			for _, c := range cv.Cells {
				f.occ[c] = sea.Occupant{Kind: sea.CarrierPiece, Owner: s}
			}
			if cv.Launch.Valid() {
				f.launch[cv.Launch] = true
			}
		}
		for _, d := range f.destroyers[s] {
			if d.Placed && !d.Afloat {
				for _, c := range []sea.Cell{d.Bow, d.Stern} {
					if c.Valid() {
						f.wreck[c] = true
					}
				}
			}
			if d.Placed && d.Afloat {
				for _, c := range []sea.Cell{d.Bow, d.Stern} {
					f.occ[c] = sea.Occupant{Kind: sea.DestroyerPiece, Owner: s, Index: d.Index}
				}
			}
		}
		for _, fv := range f.fighters[s] {
			if fv.State == sea.InFlight && fv.Cell.Valid() {
				f.occ[fv.Cell] = sea.Occupant{Kind: sea.FighterPiece, Owner: s, Index: fv.Index}
			}
		}
	}
	for _, h := range g.Harpoons() {
		f.occ[h.Cell] = sea.Occupant{Kind: sea.HarpoonPiece, Owner: h.Owner, Index: h.ID}
	}
	v.frame = f
	return f
}

// at returns the piece on space c.
func (v *View) at(c sea.Cell) sea.Occupant {
	if !c.Valid() {
		return sea.Occupant{}
	}
	return v.fr().occ[c]
}

// changed marks the cached frame stale.
func (v *View) changed() { v.gen++ }
