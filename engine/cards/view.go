package cards

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Read-only accessors for a board view: everything on the table, per seat.
// A bad seat or ship gives the zero value.

// Variant returns the variant being played ("standard" or "beginner").
func (g *Game) Variant() string {
	if g.variant == beginner {
		return VariantBeginner
	}
	return VariantStandard
}

// First returns the seat that played first, or NoSeat before the coin flip.
func (g *Game) First() engine.Seat { return g.first }

// Turn returns the seat whose turn it is, or NoSeat before the first turn.
func (g *Game) Turn() engine.Seat { return g.turn }

// Turns returns the number of turns begun so far (both seats together).
func (g *Game) Turns() int { return g.turns }

// PlaysLeft returns how many more cards the seat on turn must play this turn.
func (g *Game) PlaysLeft() int { return g.playsLeft }

// MustPlayFrom returns the cards the next play must come from (the three
// just drawn with "Draw 3 cards, then play one"), or nil when any hand card
// may be played.
func (g *Game) MustPlayFrom() []CardRef { return slices.Clone(g.mustFrom) }

// Tapped returns the grid position a peg card is tapping and the tapping
// seat, while a flip is under way.
func (g *Game) Tapped() (pos int, by engine.Seat, ok bool) {
	if g.flip == nil {
		return 0, engine.NoSeat, false
	}
	return g.flip.pos, g.flip.attacker, true
}

// Cell is one position of a coordinate grid as everybody sees it.
type Cell struct {
	Faceup bool // the card has been flipped
	Ship   Ship // the ship it shows, NoShip for a miss (only when Faceup)
}

// Grid returns seat s's coordinate grid, position row*GridCols+column.
func (g *Game) Grid(s engine.Seat) [GridSize]Cell {
	var out [GridSize]Cell
	if !validSeat(s) {
		return out
	}
	p := &g.players[s]
	for i, leaf := range p.grid {
		if leaf >= 0 && p.coords.opened[leaf] {
			out[i] = Cell{Faceup: true, Ship: p.coords.value[leaf]}
		}
	}
	return out
}

// ShipView is one ship as everybody sees it.
type ShipView struct {
	Ship         Ship
	Revealed     bool
	Sunk         bool
	Pos          int    // grid position, when revealed
	Pegs         []Face // the opponent's peg cards on the ship
	Damage       int    // hits as counted now (Battleship bonus included)
	Shield       bool   // a shield protects the ship
	ShieldPegs   []Face // the opponent's peg cards on the shield
	ShieldDamage int
	PowerOn      bool // the ship's power is in play
}

// Fleet returns seat s's five ships in the order of Ships.
func (g *Game) Fleet(s engine.Seat) []ShipView {
	if !validSeat(s) {
		return nil
	}
	out := make([]ShipView, 0, len(Ships))
	for _, k := range Ships {
		sh := &g.players[s].ships[k]
		out = append(out, ShipView{
			Ship: k, Revealed: sh.revealed, Sunk: sh.sunk, Pos: sh.pos,
			Pegs: slices.Clone(sh.pegs), Damage: g.Damage(s, k),
			Shield: sh.shield, ShieldPegs: slices.Clone(sh.shieldPegs), ShieldDamage: g.ShieldDamage(s, k),
			PowerOn: g.powerOn(s, k),
		})
	}
	return out
}

// PowerOn reports whether seat s's ship k uses its power now.
func (g *Game) PowerOn(s engine.Seat, k Ship) bool { return validSeat(s) && g.powerOn(s, k) }

// Hand returns the cards in seat s's hand, in the order drawn; their faces
// are known only to s (through its secrets).
func (g *Game) Hand(s engine.Seat) []CardRef {
	if !validSeat(s) {
		return nil
	}
	return slices.Clone(g.players[s].hand)
}

// DrawPile returns the number of cards in seat s's draw pile.
func (g *Game) DrawPile(s engine.Seat) int {
	if !validSeat(s) {
		return 0
	}
	return g.pile(s)
}

// Deck returns the number of seat s's current deck commitment (1 before any
// reshuffle); its name is DeckName(n).
func (g *Game) Deck(s engine.Seat) int {
	if !validSeat(s) {
		return 0
	}
	return len(g.players[s].decks)
}

// Discard returns seat s's discard pile, counted by face.
func (g *Game) Discard(s engine.Seat) [NumFaces]int {
	if !validSeat(s) {
		return [NumFaces]int{}
	}
	return g.players[s].disc
}
