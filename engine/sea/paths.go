package sea

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// reach is the result of a breadth-first search over the board: the fewest
// spaces to each space (-1 if unreachable) and the previous space on one
// shortest path.
type reach struct {
	dist   [NumCells]int8
	parent [NumCells]Cell
}

func newReach() *reach {
	r := &reach{}
	for i := range r.dist {
		r.dist[i] = -1
		r.parent[i] = NoCell
	}
	return r
}

// path returns the spaces from the first step to c along the search tree.
func (r *reach) path(c Cell) []Cell {
	if !c.Valid() || r.dist[c] < 0 {
		return nil
	}
	var rev []Cell
	for x := c; x != NoCell && r.dist[x] > 0; x = r.parent[x] {
		rev = append(rev, x)
	}
	out := make([]Cell, len(rev))
	for i, x := range rev {
		out[len(rev)-1-i] = x
	}
	return out
}

// fighterReach searches where a fighter of seat s can fly in at most steps
// spaces: from start when in flight, or from the launch space (which counts
// as the first space) when taking off. Shallows are no-fly zones; a fighter
// that enters a space next to an enemy fighter must stop there.
func fighterReach(b *boardMap, s engine.Seat, start Cell, takeOff bool, steps int) *reach {
	r := newReach()
	var queue []Cell
	if takeOff {
		if !start.Valid() || b.shallow[start] || steps < 1 {
			return r
		}
		r.dist[start] = 1
	} else {
		r.dist[start] = 0
	}
	queue = append(queue, start)
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		d := int(r.dist[c])
		if d >= steps {
			continue
		}
		if d > 0 && b.enemyFighterNear(c, s) {
			continue
		}
		for _, n := range Neighbors(c) {
			if r.dist[n] >= 0 || b.shallow[n] {
				continue
			}
			r.dist[n] = int8(d + 1)
			r.parent[n] = c
			queue = append(queue, n)
		}
	}
	return r
}

// harpoonReach searches where a Harpoon of seat s starting at start can go in
// at most steps spaces. It goes around shallows, under fighters and Harpoons,
// never into its own side's ships, and stops in an enemy ship it enters.
func harpoonReach(b *boardMap, s engine.Seat, start Cell, steps int) *reach {
	r := newReach()
	r.dist[start] = 0
	queue := []Cell{start}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		d := int(r.dist[c])
		if d >= steps || (d > 0 && b.isShip(c)) {
			continue
		}
		for _, n := range Neighbors(c) {
			if r.dist[n] >= 0 || b.shallow[n] || (b.isShip(n) && b.occ[n].Owner == s) {
				continue
			}
			r.dist[n] = int8(d + 1)
			r.parent[n] = c
			queue = append(queue, n)
		}
	}
	return r
}

// checkFighterPath checks the flight of fighter f of seat s with a die of
// steps along path, against board b (which holds the fighters already moved
// this scramble).
func checkFighterPath(b *boardMap, s engine.Seat, f int, start Cell, takeOff bool, steps int, path []Cell) error {
	if len(path) == 0 {
		return engine.Illegal("fighter %d: empty path", f)
	}
	if len(path) > steps {
		return engine.Illegal("fighter %d: path of %d spaces with a die of %d", f, len(path), steps)
	}
	prev := start
	for i, c := range path {
		if !c.Valid() {
			return engine.Illegal("fighter %d: space %d is off the board", f, i+1)
		}
		if i == 0 && takeOff {
			if c != start {
				return engine.Illegal("fighter %d: a take-off starts on the launch space %s, not %s", f, start, c)
			}
		} else if !Adjacent(prev, c) {
			return engine.Illegal("fighter %d: %s is not next to %s", f, c, prev)
		}
		if b.shallow[c] {
			return engine.Illegal("fighter %d: %s is a shallow (no-fly zone)", f, c)
		}
		if i < len(path)-1 && b.enemyFighterNear(c, s) {
			return engine.Illegal("fighter %d: must stop at %s, next to an enemy fighter", f, c)
		}
		prev = c
	}
	last := path[len(path)-1]
	if o := b.occ[last]; o.Kind != Empty && o != (Occupant{Kind: FighterPiece, Owner: s, Index: f}) {
		return engine.Illegal("fighter %d: must end on an empty space, %s holds a %s", f, last, o.Kind)
	}
	return nil
}

