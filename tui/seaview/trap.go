package seaview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
)

// A shallow is placed after the destroyers, and shallows never go: one
// placed against a destroyer can leave it no move for the whole game.
// The engine allows it (the rulebook does), so the board warns before
// enter places it, and "next legal" skips such places while others
// remain.

// trapped lists your destroyers that would have no move left with the
// shallow at c (nil for another piece, or a place that is not legal).
func (p *placing) trapped(v *View, c sea.Cell) []int {
	if p.piece != sea.PieceShallow || !p.ok(c, p.facing) {
		return nil
	}
	g, ok := v.g.Clone().(*sea.Game)
	if !ok {
		return nil
	}
	in := engine.Input{Kind: engine.NeedMove, Seat: v.seat(), Move: sea.PlaceMove(p.piece, c, p.facing).Encode()}
	if _, err := g.Apply(in); err != nil {
		return nil
	}
	var out []int
	for _, d := range g.Destroyers(v.seat()) {
		if d.Placed && d.Afloat && len(g.DestroyerMoves(v.seat(), d.Index)) == 0 {
			out = append(out, d.Index)
		}
	}
	return out
}

// trapWarning says which destroyers the shallow at the cursor would
// block for good, or "".
func (p *placing) trapWarning(v *View) string {
	ds := p.trapped(v, v.cur)
	if len(ds) == 0 {
		return ""
	}
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = fmt.Sprint(d)
	}
	return fmt.Sprintf("legal, but your %s %s could never move again — n finds another place",
		plural(len(ds), "destroyer"), strings.Join(names, " and "))
}

// untrapping keeps the placements that block none of your destroyers.
func (p *placing) untrapping(v *View, opts []sea.Move) []sea.Move {
	var out []sea.Move
	for _, m := range opts {
		if len(p.trapped(v, *m.Cell)) == 0 {
			out = append(out, m)
		}
	}
	return out
}
