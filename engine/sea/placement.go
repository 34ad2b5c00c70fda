package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// ownHalf reports whether c lies in seat s's half of the board.
func ownHalf(c Cell, s engine.Seat) bool { return c.Valid() && HalfOf(c.Row()) == int(s) }

// surroundedByWater reports whether every space of cells and every on-board
// neighbour of them is open water with no piece (the board edge counts as
// water: house).
func surroundedByWater(b *boardMap, cells []Cell) bool {
	for _, c := range cells {
		for _, n := range append(Neighbors(c), c) {
			if !b.empty(n) {
				return false
			}
		}
	}
	return true
}

// checkPlacement checks seat s placing piece at c heading facing.
func (g *Game) checkPlacement(b *boardMap, s engine.Seat, piece Piece, c Cell, facing Dir) error {
	switch piece {
	case PieceCarrier:
		if !facing.Straight() {
			return engine.Illegal("a carrier lies along a row or column, not %s", facing)
		}
		cells, ok := carrierCells(c, facing)
		if !ok {
			return engine.Illegal("carrier at %s heading %s runs off the board", c, facing)
		}
		for _, x := range cells {
			if !ownHalf(x, s) {
				return engine.Illegal("carrier space %s is not on your half", x)
			}
		}
		if Step(c, facing) == NoCell {
			return engine.Illegal("carrier at %s heading %s has no launch space in front of its bow", c, facing)
		}
		if !surroundedByWater(b, cells[:]) {
			return engine.Illegal("carrier at %s must be surrounded by open water", c)
		}
	case PieceDestroyer:
		if !facing.Valid() {
			return engine.Illegal("bad destroyer heading")
		}
		stern := Step(c, facing.Opposite())
		if !c.Valid() || stern == NoCell {
			return engine.Illegal("destroyer at %s heading %s runs off the board", c, facing)
		}
		cells := []Cell{c, stern}
		for _, x := range cells {
			if !ownHalf(x, s) {
				return engine.Illegal("destroyer space %s is not on your half", x)
			}
		}
		car := g.carrierSpaces(s)
		if len(car) == 0 {
			return engine.Illegal("place your carrier before your destroyers")
		}
		if MinDist([]Cell{c}, car) != DestroyerGap && MinDist([]Cell{stern}, car) != DestroyerGap {
			return engine.Illegal("destroyer at %s: one end must be exactly %d spaces from your carrier", c, DestroyerGap)
		}
		if !surroundedByWater(b, cells) {
			return engine.Illegal("destroyer at %s must be surrounded by open water", c)
		}
	case PieceShallow:
		cells, ok := shallowCells(c)
		if !ok {
			return engine.Illegal("shallow at %s runs off the board", c)
		}
		launch := []Cell{g.launchSpace(0), g.launchSpace(1)}
		for _, x := range cells {
			if !ownHalf(x, s) {
				return engine.Illegal("shallow space %s is not on your half", x)
			}
			if !b.empty(x) {
				return engine.Illegal("shallow space %s is not open water", x)
			}
			if x == launch[0] || x == launch[1] {
				return engine.Illegal("shallow space %s would block a carrier's launch space", x)
			}
		}
	default:
		return engine.Illegal("unknown piece %q", piece)
	}
	return nil
}

// placementOptions lists every legal placement of piece by seat s, as
// moves, in board order.
func (g *Game) placementOptions(s engine.Seat, piece Piece) []Move {
	var out []Move
	b := g.board()
	for c := Cell(0); c < NumCells; c++ {
		switch piece {
		case PieceShallow:
			if g.checkPlacement(b, s, piece, c, North) == nil {
				out = append(out, PlaceMove(piece, c, North))
			}
		default:
			for d := Dir(0); d < numDirs; d++ {
				if g.checkPlacement(b, s, piece, c, d) == nil {
					out = append(out, PlaceMove(piece, c, d))
				}
			}
		}
	}
	return out
}

// place puts the piece on the board (already checked).
func (g *Game) place(s engine.Seat, piece Piece, c Cell, facing Dir) {
	sd := &g.sides[s]
	switch piece {
	case PieceCarrier:
		sd.carrier = carrier{bow: c, facing: facing, placed: true}
	case PieceDestroyer:
		for i := range sd.destroyers {
			if !sd.destroyers[i].placed {
				sd.destroyers[i] = destroyer{bow: c, stern: Step(c, facing.Opposite()), placed: true, alive: true}
				break
			}
		}
	case PieceShallow:
		for i := range sd.shallows {
			if sd.shallows[i] == NoCell {
				sd.shallows[i] = c
				break
			}
		}
	}
	sd.placed++
}
