package sea

import "github.com/salvo-game/salvo/engine"

// PieceKind says what occupies a space.
type PieceKind uint8

// What a space may hold. Every space holds at most one piece (a shallow is
// terrain, not a piece).
const (
	Empty PieceKind = iota
	CarrierPiece
	DestroyerPiece
	FighterPiece
	HarpoonPiece
)

// Occupant is the piece on a space: its kind, owner and index (a destroyer's
// or fighter's index, a Harpoon's ID).
type Occupant struct {
	Kind  PieceKind
	Owner engine.Seat
	Index int
}

// boardMap is the occupancy of every space, built from the state for
// validation and path finding.
type boardMap struct {
	shallow [NumCells]bool
	occ     [NumCells]Occupant
}

// carrierCells returns the spaces of a carrier whose bow is at bow heading
// facing, bow first; ok is false if any is off the board.
func carrierCells(bow Cell, facing Dir) (cells [CarrierLen]Cell, ok bool) {
	c := bow
	for i := range cells {
		if !c.Valid() {
			return cells, false
		}
		cells[i] = c
		c = Step(c, facing.Opposite())
	}
	return cells, true
}

// shallowCells returns the spaces of a shallow with top-left space tl.
func shallowCells(tl Cell) (cells [ShallowSize * ShallowSize]Cell, ok bool) {
	i := 0
	for dr := range ShallowSize {
		for dc := range ShallowSize {
			c := At(tl.Col()+dc, tl.Row()+dr)
			if !tl.Valid() || c == NoCell {
				return cells, false
			}
			cells[i] = c
			i++
		}
	}
	return cells, true
}

func (g *Game) carrierSpaces(s engine.Seat) []Cell {
	c := g.sides[s].carrier
	if !c.placed || c.sunk {
		return nil
	}
	cells, _ := carrierCells(c.bow, c.facing)
	return cells[:]
}

// launchSpace returns the space in front of seat s's carrier's bow.
func (g *Game) launchSpace(s engine.Seat) Cell {
	c := g.sides[s].carrier
	if !c.placed {
		return NoCell
	}
	return Step(c.bow, c.facing)
}

func (d destroyer) cells() []Cell { return []Cell{d.bow, d.stern} }

// board builds the occupancy map of the current state. It is small enough
// to inline, so that a caller that keeps the map to itself (most do, and
// several run for every move an audit replays) builds it on its stack, not
// as five kilobytes of garbage.
func (g *Game) board() *boardMap {
	b := new(boardMap)
	g.fillBoard(b)
	return b
}

// fillBoard writes the occupancy of the current state into the empty b.
func (g *Game) fillBoard(b *boardMap) {
	for s := range engine.Seat(2) {
		sd := &g.sides[s]
		for _, tl := range sd.shallows {
			if cells, ok := shallowCells(tl); ok {
				for _, c := range cells {
					b.shallow[c] = true
				}
			}
		}
		for _, c := range g.carrierSpaces(s) {
			b.occ[c] = Occupant{Kind: CarrierPiece, Owner: s}
		}
		for i, d := range sd.destroyers {
			if d.placed && d.alive {
				for _, c := range d.cells() {
					b.occ[c] = Occupant{Kind: DestroyerPiece, Owner: s, Index: i}
				}
			}
		}
		for i, f := range sd.fighters {
			if f.state == InFlight {
				b.occ[f.cell] = Occupant{Kind: FighterPiece, Owner: s, Index: i}
			}
		}
	}
	for _, h := range g.harpoons {
		b.occ[h.cell] = Occupant{Kind: HarpoonPiece, Owner: h.owner, Index: h.id}
	}
}

func (b *boardMap) isShip(c Cell) bool {
	k := b.occ[c].Kind
	return k == CarrierPiece || k == DestroyerPiece
}

// empty reports whether c is open water with no piece on it.
func (b *boardMap) empty(c Cell) bool { return !b.shallow[c] && b.occ[c].Kind == Empty }

// enemyFighterNear reports whether a fighter of the seat other than s is on
// a neighbour of c.
func (b *boardMap) enemyFighterNear(c Cell, s engine.Seat) bool {
	for _, n := range Neighbors(c) {
		o := b.occ[n]
		if o.Kind == FighterPiece && o.Owner != s {
			return true
		}
	}
	return false
}

// shipNear reports whether any ship other than the one at skip occupies a
// neighbour of c or c itself.
func (b *boardMap) shipNear(c Cell, skip Occupant) bool {
	for _, n := range append(Neighbors(c), c) {
		if b.isShip(n) && b.occ[n] != skip {
			return true
		}
	}
	return false
}

// harpoonIndex returns the index in g.harpoons of Harpoon id, or -1.
func (g *Game) harpoonIndex(id int) int {
	for i, h := range g.harpoons {
		if h.id == id {
			return i
		}
	}
	return -1
}

func (g *Game) removeHarpoon(id int) {
	if i := g.harpoonIndex(id); i >= 0 {
		g.harpoons = append(g.harpoons[:i], g.harpoons[i+1:]...)
	}
}

// deck returns the fighters of seat s on its carrier's deck, by index.
func (g *Game) deck(s engine.Seat) []int {
	var out []int
	for i, f := range g.sides[s].fighters {
		if f.state == OnDeck {
			out = append(out, i)
		}
	}
	return out
}
