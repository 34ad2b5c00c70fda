package sea

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Apply consumes one input. Input that does not fit the current need or
// breaks a rule returns an error wrapping engine.ErrIllegal (or an
// *engine.Fault naming the seat to blame) and leaves the match unchanged.
func (g *Game) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if err := engine.CheckKind(n, in); err != nil {
		return nil, err
	}
	next := g.clone()
	var err error
	switch n.Kind {
	case engine.NeedCommit:
		err = next.applyCommit(n, in)
	case engine.NeedRandom:
		err = next.applyRandom(n, in)
	case engine.NeedMove:
		err = next.applyMoveInput(n, in)
	case engine.NeedOpen:
		err = next.applyOpen(n, in)
	default:
		err = engine.Illegal("unexpected need %s", n.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("sea %s: %w", n.Name, err)
	}
	evs := next.events
	next.events = nil
	*g = *next
	return evs, nil
}

func (g *Game) emit(seat engine.Seat, kind, format string, args ...any) {
	g.events = append(g.events, engine.Eventf(seat, kind, format, args...))
}

func (g *Game) applyCommit(n engine.Need, in engine.Input) error {
	c := in.Commitment
	switch {
	case in.Seat != n.Seat:
		return engine.Illegal("commitment from %s, expected %s", in.Seat, n.Seat)
	case c == nil:
		return engine.Illegal("no commitment")
	case c.Owner != n.Seat || c.Name != n.Name || c.Size != n.Size:
		return engine.Illegal("commitment %s/%s of %d leaves, expected %s/%s of %d", c.Owner, c.Name, c.Size, n.Seat, n.Name, n.Size)
	}
	switch g.phase {
	case phCommit:
		sd := &g.sides[n.Seat]
		sd.committed, sd.root = true, c.Root
		g.emit(n.Seat, "commit", "%s committed its fighters' strengths", n.Seat)
		if n.Seat == 0 {
			g.commitSeat = 1
		} else {
			g.phase = phOrder
		}
	case phLoad:
		f := g.loadQueue[0]
		g.loads = append(g.loads, loadRec{owner: n.Seat, name: c.Name, root: c.Root, fighter: f})
		g.sides[n.Seat].fighters[f].load = len(g.loads) - 1
		g.loadQueue = g.loadQueue[1:]
		g.emit(n.Seat, "load", "%s loaded a missile on fighter %d", n.Seat, f)
		g.enterLoads()
	}
	return nil
}

func (g *Game) applyRandom(n engine.Need, in engine.Input) error {
	if in.Seat != engine.NoSeat {
		return engine.Illegal("a joint roll comes from no seat, not %s", in.Seat)
	}
	if len(in.Random) != n.Count {
		return engine.Illegal("roll %s: %d values, expected %d", n.Name, len(in.Random), n.Count)
	}
	faces := make([]int, len(in.Random))
	for i, v := range in.Random {
		if v < 0 || v >= n.Bound {
			return engine.Illegal("roll %s: value %d outside [0, %d)", n.Name, v, n.Bound)
		}
		faces[i] = v + 1
	}
	g.rolls = append(g.rolls, Roll{Seat: n.Seat, Name: n.Name, Dice: faces})
	if n.Seat != engine.NoSeat {
		g.emit(n.Seat, "roll", "%s rolled %v (%s)", n.Seat, faces, n.Name)
	}
	switch g.phase {
	case phOrder:
		g.rollOrder(faces)
	case phHarpoonRoll:
		g.curRoll, g.phase = faces[0], phHarpoonPath
	case phScrambleRoll:
		g.dice, g.phase = faces, phScramble
	case phFireRoll:
		g.resolveFire(faces[0])
	case phDamageRoll:
		g.rollDamage(faces[0])
	case phDogfightRoll:
		g.rollDogfight(faces)
	case phReroll:
		g.df.dice[g.df.side][g.df.reroll] = faces[0]
		g.nextDogfightSide()
	case phLaunchRoll:
		g.curRoll, g.phase = faces[0], phLaunchPath
	}
	return nil
}

