package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// Step 2: return fighters, roll, scramble, load missiles.

func (g *Game) enterStep2() {
	g.step = 2
	for _, f := range g.sides[g.active].fighters {
		if f.state == InFlight {
			g.phase = phReturn
			return
		}
	}
	g.beginScramble(0)
}

func (g *Game) applyReturn(m Move) error {
	if err := expectKind(m, KindReturn, KindDone); err != nil {
		return err
	}
	if len(m.Fighters) > ScrambleDice {
		return engine.Illegal("at most %d fighters can return (one die each)", ScrambleDice)
	}
	sd := &g.sides[g.active]
	seen := map[int]bool{}
	for _, f := range m.Fighters {
		if f < 0 || f >= FightersPerSide || sd.fighters[f].state != InFlight {
			return engine.Illegal("fighter %d is not in flight", f)
		}
		if seen[f] {
			return engine.Illegal("fighter %d named twice", f)
		}
		seen[f] = true
	}
	for _, f := range m.Fighters {
		ff := &sd.fighters[f]
		ff.state, ff.cell, ff.load, ff.returned = OnDeck, NoCell, -1, true
	}
	if len(m.Fighters) > 0 {
		g.emit(g.active, "return", "%s returned fighters %v to its carrier", g.active, m.Fighters)
	}
	g.beginScramble(len(m.Fighters))
	return nil
}

// canScramble reports whether fighter f may scramble this turn.
func canScramble(f fighter) bool {
	return f.state == InFlight || (f.state == OnDeck && !f.returned)
}

func (g *Game) beginScramble(returned int) {
	n := ScrambleDice - returned
	any := false
	for _, f := range g.sides[g.active].fighters {
		any = any || canScramble(f)
	}
	if n == 0 || !any {
		g.dice = nil
		g.enterStep3()
		return
	}
	g.dice = make([]int, n)
	g.phase = phScrambleRoll
}

func (g *Game) applyScramble(m Move) error {
	if err := expectKind(m, KindScramble, KindDone); err != nil {
		return err
	}
	if len(m.Flights) > len(g.dice) {
		return engine.Illegal("%d flights with %d dice", len(m.Flights), len(g.dice))
	}
	s := g.active
	sd := &g.sides[s]
	b := g.board()
	usedDie, usedF := map[int]bool{}, map[int]bool{}
	for _, fl := range m.Flights {
		if fl.Die < 0 || fl.Die >= len(g.dice) || usedDie[fl.Die] {
			return engine.Illegal("die %d is not an unused die of this roll", fl.Die)
		}
		if fl.Fighter < 0 || fl.Fighter >= FightersPerSide || usedF[fl.Fighter] {
			return engine.Illegal("fighter %d cannot fly twice or does not exist", fl.Fighter)
		}
		usedDie[fl.Die], usedF[fl.Fighter] = true, true
		f := &sd.fighters[fl.Fighter]
		if !canScramble(*f) {
			return engine.Illegal("fighter %d cannot scramble this turn", fl.Fighter)
		}
		takeOff := f.state == OnDeck
		start := f.cell
		if takeOff {
			start = g.launchSpace(s)
		}
		if err := checkFighterPath(b, s, fl.Fighter, start, takeOff, g.dice[fl.Die], fl.Path); err != nil {
			return err
		}
		if !takeOff {
			b.occ[f.cell] = Occupant{}
		}
		end := fl.Path[len(fl.Path)-1]
		b.occ[end] = Occupant{Kind: FighterPiece, Owner: s, Index: fl.Fighter}
		f.state, f.cell = InFlight, end
		if takeOff {
			g.loadQueue = append(g.loadQueue, fl.Fighter)
		}
		g.emit(s, "fly", "%s's fighter %d flew to %s", s, fl.Fighter, end)
	}
	g.dice = nil
	g.enterLoads()
	return nil
}

func (g *Game) enterLoads() {
	if len(g.loadQueue) > 0 {
		g.phase = phLoad
		return
	}
	g.enterStep3()
}
