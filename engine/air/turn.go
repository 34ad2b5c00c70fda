package air

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// The actions of a Move.
const (
	// ActMove flies the active plane by its card's maneuver (its own move on
	// a disruption card); the black dice follow.
	ActMove = "move"
	// ActWingman uses a wingman card's power: the plane goes to the empty
	// space To next to its partner (no looping) and takes its partner's
	// heading (house).
	ActWingman = "wingman"
	// ActDisrupt flies the opposing plane Target by the disruption card's
	// opponent maneuver (relative to that plane's heading); the black dice
	// follow.
	ActDisrupt = "disrupt"
	// ActFire fires Weapon ("missile" or "cannon") at the opposing plane
	// Target in the cone of fire; the red dice follow.
	ActFire = "fire"
	// ActEnd ends the turn without firing, once the plane has moved (and
	// disrupted, on a disruption card).
	ActEnd = "end"
	// ActBonus answers the F-35's option after its move roll: Bonus true
	// adds one space (text).
	ActBonus = "bonus"
)

// Move is a decision of the seat whose plane acts (engine.EncodeMove it).
// Only the fields of its action may be set.
type Move struct {
	Action string `json:"action"`
	Weapon string `json:"weapon,omitempty"`
	Target *int   `json:"target,omitempty"`
	To     *Pos   `json:"to,omitempty"`
	Bonus  bool   `json:"bonus,omitempty"`
}

// Encode returns the move's wire form.
func (m Move) Encode() []byte { return engine.MustEncodeMove(m) }

// String describes the move for logs.
func (m Move) String() string { return string(m.Encode()) }

func intp(v int) *int { return &v }

// FireMove builds a shot with weapon w at plane target.
func FireMove(w Weapon, target int) Move {
	return Move{Action: ActFire, Weapon: w.String(), Target: intp(target)}
}

// DisruptMove builds a disruption of plane target.
func DisruptMove(target int) Move { return Move{Action: ActDisrupt, Target: intp(target)} }

// WingmanMove builds a wingman move to space to.
func WingmanMove(to Pos) Move { return Move{Action: ActWingman, To: &to} }

// PlainMove builds ActMove or ActEnd.
func PlainMove(action string) Move { return Move{Action: action} }

// BonusMove builds the F-35's answer.
func BonusMove(take bool) Move { return Move{Action: ActBonus, Bonus: take} }

func parseWeapon(s string) (Weapon, bool) {
	switch s {
	case "missile":
		return Missile, true
	case "cannon":
		return Cannon, true
	}
	return 0, false
}

// nextTurn moves to the next chosen card in turn order, skipping planes shot
// down since, and ends the round after the last.
func (g *Game) nextTurn(ev *events) {
	for {
		if g.outcome.Done {
			return
		}
		g.ts.index++
		if g.ts.index >= len(g.order) {
			g.endRound(ev)
			return
		}
		p := g.order[g.ts.index]
		card, _ := CardByNumber(p.Number)
		if g.planes[p.Plane].Down {
			g.discard = append(g.discard, p)
			continue
		}
		g.ts = turnState{index: g.ts.index, plane: p.Plane, card: card, disrupted: card.Kind != Disruption}
		g.pend = pending{}
		ev.add(g.planes[p.Plane].Seat, "turn", "%s flies with %s", g.planes[p.Plane].Name(), card)
		if g.settleTurn(ev) {
			return
		}
	}
}

// settleTurn ends the turn when nothing is left to decide; it reports
// whether the turn goes on (a need is waiting).
func (g *Game) settleTurn(ev *events) bool {
	if g.outcome.Done {
		return true
	}
	if g.pend.kind != pendNone {
		return true
	}
	t := &g.ts
	pl := &g.planes[t.plane]
	if !pl.Down && !(t.moved && t.disrupted && (t.fired || t.ended || !g.canFire())) {
		return true
	}
	g.discard = append(g.discard, g.order[t.index])
	return false
}

// afterAction ends the turn if it is done and then runs on to the next.
func (g *Game) afterAction(ev *events) {
	if !g.settleTurn(ev) {
		g.nextTurn(ev)
	}
}

func (g *Game) actor() engine.Seat { return g.planes[g.ts.plane].Seat }

func (g *Game) rollName(what string) string {
	return fmt.Sprintf("r%d/t%d/%s", g.round, g.ts.index+1, what)
}

