package sea

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Read-only accessors for a board view and for bots. They never change the
// match and return copies.

// Turn returns the number of the turn in progress (from 1; 0 during setup).
func (g *Game) Turn() int { return g.turn }

// Active returns the seat whose turn it is (NoSeat during setup).
func (g *Game) Active() engine.Seat { return g.active }

// Step returns the step of the turn in progress, 1-6 (0 outside turns):
// 1 move Harpoons, 2 scramble, 3 move or fire destroyers, 4 the opponent's
// defensive fire, 5 dogfights, 6 launch Harpoons.
func (g *Game) Step() int { return g.step }

// First returns the seat that placed first and plays first (NoSeat until
// the order roll).
func (g *Game) First() engine.Seat { return g.first }

// Shallow reports whether c is a shallow (with its island).
func (g *Game) Shallow(c Cell) bool { return c.Valid() && g.board().shallow[c] }

// Shallows returns the top-left spaces of seat s's placed shallows; each
// covers ShallowSize x ShallowSize spaces and carries an island.
func (g *Game) Shallows(s engine.Seat) []Cell {
	var out []Cell
	for _, c := range g.sides[s].shallows {
		if c != NoCell {
			out = append(out, c)
		}
	}
	return out
}

// OccupantAt returns the piece on c (Kind Empty if none).
func (g *Game) OccupantAt(c Cell) Occupant {
	if !c.Valid() {
		return Occupant{}
	}
	return g.board().occ[c]
}

// CarrierView is a carrier as the table shows it.
type CarrierView struct {
	Placed  bool
	Cells   []Cell // bow first; nil until placed or once sunk
	Bow     Cell
	Facing  Dir
	Launch  Cell // the space in front of the bow where fighters take off
	Damaged bool // the Admiral Card shows the damaged side
	Sunk    bool
}

// Carrier returns seat s's carrier.
func (g *Game) Carrier(s engine.Seat) CarrierView {
	c := g.sides[s].carrier
	v := CarrierView{Placed: c.placed, Bow: c.bow, Facing: c.facing, Launch: g.launchSpace(s), Damaged: c.damaged, Sunk: c.sunk}
	if c.placed {
		cells, _ := carrierCells(c.bow, c.facing)
		v.Cells = cells[:]
	}
	return v
}

// DestroyerView is a destroyer as the table shows it.
type DestroyerView struct {
	Index  int
	Placed bool
	Afloat bool
	Bow    Cell
	Stern  Cell
	Facing Dir  // from stern to bow
	Acted  bool // moved or fired in step 3 of this turn
	Fired  bool // fired in step 4 of this turn
}

// Destroyers returns seat s's destroyers, sunk ones included.
func (g *Game) Destroyers(s engine.Seat) []DestroyerView {
	out := make([]DestroyerView, 0, DestroyersPerSide)
	for i, d := range g.sides[s].destroyers {
		v := DestroyerView{Index: i, Placed: d.placed, Afloat: d.alive, Bow: d.bow, Stern: d.stern, Acted: d.acted, Fired: d.fired}
		if f, ok := DirTo(d.stern, d.bow); ok {
			v.Facing = f
		}
		out = append(out, v)
	}
	return out
}

// FighterView is a fighter as a viewer sees it.
type FighterView struct {
	Owner    engine.Seat
	Index    int
	State    FighterState
	Cell     Cell // in flight only, else NoCell
	Strength int  // 0 when the viewer does not know it
	Public   bool // the strength has been revealed to both players
	Armed    bool // carries a missile (its kind may be unknown to the viewer)
	Missile  Missile
	LoadSlot engine.Slot // the slot of the missile it carries, when Armed
	Returned bool        // returned to the deck this turn
}

