package seaview

import (
	"fmt"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
)

// placing is a piece being placed at setup: it floats at the cursor (a
// ship's bow, a shallow's top-left space) with a facing.
type placing struct {
	piece  sea.Piece
	facing sea.Dir
	legal  map[sea.Cell][]sea.Dir // the engine's legal placements
}

// start takes the piece the engine asks for and its legal placements.
func (p *placing) start(v *View) {
	_, piece, _ := v.g.Placing()
	if piece != p.piece || p.legal == nil {
		p.facing = sea.South // towards the enemy, for seat 0
		if v.seat() == 1 {
			p.facing = sea.North
		}
	}
	p.piece = piece
	p.legal = map[sea.Cell][]sea.Dir{}
	for _, m := range v.g.PlacementOptions() {
		d := sea.North
		if m.Facing != nil {
			d = *m.Facing
		}
		p.legal[*m.Cell] = append(p.legal[*m.Cell], d)
	}
	if sea.HalfOf(v.cur.Row()) != int(v.seat()) {
		v.cur = sea.At(sea.Cols/2, int(v.seat())*sea.HalfRows+sea.HalfRows/2)
	}
}

// ok reports whether the piece may go at c with facing d.
func (p *placing) ok(c sea.Cell, d sea.Dir) bool {
	for _, x := range p.legal[c] {
		if x == d || p.piece == sea.PieceShallow {
			return true
		}
	}
	return false
}

// cells returns the spaces the piece would cover at anchor c.
func (p *placing) cells(c sea.Cell) []sea.Cell {
	var out []sea.Cell
	switch p.piece {
	case sea.PieceCarrier:
		for x := c; len(out) < sea.CarrierLen && x != sea.NoCell; x = sea.Step(x, p.facing.Opposite()) {
			out = append(out, x)
		}
	case sea.PieceDestroyer:
		out = append(out, c)
		if s := sea.Step(c, p.facing.Opposite()); s != sea.NoCell {
			out = append(out, s)
		}
	default:
		for dr := range sea.ShallowSize {
			for dc := range sea.ShallowSize {
				if x := sea.At(c.Col()+dc, c.Row()+dr); x != sea.NoCell {
					out = append(out, x)
				}
			}
		}
	}
	return out
}

// turn changes the facing: a carrier turns 90 degrees, a destroyer 45.
func (p *placing) turn(v *View, d int) {
	switch p.piece {
	case sea.PieceShallow:
		v.life.Msg = "a shallow has no facing"
	case sea.PieceCarrier:
		p.facing = sea.Dir((int(p.facing) + 2*d + 8) % 8)
		if !p.facing.Straight() {
			p.facing = p.facing.Right()
		}
	default:
		p.facing = sea.Dir((int(p.facing) + d + 8) % 8)
	}
}

// random moves the piece to a random legal placement.
func (p *placing) random(v *View) {
	opts := v.g.PlacementOptions()
	if len(opts) == 0 {
		v.life.Msg = "no legal place is left for your " + string(p.piece)
		return
	}
	if free := p.untrapping(v, opts); len(free) > 0 {
		opts = free
	}
	m := opts[v.rand.IntN(len(opts))]
	v.cur = *m.Cell
	if m.Facing != nil {
		p.facing = *m.Facing
	}
}

// next moves the piece to the next legal anchor for its facing (any
// facing if none), in board order after the cursor; a shallow skips the
// places that would block one of your destroyers for good while others
// remain.
func (p *placing) next(v *View) {
	for _, pass := range []struct{ anyFacing, traps bool }{{false, false}, {true, false}, {true, true}} {
		for i := 1; i <= sea.NumCells; i++ {
			c := sea.Cell((int(v.cur) + i) % sea.NumCells)
			if ds := p.legal[c]; len(ds) > 0 && (pass.anyFacing || p.ok(c, p.facing)) && (pass.traps || len(p.trapped(v, c)) == 0) {
				v.cur = c
				if !p.ok(c, p.facing) {
					p.facing = ds[0]
				}
				return
			}
		}
	}
	v.life.Msg = "no legal place is left for your " + string(p.piece)
}

// place sends the placement at the cursor.
func (p *placing) place(v *View) {
	v.replyMove(sea.PlaceMove(p.piece, v.cur, p.facing))
}

func (p *placing) prompt(v *View) string {
	where := fmt.Sprintf("bow %s facing %s", v.cur, p.facing)
	if p.piece == sea.PieceShallow {
		where = "top-left " + v.cur.String()
	}
	if w := p.trapWarning(v); w != "" {
		return fmt.Sprintf("Place your %s: %s — %s", p.piece, where, w)
	}
	if p.ok(v.cur, p.facing) {
		return fmt.Sprintf("Place your %s: %s — legal, enter places it", p.piece, where)
	}
	why := "on your half, in open water"
	switch p.piece {
	case sea.PieceCarrier:
		why = "on your half, water all round, launch space ahead"
	case sea.PieceDestroyer:
		why = fmt.Sprintf("one end %d from your carrier, water all round", sea.DestroyerGap)
	}
	return fmt.Sprintf("Place your %s: %s — not legal (%s)", p.piece, where, why)
}

// overlay draws the floating piece (clashing where it may not go) and
// every legal anchor for its facing.
func (p *placing) overlay(v *View, out map[sea.Cell]look) {
	th := v.th
	for c, ds := range p.legal {
		for _, d := range ds {
			if (d == p.facing || p.piece == sea.PieceShallow) && v.at(c).Kind == sea.Empty {
				out[c] = look{gReach, th.Ghost}
			}
		}
	}
	legal := p.ok(v.cur, p.facing)
	for i, c := range p.cells(v.cur) {
		lk := look{gClash, th.Bad}
		if legal {
			switch {
			case p.piece == sea.PieceShallow:
				lk = look{gShallow, th.Ghost}
			case i == 0:
				lk = look{bowGlyph(p.piece == sea.PieceCarrier, true, p.facing), th.Ghost}
			default:
				lk = look{gOwnHull, th.Ghost}
			}
		}
		out[c] = lk
	}
	if p.piece == sea.PieceCarrier && legal {
		if l := sea.Step(v.cur, p.facing); l != sea.NoCell {
			out[l] = look{gLaunch, th.Ghost}
		}
	}
}

func (v *View) placeBindings() []keys.Binding {
	p := &v.pl
	return append(arrowBindings("move", "move the piece (its bow, or a shallow's top-left space)", v.move),
		bind(runes('r', ' '), "r", "turn", "turn the piece: a carrier 90 degrees, a destroyer 45 (space and a right click too)", func() { p.turn(v, 1) }),
		keys.Binding{Keys: runes('R'), Label: "R", Hint: "turn back", Hidden: true, Help: "turn the piece the other way", Run: func() { p.turn(v, -1) }},
		bind(keys.Enter, "enter", "place", "place the piece where it floats (a left click on the board places it there)", func() { p.place(v) }),
		bind(runes('x'), "x", "random legal", "move the piece to a random legal place (enter then places it)", func() { p.random(v) }),
		bind(runes('n'), "n", "next legal", "move the piece to the next legal place after the cursor", func() { p.next(v) }),
	)
}