func (g *Game) rollOrder(faces []int) {
	g.emit(engine.NoSeat, "roll", "%s rolled %d, %s rolled %d", engine.Seat(0), faces[0], engine.Seat(1), faces[1])
	if faces[0] == faces[1] {
		g.emit(engine.NoSeat, "tie", "tie: roll again")
		return
	}
	g.first = 0
	if faces[1] < faces[0] {
		g.first = 1
	}
	g.emit(g.first, "first", "%s places first and plays first", g.first)
	g.phase = phPlace
}

// checkOpened checks that got opens exactly the slots in want, each once,
// and returns the values by slot.
func checkOpened(want []engine.Slot, got []engine.Opened) (map[engine.Slot][]byte, error) {
	vals := make(map[engine.Slot][]byte, len(got))
	for _, o := range got {
		if !slices.Contains(want, o.Slot) {
			return nil, engine.Illegal("opened %s, which is not required", o.Slot)
		}
		if _, dup := vals[o.Slot]; dup {
			return nil, engine.Illegal("opened %s twice", o.Slot)
		}
		vals[o.Slot] = o.Value
	}
	for _, w := range want {
		if _, ok := vals[w]; !ok {
			return nil, engine.Illegal("%s must be opened", w)
		}
	}
	return vals, nil
}

// MustOpen lists the slots a move by seat must open: the missile of the
// fighter that launches a Harpoon or uses its Sidewinder.
func (g *Game) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	m, err := DecodeMove(move)
	if err != nil {
		return nil, err
	}
	return g.mustOpen(seat, m)
}

func (g *Game) mustOpen(seat engine.Seat, m Move) ([]engine.Slot, error) {
	if seat != 0 && seat != 1 {
		return nil, engine.Illegal("no such seat %s", seat)
	}
	var f int
	switch m.Kind {
	case KindLaunch:
		f = m.Fighter
	case KindSidewinder:
		if g.phase != phSidewinder || seat != g.dfSeat(g.df.side) {
			return nil, engine.Illegal("%s has no dogfighting fighter to launch a Sidewinder from", seat)
		}
		f = g.df.fighter[g.df.side]
	default:
		return nil, nil
	}
	slot, ok := g.loadSlot(seat, f)
	if !ok {
		return nil, engine.Illegal("fighter %d of %s carries no missile", f, seat)
	}
	return []engine.Slot{slot}, nil
}

// loadSlot returns the slot of the missile fighter f of seat carries.
func (g *Game) loadSlot(seat engine.Seat, f int) (engine.Slot, bool) {
	if f < 0 || f >= FightersPerSide || (seat != 0 && seat != 1) {
		return engine.Slot{}, false
	}
	l := g.sides[seat].fighters[f].load
	if l < 0 {
		return engine.Slot{}, false
	}
	return engine.Slot{Owner: seat, Name: g.loads[l].name, Index: 0}, true
}

func (g *Game) applyMoveInput(n engine.Need, in engine.Input) error {
	if in.Seat != n.Seat {
		return engine.Illegal("move from %s, but %s is to move", in.Seat, n.Seat)
	}
	m, err := DecodeMove(in.Move)
	if err != nil {
		return err
	}
	want, err := g.mustOpen(in.Seat, m)
	if err != nil {
		return err
	}
	vals, err := checkOpened(want, in.Opened)
	if err != nil {
		return err
	}
	return g.applyMove(in.Seat, m, vals)
}

// moveFields names a Move's optional fields in the order expectKind checks
// them, and kindFields the ones each kind may set. They are tables, built
// once: expectKind runs for every move, an audit's included.
var (
	moveFields = [...]string{"piece", "cell", "facing", "harpoon", "path", "fighters", "flights", "destroyer", "target", "fighter", "use", "die"}
	kindFields = map[string][]string{
		KindPlace:      {"piece", "cell", "facing"},
		KindHarpoon:    {"harpoon"},
		KindPath:       {"path"},
		KindReturn:     {"fighters"},
		KindScramble:   {"flights"},
		KindMove:       {"destroyer", "path"},
		KindFire:       {"destroyer", "target"},
		KindDone:       {},
		KindRemove:     {"fighters"},
		KindFighter:    {"fighter"},
		KindSidewinder: {"use", "die"},
		KindLaunch:     {"fighter"},
	}
)

