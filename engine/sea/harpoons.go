package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// Step 1: move every Harpoon in the water.

func (g *Game) enterStep1() {
	g.step = 1
	g.toMove = nil
	for _, h := range g.harpoons {
		if h.owner == g.active {
			g.toMove = append(g.toMove, h.id)
		}
	}
	g.nextHarpoon()
}

func (g *Game) nextHarpoon() {
	if g.checkEnd() {
		return
	}
	switch len(g.toMove) {
	case 0:
		g.enterStep2()
	case 1:
		g.curHarpoon, g.toMove = g.toMove[0], nil
		g.phase = phHarpoonRoll
	default:
		g.phase = phHarpoonPick
	}
}

func (g *Game) applyHarpoonPick(m Move) error {
	if err := expectKind(m, KindHarpoon); err != nil {
		return err
	}
	for i, id := range g.toMove {
		if id == m.Harpoon {
			g.curHarpoon = id
			g.toMove = append(g.toMove[:i], g.toMove[i+1:]...)
			g.phase = phHarpoonRoll
			return nil
		}
	}
	return engine.Illegal("Harpoon %d is not yours to move now", m.Harpoon)
}

func (g *Game) applyHarpoonPath(m Move) error {
	if err := expectKind(m, KindPath, KindDone); err != nil {
		return err
	}
	h := g.harpoons[g.harpoonIndex(g.curHarpoon)]
	hit, err := checkHarpoonPath(g.board(), g.active, h.cell, g.curRoll, m.Path)
	if err != nil {
		return err
	}
	g.removeHarpoon(h.id)
	if hit.Kind == Empty {
		g.emit(g.active, "miss", "Harpoon %d reached the end of its range and was removed", h.id)
		g.nextHarpoon()
		return nil
	}
	g.hitShip(g.active, hit, 1)
	g.afterHit(1)
	return nil
}

// Step 6: launch Harpoons.

func (g *Game) enterStep6() {
	g.step = 6
	if g.checkEnd() {
		return
	}
	for _, f := range g.sides[g.active].fighters {
		if f.state == InFlight && f.load >= 0 {
			g.phase = phLaunch
			return
		}
	}
	g.endTurn()
}

func (g *Game) applyLaunch(m Move, vals map[engine.Slot][]byte) error {
	if err := expectKind(m, KindLaunch, KindDone); err != nil {
		return err
	}
	if m.Kind == KindDone {
		g.endTurn()
		return nil
	}
	s := g.active
	if g.sides[s].fighters[m.Fighter].state != InFlight {
		return engine.Illegal("fighter %d is not in flight", m.Fighter)
	}
	slot, _ := g.loadSlot(s, m.Fighter)
	mis, err := DecodeMissile(vals[slot])
	if err != nil {
		return engine.Illegal("fighter %d: %s: %v", m.Fighter, slot, err)
	}
	if mis != Harpoon {
		return engine.Illegal("fighter %d: %s holds a %s, not a Harpoon", m.Fighter, slot, mis)
	}
	g.useLoad(s, m.Fighter, mis)
	g.launching = m.Fighter
	g.emit(s, "launch", "%s's fighter %d launched a Harpoon", s, m.Fighter)
	g.phase = phLaunchRoll
	return nil
}

// useLoad marks fighter f's missile as opened and spent.
func (g *Game) useLoad(s engine.Seat, f int, mis Missile) {
	ff := &g.sides[s].fighters[f]
	g.loads[ff.load].opened = true
	g.loads[ff.load].missile = mis
	ff.load = -1
}

// launchDestinations reports whether a Harpoon launched by seat s from start
// with roll steps has anywhere to go: an enemy ship or an empty space.
func launchDestinations(b *boardMap, s engine.Seat, start Cell, steps int) []Cell {
	r := harpoonReach(b, s, start, steps)
	var out []Cell
	for c := Cell(0); c < NumCells; c++ {
		if r.dist[c] > 0 && (b.isShip(c) || b.empty(c)) {
			out = append(out, c)
		}
	}
	return out
}

func (g *Game) applyLaunchPath(m Move) error {
	if err := expectKind(m, KindPath, KindDone); err != nil {
		return err
	}
	s := g.active
	b := g.board()
	start := g.sides[s].fighters[g.launching].cell
	hit, err := checkHarpoonPath(b, s, start, g.curRoll, m.Path)
	if err != nil {
		return err
	}
	switch {
	case len(m.Path) == 0:
		if len(launchDestinations(b, s, start, g.curRoll)) > 0 {
			return engine.Illegal("the Harpoon must move: it has somewhere to go")
		}
		g.emit(s, "lost", "the Harpoon had nowhere to go and returned to the depot")
	case hit.Kind != Empty:
		g.hitShip(s, hit, 6)
		g.afterHit(6)
		return nil
	default:
		end := m.Path[len(m.Path)-1]
		if !b.empty(end) {
			return engine.Illegal("a Harpoon that hits nothing must end on an empty space, not %s", end)
		}
		g.harpoons = append(g.harpoons, harpoon{id: g.nextID, owner: s, cell: end})
		g.emit(s, "harpoon", "%s's Harpoon %d is in the water at %s", s, g.nextID, end)
		g.nextID++
	}
	g.enterStep6()
	return nil
}