// Fighters returns seat s's eight fighters as seen by a viewer holding sec
// (the owner's secrets reveal strengths and missiles; nil or another seat's
// secrets show only what is public).
func (g *Game) Fighters(s engine.Seat, sec engine.Secrets) []FighterView {
	out := make([]FighterView, 0, FightersPerSide)
	for i, f := range g.sides[s].fighters {
		v := FighterView{Owner: s, Index: i, State: f.state, Cell: f.cell, Strength: f.strength, Public: f.strength != 0,
			Armed: f.load >= 0, Returned: f.returned}
		if f.state != InFlight {
			v.Cell = NoCell
		}
		if v.Strength == 0 && sec != nil {
			if b, ok := sec.Value(StrengthSlot(s, i)); ok {
				if st, err := DecodeStrength(b); err == nil {
					v.Strength = st
				}
			}
		}
		if f.load >= 0 {
			v.LoadSlot, _ = g.loadSlot(s, i)
			if sec != nil {
				if b, ok := sec.Value(v.LoadSlot); ok {
					v.Missile, _ = DecodeMissile(b)
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// HarpoonView is a Harpoon in the water.
type HarpoonView struct {
	ID    int
	Owner engine.Seat
	Cell  Cell
}

// Harpoons returns every Harpoon in the water, in launch order.
func (g *Game) Harpoons() []HarpoonView {
	out := make([]HarpoonView, 0, len(g.harpoons))
	for _, h := range g.harpoons {
		out = append(out, HarpoonView{ID: h.id, Owner: h.owner, Cell: h.cell})
	}
	return out
}

// AdmiralView is a player's Admiral Card: the carrier's damage and the
// planes on its deck.
type AdmiralView struct {
	Damaged bool
	Sunk    bool
	Deck    []int // fighters on the deck, by index
}

// Admiral returns seat s's Admiral Card.
func (g *Game) Admiral(s engine.Seat) AdmiralView {
	c := g.sides[s].carrier
	return AdmiralView{Damaged: c.damaged, Sunk: c.sunk, Deck: g.deck(s)}
}

// Rolls returns every roll of the turn in progress, in order (the setup
// rolls before the first turn).
func (g *Game) Rolls() []Roll {
	out := make([]Roll, len(g.rolls))
	for i, r := range g.rolls {
		out[i] = Roll{Seat: r.Seat, Name: r.Name, Dice: slices.Clone(r.Dice)}
	}
	return out
}

// ScrambleRoll returns the scramble dice while the scramble move is awaited.
func (g *Game) ScrambleRoll() []int {
	if g.phase != phScramble {
		return nil
	}
	return slices.Clone(g.dice)
}

// PathRequest describes a Harpoon path being awaited: where the Harpoon
// starts, how far it may go, and whether it is a launch (which must end on
// an empty space when it hits nothing).
type PathRequest struct {
	Owner   engine.Seat
	From    Cell
	Steps   int
	Launch  bool
	Harpoon int // the Harpoon's ID when it is already in the water
	Fighter int // the launching fighter when Launch
}

// PendingPath returns the Harpoon path being awaited, if any.
func (g *Game) PendingPath() (PathRequest, bool) {
	switch g.phase {
	case phHarpoonPath:
		h := g.harpoons[g.harpoonIndex(g.curHarpoon)]
		return PathRequest{Owner: g.active, From: h.cell, Steps: g.curRoll, Harpoon: h.id, Fighter: -1}, true
	case phLaunchPath:
		return PathRequest{Owner: g.active, From: g.sides[g.active].fighters[g.launching].cell, Steps: g.curRoll,
			Launch: true, Fighter: g.launching}, true
	}
	return PathRequest{}, false
}

// PendingHarpoons returns the IDs of the Harpoons still to move in step 1.
func (g *Game) PendingHarpoons() []int { return slices.Clone(g.toMove) }

// PendingLoad returns the fighter whose missile is being committed (the
// NeedCommit "load/<n>"), if any.
func (g *Game) PendingLoad() (int, bool) {
	if g.phase != phLoad {
		return -1, false
	}
	return g.loadQueue[0], true
}

// PendingDamage returns the owner of the struck carrier and how many deck
// fighters it must remove, while that choice is awaited.
func (g *Game) PendingDamage() (engine.Seat, int, bool) {
	if g.phase != phDamageChoose {
		return engine.NoSeat, 0, false
	}
	return g.damage.owner, g.damage.count, true
}

// FireView is a destroyer's shot in progress.
type FireView struct {
	Seat      engine.Seat
	Destroyer int
	Target    Target
	Distance  int // the roll must be greater
}

// PendingFire returns the shot awaiting its roll, if any.
func (g *Game) PendingFire() (FireView, bool) {
	if g.phase != phFireRoll {
		return FireView{}, false
	}
	f := g.fire
	return FireView{Seat: f.seat, Destroyer: f.destroyer, Target: f.target, Distance: f.dist}, true
}

// DogfightView is the dogfight in progress. Index 0 is the defender, 1 the
// attacker; a fighter is -1 until chosen, dice are nil until rolled.
type DogfightView struct {
	Seats    [2]engine.Seat
	Fighters [2]int
	Dice     [2][]int
	Bonus    [2]int // a Sidewinder's +1
	Rolling  int    // the side rolling or deciding now
}

// Dogfight returns the dogfight in progress, if any.
func (g *Game) Dogfight() (DogfightView, bool) {
	if g.step != 5 || g.phase < phDefend || g.phase > phReroll {
		return DogfightView{}, false
	}
	v := DogfightView{Seats: [2]engine.Seat{other(g.active), g.active}, Fighters: g.df.fighter, Bonus: g.df.bonus, Rolling: g.df.side}
	for i := range v.Dice {
		v.Dice[i] = slices.Clone(g.df.dice[i])
	}
	return v, true
}

// DogfightCandidates returns the fighters that may be chosen for the
// dogfight choice awaited (defender's or attacker's).
func (g *Game) DogfightCandidates() []int {
	switch g.phase {
	case phDefend:
		return g.defenderCandidates()
	case phAttack:
		return g.attackerCandidates(g.df.fighter[0])
	}
	return nil
}

// Destination is where a piece can go and one shortest path there.
type Destination struct {
	Cell Cell
	Path []Cell
	Hit  bool // a Harpoon path ending in an enemy ship
}

// FighterDestinations lists where fighter f of seat s can stop with a die
// of steps, after the flights planned earlier in the same scramble (which
// are applied to the board first, unchecked). A fighter on deck takes off
// through its carrier's launch space. A fighter's own space is not listed
// (flying out and back is legal but moves nothing).
func (g *Game) FighterDestinations(s engine.Seat, f, steps int, planned []Flight) []Destination {
	if f < 0 || f >= FightersPerSide || (s != 0 && s != 1) {
		return nil
	}
	b := g.board()
	ff := g.sides[s].fighters[f]
	for _, p := range planned {
		if p.Fighter < 0 || p.Fighter >= FightersPerSide || len(p.Path) == 0 || !p.Path[len(p.Path)-1].Valid() {
			continue
		}
		pf := g.sides[s].fighters[p.Fighter]
		if pf.state == InFlight {
			b.occ[pf.cell] = Occupant{}
		}
		b.occ[p.Path[len(p.Path)-1]] = Occupant{Kind: FighterPiece, Owner: s, Index: p.Fighter}
		if p.Fighter == f {
			return nil
		}
	}
	var r *reach
	switch {
	case ff.state == InFlight:
		r = fighterReach(b, s, ff.cell, false, steps)
	case ff.state == OnDeck && !ff.returned:
		r = fighterReach(b, s, g.launchSpace(s), true, steps)
	default:
		return nil
	}
	var out []Destination
	for c := Cell(0); c < NumCells; c++ {
		if r.dist[c] > 0 && b.empty(c) {
			out = append(out, Destination{Cell: c, Path: r.path(c)})
		}
	}
	return out
}

// HarpoonDestinations lists where the Harpoon of the pending path (see
// PendingPath) can go: enemy ships it can hit and, for a launch, the empty
// spaces it can stop on (for a move in step 1, every space it can reach,
// since it is removed anyway unless it hits).
func (g *Game) HarpoonDestinations() []Destination {
	p, ok := g.PendingPath()
	if !ok {
		return nil
	}
	return g.HarpoonRange(p.Owner, p.From, p.Steps, p.Launch)
}

// HarpoonRange lists where a Harpoon of seat s starting on from could go in
// at most steps spaces (for previews before a roll): the enemy ships it
// could hit and the spaces it could reach (only empty ones when launch).
func (g *Game) HarpoonRange(s engine.Seat, from Cell, steps int, launch bool) []Destination {
	if !from.Valid() || (s != 0 && s != 1) {
		return nil
	}
	b := g.board()
	r := harpoonReach(b, s, from, steps)
	var out []Destination
	for c := Cell(0); c < NumCells; c++ {
		if r.dist[c] <= 0 {
			continue
		}
		hit := b.isShip(c)
		if hit || !launch || b.empty(c) {
			out = append(out, Destination{Cell: c, Path: r.path(c), Hit: hit})
		}
	}
	return out
}

// DestroyerMoves lists every legal move of seat s's destroyer d, each as the
// bow spaces it passes through.
func (g *Game) DestroyerMoves(s engine.Seat, d int) [][]Cell {
	if d < 0 || d >= DestroyersPerSide || (s != 0 && s != 1) || !g.sides[s].destroyers[d].alive {
		return nil
	}
	return destroyerOptions(g.board(), s, d, g.sides[s].destroyers[d])
}

// FireTarget is a target a destroyer can fire at and the distance to it;
// the roll must be greater than Distance.
type FireTarget struct {
	Target   Target
	Distance int
}

// FireTargets lists every target seat s's destroyer d can fire at.
func (g *Game) FireTargets(s engine.Seat, d int) []FireTarget {
	if d < 0 || d >= DestroyersPerSide || (s != 0 && s != 1) || !g.sides[s].destroyers[d].alive {
		return nil
	}
	b := g.board()
	var out []FireTarget
	for _, t := range g.fireTargets(b, s, d) {
		dist, _ := g.fireDistance(b, s, d, t)
		out = append(out, FireTarget{Target: t, Distance: dist})
	}
	return out
}

// PlacementOptions lists every legal placement move for the placement
// awaited (nil outside placement).
func (g *Game) PlacementOptions() []Move {
	if g.phase != phPlace {
		return nil
	}
	s, piece := g.placer()
	return g.placementOptions(s, piece)
}

// Placing returns the seat and the piece of the placement awaited.
func (g *Game) Placing() (engine.Seat, Piece, bool) {
	if g.phase != phPlace {
		return engine.NoSeat, "", false
	}
	s, p := g.placer()
	return s, p, true
}

// LineOfFire reports whether the line between the centres of a and b is
// clear of shallows.
func (g *Game) LineOfFire(a, b Cell) bool {
	if !a.Valid() || !b.Valid() {
		return false
	}
	bm := g.board()
	return LineClear(a, b, func(c Cell) bool { return bm.shallow[c] })
}