// fieldsSet reports, in moveFields' order, which optional fields m sets.
func (m Move) fieldsSet() [len(moveFields)]bool {
	return [...]bool{m.Piece != "", m.Cell != nil, m.Facing != nil, m.Harpoon != 0,
		len(m.Path) > 0, len(m.Fighters) > 0, len(m.Flights) > 0,
		m.Destroyer != 0, m.Target != nil, m.Fighter != 0, m.Use != "", m.Die != 0}
}

// expectKind checks that m is one of kinds and sets no field other kinds use.
func expectKind(m Move, kinds ...string) error {
	if !slices.Contains(kinds, m.Kind) {
		return engine.Illegal("move kind %q, expected one of %v", m.Kind, kinds)
	}
	allowed := kindFields[m.Kind]
	for i, set := range m.fieldsSet() {
		if set && !slices.Contains(allowed, moveFields[i]) {
			return engine.Illegal("a %q move has no %q", m.Kind, moveFields[i])
		}
	}
	return nil
}

func (g *Game) applyMove(seat engine.Seat, m Move, vals map[engine.Slot][]byte) error {
	switch g.phase {
	case phPlace:
		return g.applyPlace(seat, m)
	case phHarpoonPick:
		return g.applyHarpoonPick(m)
	case phHarpoonPath:
		return g.applyHarpoonPath(m)
	case phReturn:
		return g.applyReturn(m)
	case phScramble:
		return g.applyScramble(m)
	case phDestroyer:
		return g.applyDestroyer(m)
	case phDefense:
		return g.applyDefense(m)
	case phDamageChoose:
		return g.applyDamageChoice(m)
	case phDefend, phAttack:
		return g.applyDogfightChoice(m)
	case phSidewinder:
		return g.applySidewinder(m, vals)
	case phLaunch:
		return g.applyLaunch(m, vals)
	case phLaunchPath:
		return g.applyLaunchPath(m)
	}
	return engine.Illegal("no move expected now")
}

func (g *Game) applyPlace(seat engine.Seat, m Move) error {
	if err := expectKind(m, KindPlace); err != nil {
		return err
	}
	_, piece := g.placer()
	if m.Piece != piece {
		return engine.Illegal("place your %s now, not a %q", piece, m.Piece)
	}
	if m.Cell == nil {
		return engine.Illegal("placement without a cell")
	}
	facing := North
	if piece != PieceShallow {
		if m.Facing == nil {
			return engine.Illegal("a %s needs a facing", piece)
		}
		facing = *m.Facing
	} else if m.Facing != nil {
		return engine.Illegal("a shallow has no facing")
	}
	if err := g.checkPlacement(g.board(), seat, piece, *m.Cell, facing); err != nil {
		return err
	}
	g.place(seat, piece, *m.Cell, facing)
	g.emit(seat, "place", "%s placed its %s at %s", seat, piece, *m.Cell)
	g.placements++
	if g.placements == 2*len(PlacementOrder) {
		g.startTurn(g.first)
	}
	return nil
}

func (g *Game) applyOpen(n engine.Need, in engine.Input) error {
	if in.Seat != n.Seat {
		return engine.Illegal("opening from %s, expected %s", in.Seat, n.Seat)
	}
	vals, err := checkOpened(n.Open, in.Opened)
	if err != nil {
		return err
	}
	switch g.phase {
	case phOpenDefender, phOpenAttacker:
		side := 0
		if g.phase == phOpenAttacker {
			side = 1
		}
		return g.openDogfighter(side, vals[n.Open[0]])
	case phReveal:
		return g.applyReveal(n, vals)
	}
	return engine.Illegal("no opening expected now")
}
