package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// Steps 3 and 4: destroyers.

// destroyerCanAct reports whether destroyer d of seat s has any legal move
// or target; fireOnly limits it to targets.
func (g *Game) destroyerCanAct(b *boardMap, s engine.Seat, d int, fireOnly bool) bool {
	dd := g.sides[s].destroyers[d]
	if !dd.alive {
		return false
	}
	if !fireOnly && len(destroyerOptions(b, s, d, dd)) > 0 {
		return true
	}
	return len(g.fireTargets(b, s, d)) > 0
}

func (g *Game) enterStep3() {
	g.step = 3
	if g.checkEnd() {
		return
	}
	b := g.board()
	for d, dd := range g.sides[g.active].destroyers {
		if !dd.acted && g.destroyerCanAct(b, g.active, d, false) {
			g.phase = phDestroyer
			return
		}
	}
	g.enterStep4()
}

func (g *Game) applyDestroyer(m Move) error {
	if err := expectKind(m, KindMove, KindFire, KindDone); err != nil {
		return err
	}
	if m.Kind == KindDone {
		g.enterStep4()
		return nil
	}
	s := g.active
	if m.Destroyer < 0 || m.Destroyer >= DestroyersPerSide || !g.sides[s].destroyers[m.Destroyer].alive {
		return engine.Illegal("destroyer %d is not afloat", m.Destroyer)
	}
	dd := &g.sides[s].destroyers[m.Destroyer]
	if dd.acted {
		return engine.Illegal("destroyer %d has already moved or fired this turn", m.Destroyer)
	}
	if m.Kind == KindMove {
		bow, stern, err := checkDestroyerMove(g.board(), s, m.Destroyer, *dd, m.Path)
		if err != nil {
			return err
		}
		dd.bow, dd.stern, dd.acted = bow, stern, true
		g.emit(s, "move", "%s's destroyer %d moved to %s", s, m.Destroyer, bow)
		g.enterStep3()
		return nil
	}
	return g.startFire(s, m)
}

func (g *Game) startFire(s engine.Seat, m Move) error {
	if m.Target == nil {
		return engine.Illegal("fire without a target")
	}
	dist, err := g.fireDistance(g.board(), s, m.Destroyer, *m.Target)
	if err != nil {
		return err
	}
	dd := &g.sides[s].destroyers[m.Destroyer]
	if g.step == 3 {
		dd.acted = true
	} else {
		dd.fired = true
	}
	g.fire = fireState{seat: s, destroyer: m.Destroyer, target: *m.Target, dist: dist}
	g.emit(s, "fire", "%s's destroyer %d fires at %s, %d spaces away", s, m.Destroyer, *m.Target, dist)
	g.phase = phFireRoll
	return nil
}

func (g *Game) resolveFire(face int) {
	f := g.fire
	step := g.step
	enemy := other(f.seat)
	if face <= f.dist {
		g.emit(f.seat, "miss", "%s missed %s with a %d", f.seat, f.target, face)
		g.continueStep(step)
		return
	}
	g.emit(f.seat, "hit", "%s hit %s with a %d", f.seat, f.target, face)
	switch f.target.Kind {
	case TargetFighter:
		g.loseFighter(enemy, f.target.Index)
	case TargetHarpoon:
		g.removeHarpoon(f.target.Index)
	case TargetDestroyer:
		g.hitShip(f.seat, Occupant{Kind: DestroyerPiece, Owner: enemy, Index: f.target.Index}, step)
	case TargetCarrier:
		g.hitShip(f.seat, Occupant{Kind: CarrierPiece, Owner: enemy}, step)
	}
	g.afterHit(step)
}

func (g *Game) enterStep4() {
	g.step = 4
	if g.checkEnd() {
		return
	}
	b := g.board()
	s := other(g.active)
	for d, dd := range g.sides[s].destroyers {
		if !dd.fired && g.destroyerCanAct(b, s, d, true) {
			g.phase = phDefense
			return
		}
	}
	g.enterStep5()
}

func (g *Game) applyDefense(m Move) error {
	if err := expectKind(m, KindFire, KindDone); err != nil {
		return err
	}
	if m.Kind == KindDone {
		g.enterStep5()
		return nil
	}
	s := other(g.active)
	if m.Destroyer < 0 || m.Destroyer >= DestroyersPerSide || !g.sides[s].destroyers[m.Destroyer].alive {
		return engine.Illegal("destroyer %d is not afloat", m.Destroyer)
	}
	if g.sides[s].destroyers[m.Destroyer].fired {
		return engine.Illegal("destroyer %d has already fired this turn", m.Destroyer)
	}
	return g.startFire(s, m)
}