// turnNeed is the need while a plane acts.
func (g *Game) turnNeed() engine.Need {
	seat := g.actor()
	pl := g.planes[g.ts.plane]
	roll := func(what string, count int, prompt string) engine.Need {
		return engine.Need{Kind: engine.NeedRandom, Seat: seat, Seats: g.flyingSeats(), Name: g.rollName(what),
			Count: count, Bound: 6, Prompt: prompt}
	}
	p := g.pend
	switch p.kind {
	case pendMove:
		return roll("move", p.dice, fmt.Sprintf("%d black dice to move the %s", p.dice, pl.Name()))
	case pendDisrupt:
		return roll("disrupt", p.dice, fmt.Sprintf("%d black dice to move the %s", p.dice, g.planes[p.plane].Name()))
	case pendFire:
		return roll("fire", p.weapon.Dice(), fmt.Sprintf("%d red dice: %s fire at the %s, %d spaces", p.weapon.Dice(), p.weapon, g.planes[p.plane].Name(), p.dist))
	case pendDamage:
		return roll("damage", DamageDice, fmt.Sprintf("%d black dice: damage to the %s", DamageDice, g.planes[p.plane].Name()))
	case pendCollide:
		what := "collide/move"
		if !p.own {
			what = "collide/disrupt"
		}
		return roll(what, 2*DamageDice, fmt.Sprintf("%d black dice: damage to the %s, then to the %s", 2*DamageDice, g.planes[p.plane].Name(), g.planes[p.other].Name()))
	case pendBonus:
		return engine.Need{Kind: engine.NeedMove, Seat: seat, Prompt: fmt.Sprintf("rolled %d: add one space to the F-35's move?", p.total)}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: seat, Prompt: fmt.Sprintf("%s: move, fire or end the turn", pl.Name())}
}

// occupant returns the plane on space p other than except, or -1.
func (g *Game) occupant(p Pos, except int) int {
	for _, o := range g.planes {
		if !o.Down && o.ID != except && o.Pos == p {
			return o.ID
		}
	}
	return -1
}

// canFire reports whether the active plane has any legal shot.
func (g *Game) canFire() bool {
	pl := g.planes[g.ts.plane]
	for _, t := range g.planes {
		if t.Down || !g.opposes(pl.Seat, t.Seat) {
			continue
		}
		if InCone(pl.Pos, pl.Heading, t.Pos, Cannon) || (pl.Missiles > 0 && InCone(pl.Pos, pl.Heading, t.Pos, Missile)) {
			return true
		}
	}
	return false
}

// checkMove says why a move is not legal now, or returns nil.
func (g *Game) checkMove(m Move) error {
	t := g.ts
	pl := g.planes[t.plane]
	extra := func(weapon, target, to, bonus bool) error {
		switch {
		case !weapon && m.Weapon != "":
			return engine.Illegal("%s: no weapon may be given", m.Action)
		case !target && m.Target != nil:
			return engine.Illegal("%s: no target may be given", m.Action)
		case !to && m.To != nil:
			return engine.Illegal("%s: no space may be given", m.Action)
		case !bonus && m.Bonus:
			return engine.Illegal("%s: bonus is only for the F-35's move", m.Action)
		}
		return nil
	}
	if g.pend.kind == pendBonus {
		if m.Action != ActBonus {
			return engine.Illegal("the F-35's move waits for its +1 decision, not %q", m.Action)
		}
		return extra(false, false, false, true)
	}
	opposing := func() (Plane, error) {
		if m.Target == nil {
			return Plane{}, engine.Illegal("%s: no target", m.Action)
		}
		id := *m.Target
		if id < 0 || id >= len(g.planes) {
			return Plane{}, engine.Illegal("%s: no plane %d", m.Action, id)
		}
		tp := g.planes[id]
		if tp.Down {
			return Plane{}, engine.Illegal("%s: the %s was shot down", m.Action, tp.Name())
		}
		if !g.opposes(pl.Seat, tp.Seat) {
			return Plane{}, engine.Illegal("%s: the %s is not an opposing plane", m.Action, tp.Name())
		}
		return tp, nil
	}
	switch m.Action {
	case ActMove:
		if t.moved {
			return engine.Illegal("the %s has already moved this turn", pl.Name())
		}
		return extra(false, false, false, false)
	case ActWingman:
		if err := extra(false, false, true, false); err != nil {
			return err
		}
		if t.card.Kind != Wingman {
			return engine.Illegal("card #%d is not a wingman card", t.card.Number)
		}
		if t.moved {
			return engine.Illegal("the %s has already moved this turn", pl.Name())
		}
		mate := g.planes[t.plane^1]
		if mate.Down {
			return engine.Illegal("no wingman move: the %s was shot down", mate.Name())
		}
		if m.To == nil {
			return engine.Illegal("wingman: no space given")
		}
		to := *m.To
		if !to.OnBoard() {
			return engine.Illegal("wingman: space %+v is off the board", to)
		}
		if !Adjacent(to, mate.Pos) {
			return engine.Illegal("wingman: %s is not next to the %s at %s (no looping)", to, mate.Name(), mate.Pos)
		}
		if o := g.occupant(to, t.plane); o >= 0 {
			return engine.Illegal("wingman: %s is occupied by the %s", to, g.planes[o].Name())
		}
		return nil
	case ActDisrupt:
		if err := extra(false, true, false, false); err != nil {
			return err
		}
		if t.card.Kind != Disruption {
			return engine.Illegal("card #%d is not a disruption card", t.card.Number)
		}
		if t.disrupted {
			return engine.Illegal("the disruption move was already made this turn")
		}
		_, err := opposing()
		return err
	case ActFire:
		if err := extra(true, true, false, false); err != nil {
			return err
		}
		if t.fired {
			return engine.Illegal("the %s has already fired this turn", pl.Name())
		}
		w, ok := parseWeapon(m.Weapon)
		if !ok {
			return engine.Illegal("fire: unknown weapon %q (want missile or cannon)", m.Weapon)
		}
		tp, err := opposing()
		if err != nil {
			return err
		}
		if w == Missile && pl.Missiles == 0 {
			return engine.Illegal("fire: the %s has no missile left", pl.Name())
		}
		if !InCone(pl.Pos, pl.Heading, tp.Pos, w) {
			if w == Cannon && InCone(pl.Pos, pl.Heading, tp.Pos, Missile) {
				return engine.Illegal("fire: the %s at %s is in the missile cone of the %s at %s facing %s but not on a cannon line", tp.Name(), tp.Pos, pl.Name(), pl.Pos, pl.Heading)
			}
			return engine.Illegal("fire: the %s at %s is out of the cone of fire of the %s at %s facing %s", tp.Name(), tp.Pos, pl.Name(), pl.Pos, pl.Heading)
		}
		return nil
	case ActEnd:
		if err := extra(false, false, false, false); err != nil {
			return err
		}
		if !t.moved {
			return engine.Illegal("the %s must move before the turn ends", pl.Name())
		}
		if !t.disrupted {
			return engine.Illegal("the disruption move must be made before the turn ends")
		}
		return nil
	case ActBonus:
		return engine.Illegal("no F-35 move is waiting for its +1 decision")
	}
	return engine.Illegal("unknown action %q", m.Action)
}