// checkHarpoonPath checks a Harpoon path of seat s from start with a roll of
// steps. It returns the enemy ship hit, if any (Kind Empty otherwise).
func checkHarpoonPath(b *boardMap, s engine.Seat, start Cell, steps int, path []Cell) (Occupant, error) {
	if len(path) > steps {
		return Occupant{}, engine.Illegal("Harpoon path of %d spaces with a roll of %d", len(path), steps)
	}
	prev := start
	for i, c := range path {
		if !c.Valid() {
			return Occupant{}, engine.Illegal("Harpoon path: space %d is off the board", i+1)
		}
		if !Adjacent(prev, c) {
			return Occupant{}, engine.Illegal("Harpoon path: %s is not next to %s", c, prev)
		}
		if b.shallow[c] {
			return Occupant{}, engine.Illegal("Harpoon path: %s is a shallow; Harpoons go around them", c)
		}
		if b.isShip(c) {
			o := b.occ[c]
			if o.Owner == s {
				return Occupant{}, engine.Illegal("Harpoon path: %s is your own %s", c, o.Kind)
			}
			if i != len(path)-1 {
				return Occupant{}, engine.Illegal("Harpoon path: it hits the %s at %s and stops there", o.Kind, c)
			}
			return o, nil
		}
		prev = c
	}
	return Occupant{}, nil
}

// destroyerStep returns the spaces a destroyer with bow and stern may move
// its bow to in one step: straight ahead or 45 degrees either side.
func destroyerStep(bow, stern Cell) []Cell {
	f, ok := DirTo(stern, bow)
	if !ok {
		return nil
	}
	var out []Cell
	for _, d := range []Dir{f.Left(), f, f.Right()} {
		if c := Step(bow, d); c != NoCell {
			out = append(out, c)
		}
	}
	return out
}

// checkDestroyerMove checks destroyer d of seat s moving its bow through
// path (one or two spaces) and returns the new bow and stern.
func checkDestroyerMove(b *boardMap, s engine.Seat, d int, dd destroyer, path []Cell) (bow, stern Cell, err error) {
	if len(path) < 1 || len(path) > DestroyerSteps {
		return NoCell, NoCell, engine.Illegal("destroyer %d: moves 1-%d spaces, not %d", d, DestroyerSteps, len(path))
	}
	self := Occupant{Kind: DestroyerPiece, Owner: s, Index: d}
	bow, stern = dd.bow, dd.stern
	for _, c := range path {
		ok := false
		for _, n := range destroyerStep(bow, stern) {
			ok = ok || n == c
		}
		if !ok {
			return NoCell, NoCell, engine.Illegal("destroyer %d: %s is not ahead of its bow at %s (destroyers never move backwards)", d, c, bow)
		}
		if b.shallow[c] {
			return NoCell, NoCell, engine.Illegal("destroyer %d: %s is a shallow", d, c)
		}
		switch o := b.occ[c]; o.Kind {
		case HarpoonPiece:
			return NoCell, NoCell, engine.Illegal("destroyer %d: cannot move onto the Harpoon at %s", d, c)
		case CarrierPiece, DestroyerPiece:
			if o != self {
				return NoCell, NoCell, engine.Illegal("destroyer %d: %s holds a ship", d, c)
			}
		}
		bow, stern = c, bow
	}
	for _, c := range []Cell{bow, stern} {
		if o := b.occ[c]; o.Kind == FighterPiece {
			return NoCell, NoCell, engine.Illegal("destroyer %d: cannot end under the fighter at %s", d, c)
		}
		if b.shipNear(c, self) {
			return NoCell, NoCell, engine.Illegal("destroyer %d: must keep a space of open water from other ships at %s", d, c)
		}
	}
	return bow, stern, nil
}

// destroyerOptions lists every legal move of destroyer d of seat s.
func destroyerOptions(b *boardMap, s engine.Seat, d int, dd destroyer) [][]Cell {
	var out [][]Cell
	for _, c1 := range destroyerStep(dd.bow, dd.stern) {
		p1 := []Cell{c1}
		if _, _, err := checkDestroyerMove(b, s, d, dd, p1); err == nil {
			out = append(out, p1)
		}
		for _, c2 := range destroyerStep(c1, dd.bow) {
			p2 := []Cell{c1, c2}
			if _, _, err := checkDestroyerMove(b, s, d, dd, p2); err == nil {
				out = append(out, p2)
			}
		}
	}
	return out
}

