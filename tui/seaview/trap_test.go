package seaview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
)

// trapsAt returns a legal place of the shallow seat 0 is placing that
// leaves one of its destroyers no move, if any.
func trapsAt(g *sea.Game) (sea.Cell, bool) {
	if _, piece, ok := g.Placing(); !ok || piece != sea.PieceShallow {
		return sea.NoCell, false
	}
	for _, m := range g.PlacementOptions() {
		c := g.Clone().(*sea.Game)
		if _, err := c.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: m.Encode()}); err != nil {
			continue
		}
		for _, d := range c.Destroyers(0) {
			if d.Placed && d.Afloat && len(c.DestroyerMoves(0, d.Index)) == 0 {
				return *m.Cell, true
			}
		}
	}
	return sea.NoCell, false
}

// TestShallowThatBlocksADestroyerIsWarnedOf: a legal shallow that would
// leave one of your destroyers no move for the whole game was offered as
// "legal, enter places it" (and "next legal" could pick it); the prompt
// warns, and n goes to a place that blocks nothing.
func TestShallowThatBlocksADestroyerIsWarnedOf(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		_, ok := trapsAt(d.g)
		return isMove(n, sea.NeedPlace) && ok
	})
	v := newView()
	d.ask(v)
	c, _ := trapsAt(d.g)
	v.cur = c
	if p := v.Prompt(); !strings.Contains(p, "could never move again") {
		t.Fatalf("the shallow at %s blocks a destroyer for good, and the prompt says %q", c, p)
	}
	v.pl.next(v)
	if ds := v.pl.trapped(v, v.cur); len(ds) > 0 || !strings.Contains(v.Prompt(), "legal, enter places it") {
		t.Fatalf("n went to %s, which blocks destroyers %v: %q", v.cur, ds, v.Prompt())
	}
}