func (g *Game) applyMove(ev *events, need engine.Need, in engine.Input) error {
	if in.Seat != need.Seat {
		return engine.Illegal("it is %s's turn, not %s's", need.Seat, in.Seat)
	}
	if len(in.Opened) != 0 {
		return engine.Illegal("an Air move opens no slot, got %d", len(in.Opened))
	}
	var m Move
	if err := engine.DecodeMove(in.Move, &m); err != nil {
		return err
	}
	if err := g.checkMove(m); err != nil {
		return err
	}
	t := &g.ts
	pl := &g.planes[t.plane]
	switch m.Action {
	case ActBonus:
		total := g.pend.total
		if m.Bonus {
			total++
		}
		g.pend = pending{}
		ev.add(pl.Seat, "bonus", "the F-35 flies %d spaces", total)
		g.fly(ev, t.plane, t.card.Own.Turn, total, true)
	case ActMove:
		t.moved = true
		g.pend = pending{kind: pendMove, plane: t.plane, turn: t.card.Own.Turn, dice: t.card.Own.Dice, own: true}
		ev.add(pl.Seat, "maneuver", "the %s: %s", pl.Name(), t.card.Own)
	case ActWingman:
		t.moved = true
		mate := g.planes[t.plane^1]
		pl.Pos = *m.To
		pl.Heading = mate.Heading
		ev.add(pl.Seat, "wingman", "the %s joins its wingman at %s, heading %s", pl.Name(), pl.Pos, pl.Heading)
	case ActDisrupt:
		t.disrupted = true
		g.pend = pending{kind: pendDisrupt, plane: *m.Target, turn: t.card.Opp.Turn, dice: t.card.Opp.Dice}
		ev.add(pl.Seat, "disrupt", "the %s disrupts the %s: %s", pl.Name(), g.planes[*m.Target].Name(), t.card.Opp)
	case ActFire:
		t.fired = true
		w, _ := parseWeapon(m.Weapon)
		tp := g.planes[*m.Target]
		if w == Missile {
			pl.Missiles--
		}
		g.pend = pending{kind: pendFire, plane: tp.ID, weapon: w, dist: Distance(pl.Pos, tp.Pos)}
		ev.add(pl.Seat, "fire", "the %s fires %s at the %s, %d spaces away", pl.Name(), w, tp.Name(), g.pend.dist)
	case ActEnd:
		t.ended = true
		ev.add(pl.Seat, "end", "the %s holds its fire", pl.Name())
	}
	g.afterAction(ev)
	return nil
}

