package cards

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// The flow of a turn: the PT Boat decision, the plays, the reload, and the
// final reveal once play is decided.

// beginTurn starts seat s's turn and runs the match on to its first need.
func (g *Game) beginTurn(s engine.Seat) []engine.Event {
	g.startTurn(s)
	return g.advance()
}

// startTurn sets up seat s's turn: one play, the reload still to come, and
// the PT Boat decision if the seat has one. Past MaxTurns the match is drawn.
func (g *Game) startTurn(s engine.Seat) {
	g.turn = s
	g.turns++
	g.playsLeft = 1
	g.mustFrom = nil
	g.reloaded = false
	g.ptPending = g.ptRepairable(s)
	if g.turns > MaxTurns {
		g.over, g.isDraw, g.reason = true, true, fmt.Sprintf("turn limit of %d reached", MaxTurns)
	}
}

// ptRepairable reports whether seat s's PT Boat can remove a peg card now.
func (g *Game) ptRepairable(s engine.Seat) bool {
	return g.powerOn(s, PTBoat) && g.damagedShip(s)
}

// damagedShip reports whether seat s has an afloat ship with a peg card on it.
func (g *Game) damagedShip(s engine.Seat) bool {
	for _, k := range Ships {
		sh := &g.players[s].ships[k]
		if sh.revealed && !sh.sunk && len(sh.pegs) > 0 {
			return true
		}
	}
	return false
}

// advance moves the match on to the next input it needs: it runs draws,
// ends plays and turns, and starts the final reveal once play is decided.
func (g *Game) advance() []engine.Event {
	var evs []engine.Event
	for {
		if g.over {
			g.nextReveal(0)
			return evs
		}
		switch {
		case g.draw.purpose != drawNone && g.draw.left > 0:
			switch {
			case g.pile(g.draw.seat) > 0:
				g.step, g.seat = stDraw, g.draw.seat
				return evs
			case countTotal(g.players[g.draw.seat].disc) > 0:
				g.step, g.seat = stReshuffle, g.draw.seat
				return evs
			}
			g.draw.left = 0
			evs = append(evs, engine.Eventf(g.draw.seat, "no-cards", "%s has no cards left to draw", g.draw.seat))
		case g.draw.purpose != drawNone:
			if g.draw.purpose == drawPower {
				g.mustFrom = g.draw.got
			}
			g.draw = drawState{}
		case g.ptPending:
			g.step, g.seat = stStart, g.turn
			return evs
		case g.playsLeft > 0:
			switch {
			case g.mustFrom != nil && len(g.mustFrom) == 0:
				g.playsLeft--
				g.mustFrom = nil
			case len(g.players[g.turn].hand) == 0:
				g.playsLeft = 0
			default:
				g.step, g.seat = stPlay, g.turn
				return evs
			}
		case !g.reloaded:
			g.reloaded = true
			g.mustFrom = nil
			if k := g.HandLimit(g.turn) - len(g.players[g.turn].hand); k > 0 {
				g.startDraw(g.turn, k, drawReload)
			}
		default:
			g.startTurn(other(g.turn))
		}
	}
}

// nextReveal moves the final reveal to the first seat from s on that still
// has hidden leaves, or ends the match.
func (g *Game) nextReveal(s engine.Seat) {
	for ; s < 2; s++ {
		if len(g.hiddenSlots(s)) > 0 {
			g.step, g.seat = stReveal, s
			return
		}
	}
	g.step, g.seat = stOver, engine.NoSeat
}

// HandLimit returns the hand size seat s reloads to now: 7 while its
// Aircraft Carrier is revealed and afloat, else 5.
func (g *Game) HandLimit(s engine.Seat) int {
	if validSeat(s) && g.powerOn(s, Carrier) {
		return CarrierHandSize
	}
	return HandSize
}