// String names the piece kind.
func (k PieceKind) String() string {
	switch k {
	case CarrierPiece:
		return "carrier"
	case DestroyerPiece:
		return "destroyer"
	case FighterPiece:
		return "fighter"
	case HarpoonPiece:
		return "Harpoon"
	}
	return "nothing"
}

// targetCells returns the spaces of target t of seat enemy.
func (g *Game) targetCells(enemy engine.Seat, t Target) ([]Cell, error) {
	sd := &g.sides[enemy]
	switch t.Kind {
	case TargetFighter:
		if t.Index < 0 || t.Index >= FightersPerSide || sd.fighters[t.Index].state != InFlight {
			return nil, engine.Illegal("target: enemy fighter %d is not in flight", t.Index)
		}
		return []Cell{sd.fighters[t.Index].cell}, nil
	case TargetDestroyer:
		if t.Index < 0 || t.Index >= DestroyersPerSide || !sd.destroyers[t.Index].alive {
			return nil, engine.Illegal("target: enemy destroyer %d is not afloat", t.Index)
		}
		return sd.destroyers[t.Index].cells(), nil
	case TargetCarrier:
		if t.Index != 0 {
			return nil, engine.Illegal("target: a carrier has no index")
		}
		return g.carrierSpaces(enemy), nil
	case TargetHarpoon:
		i := g.harpoonIndex(t.Index)
		if i < 0 || g.harpoons[i].owner != enemy {
			return nil, engine.Illegal("target: no enemy Harpoon %d in the water", t.Index)
		}
		return []Cell{g.harpoons[i].cell}, nil
	}
	return nil, engine.Illegal("target: unknown kind %q", t.Kind)
}

// fireDistance checks that destroyer d of seat s can fire at t and returns
// the distance to it: the fewest spaces between the nearest spaces, which
// must be at most FireRange, with a line of fire between a nearest pair that
// crosses no shallow.
func (g *Game) fireDistance(b *boardMap, s engine.Seat, d int, t Target) (int, error) {
	if d < 0 || d >= DestroyersPerSide || !g.sides[s].destroyers[d].alive {
		return 0, engine.Illegal("destroyer %d is not afloat", d)
	}
	cells, err := g.targetCells(other(s), t)
	if err != nil {
		return 0, err
	}
	from := g.sides[s].destroyers[d].cells()
	dist := MinDist(from, cells)
	if dist > FireRange {
		return 0, engine.Illegal("destroyer %d: %s %d is %d spaces away, out of range", d, t.Kind, t.Index, dist)
	}
	blocked := func(c Cell) bool { return b.shallow[c] }
	for _, a := range from {
		for _, c := range cells {
			if Dist(a, c) == dist && LineClear(a, c, blocked) {
				return dist, nil
			}
		}
	}
	return 0, engine.Illegal("destroyer %d: an island blocks the line of fire to %s %d", d, t.Kind, t.Index)
}

// fireTargets lists every target destroyer d of seat s can fire at.
func (g *Game) fireTargets(b *boardMap, s engine.Seat, d int) []Target {
	var cands []Target
	e := other(s)
	for i, f := range g.sides[e].fighters {
		if f.state == InFlight {
			cands = append(cands, Target{Kind: TargetFighter, Index: i})
		}
	}
	for i, dd := range g.sides[e].destroyers {
		if dd.alive {
			cands = append(cands, Target{Kind: TargetDestroyer, Index: i})
		}
	}
	if c := g.sides[e].carrier; c.placed && !c.sunk {
		cands = append(cands, Target{Kind: TargetCarrier})
	}
	for _, h := range g.harpoons {
		if h.owner == e {
			cands = append(cands, Target{Kind: TargetHarpoon, Index: h.id})
		}
	}
	var out []Target
	for _, t := range cands {
		if _, err := g.fireDistance(b, s, d, t); err == nil {
			out = append(out, t)
		}
	}
	return out
}

// String describes a target, such as "fighter 3".
func (t Target) String() string {
	if t.Kind == TargetCarrier {
		return "carrier"
	}
	return fmt.Sprintf("%s %d", t.Kind, t.Index)
}