// fly moves plane id by a maneuver of total spaces: it turns, flies the full
// distance looping off the edges, and then, if it ends on another plane,
// goes on to the next empty space (text). With collisions (maximum damage)
// it stops before the first plane in its path instead and both planes roll
// for damage.
func (g *Game) fly(ev *events, id int, turn Turn, total int, own bool) {
	pl := &g.planes[id]
	pl.Heading = pl.Heading.Turned(turn)
	from := pl.Pos
	looped := false
	for range total {
		next := Step(pl.Pos, pl.Heading)
		if g.collide {
			if o := g.occupant(next, id); o >= 0 {
				ev.add(pl.Seat, "collide", "the %s collides with the %s and stops at %s", pl.Name(), g.planes[o].Name(), pl.Pos)
				g.pend = pending{kind: pendCollide, plane: id, other: o, own: own}
				return
			}
		}
		if Distance(pl.Pos, next) > 1 {
			looped = true
		}
		pl.Pos = next
	}
	for !g.collide && g.occupant(pl.Pos, id) >= 0 {
		next := Step(pl.Pos, pl.Heading)
		if Distance(pl.Pos, next) > 1 {
			looped = true
		}
		pl.Pos = next
	}
	loop := ""
	if looped {
		loop = ", looping"
	}
	ev.add(pl.Seat, "flight", "the %s flies from %s to %s heading %s%s", pl.Name(), from, pl.Pos, pl.Heading, loop)
}

func sumFaces(vals []int, faces [6]int) int {
	s := 0
	for _, v := range vals {
		s += faces[v]
	}
	return s
}

func (g *Game) applyRandom(ev *events, need engine.Need, in engine.Input) error {
	if in.Seat != engine.NoSeat {
		return engine.Illegal("a roll is joint: input seat must be %s, got %s", engine.NoSeat, in.Seat)
	}
	if len(in.Random) != need.Count {
		return engine.Illegal("roll %q: %d values, want %d", need.Name, len(in.Random), need.Count)
	}
	for i, v := range in.Random {
		if v < 0 || v >= need.Bound {
			return engine.Illegal("roll %q: value %d is %d, want 0..%d", need.Name, i, v, need.Bound-1)
		}
	}
	p := g.pend
	g.pend = pending{}
	seat := g.actor()
	switch p.kind {
	case pendMove:
		total := sumFaces(in.Random, BlackFaces)
		ev.add(seat, "roll", "black dice %v: %d", faces(in.Random, BlackFaces), total)
		if g.planes[p.plane].Kind == F35 {
			g.pend = pending{kind: pendBonus, plane: p.plane, turn: p.turn, total: total, own: true}
			return nil
		}
		g.fly(ev, p.plane, p.turn, total, true)
	case pendDisrupt:
		total := sumFaces(in.Random, BlackFaces)
		ev.add(seat, "roll", "black dice %v: %d", faces(in.Random, BlackFaces), total)
		g.fly(ev, p.plane, p.turn, total, false)
	case pendFire:
		sum := sumFaces(in.Random, RedFaces)
		if sum >= p.dist {
			ev.add(seat, "hit", "red dice %v: %d reaches %d spaces: a hit on the %s", faces(in.Random, RedFaces), sum, p.dist, g.planes[p.plane].Name())
			g.pend = pending{kind: pendDamage, plane: p.plane}
		} else {
			ev.add(seat, "miss", "red dice %v: %d falls short of %d spaces: a miss", faces(in.Random, RedFaces), sum, p.dist)
		}
	case pendDamage:
		g.damage(ev, p.plane, in.Random)
	case pendCollide:
		g.damage(ev, p.plane, in.Random[:DamageDice])
		g.damage(ev, p.other, in.Random[DamageDice:])
	default:
		return engine.Illegal("no roll is awaited")
	}
	g.checkOutcome(ev)
	g.afterAction(ev)
	return nil
}

func faces(vals []int, f [6]int) []int {
	out := make([]int, len(vals))
	for i, v := range vals {
		out[i] = f[v]
	}
	return out
}

// damage marks the squadron board of plane id from four black dice.
func (g *Game) damage(ev *events, id int, dice []int) {
	pl := &g.planes[id]
	if pl.Down {
		return
	}
	sum := sumFaces(dice, BlackFaces)
	loc := DamageChart(sum)
	pl.Damage[loc]++
	ev.add(pl.Seat, "damage", "black dice %v: %d, the %s is hit in the %s (%d)", faces(dice, BlackFaces), sum, pl.Name(), loc, pl.Damage[loc])
	if pl.Damage[loc] < ShotDownAt(pl.Kind, loc) {
		return
	}
	pl.Down = true
	pl.Missiles = 0
	ev.add(pl.Seat, "down", "the %s is shot down", pl.Name())
	seat := int(pl.Seat)
	if !g.seatAlive(seat) {
		g.outOfPlay += len(g.hands[seat])
		g.hands[seat] = nil
		ev.add(pl.Seat, "out", "%s squadron is out", Squadron[seat])
	}
}
