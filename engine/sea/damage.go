package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// hitShip applies a hit by seat by on the ship o (a Harpoon's or a
// destroyer's) during step.
func (g *Game) hitShip(by engine.Seat, o Occupant, step int) {
	owner := o.Owner
	sd := &g.sides[owner]
	switch o.Kind {
	case DestroyerPiece:
		sd.destroyers[o.Index].alive = false
		g.emit(owner, "sunk", "%s's destroyer %d was sunk", owner, o.Index)
	case CarrierPiece:
		if sd.carrier.damaged {
			sd.carrier.sunk = true
			g.emit(owner, "sunk", "%s's carrier was sunk", owner)
			g.finish([]engine.Seat{by}, "sank the enemy carrier")
			return
		}
		sd.carrier.damaged = true
		g.emit(owner, "damaged", "%s's carrier was hit", owner)
		if len(g.deck(owner)) > 0 {
			g.damage = damageState{owner: owner, by: by, resume: step, pending: true}
			g.phase = phDamageRoll
		}
	}
}

func (g *Game) rollDamage(face int) {
	deck := g.deck(g.damage.owner)
	if face >= len(deck) {
		for _, f := range deck {
			g.loseFighter(g.damage.owner, f)
		}
		g.emit(g.damage.owner, "deck", "%s lost every fighter on its deck (%d)", g.damage.owner, len(deck))
		g.damage.pending = false
		g.continueStep(g.damage.resume)
		return
	}
	g.damage.count = face
	g.phase = phDamageChoose
}

func (g *Game) applyDamageChoice(m Move) error {
	if err := expectKind(m, KindRemove); err != nil {
		return err
	}
	s := g.damage.owner
	if len(m.Fighters) != g.damage.count {
		return engine.Illegal("remove exactly %d fighters, not %d", g.damage.count, len(m.Fighters))
	}
	seen := map[int]bool{}
	for _, f := range m.Fighters {
		if f < 0 || f >= FightersPerSide || g.sides[s].fighters[f].state != OnDeck {
			return engine.Illegal("fighter %d is not on your deck", f)
		}
		if seen[f] {
			return engine.Illegal("fighter %d named twice", f)
		}
		seen[f] = true
	}
	for _, f := range m.Fighters {
		g.loseFighter(s, f)
	}
	g.emit(s, "deck", "%s removed fighters %v from its deck", s, m.Fighters)
	g.damage.pending = false
	g.continueStep(g.damage.resume)
	return nil
}

// loseFighter removes a fighter from the game. Its missile, if any, stays
// unopened until the final reveal.
func (g *Game) loseFighter(s engine.Seat, f int) {
	ff := &g.sides[s].fighters[f]
	ff.state, ff.cell, ff.load = Lost, NoCell, -1
}
