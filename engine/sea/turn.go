package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// startTurn begins seat s's turn at step 1.
func (g *Game) startTurn(s engine.Seat) {
	g.turn++
	g.active = s
	g.rolls = nil
	if g.turn > MaxTurns {
		g.finishByDamage("the turn limit was reached")
		return
	}
	for i := range g.sides {
		sd := &g.sides[i]
		for j := range sd.destroyers {
			sd.destroyers[j].acted, sd.destroyers[j].fired = false, false
		}
		for j := range sd.fighters {
			sd.fighters[j].returned = false
		}
	}
	g.emit(s, "turn", "turn %d: %s", g.turn, s)
	g.enterStep1()
}

func (g *Game) endTurn() { g.startTurn(other(g.active)) }

// continueStep resumes a step after a carrier hit has been dealt with.
func (g *Game) continueStep(step int) {
	switch step {
	case 1:
		g.nextHarpoon()
	case 3:
		g.enterStep3()
	case 4:
		g.enterStep4()
	case 6:
		g.enterStep6()
	}
}

// afterHit continues step unless the match is decided or a carrier hit
// awaits its damage roll.
func (g *Game) afterHit(step int) {
	if g.decided || g.damage.pending {
		return
	}
	g.continueStep(step)
}
