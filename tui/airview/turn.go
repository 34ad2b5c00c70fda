package airview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/keys"
)

// legal lists the moves the rules allow now (none unless the referee
// waits for one).
func (v *View) legal() []air.Move {
	if v.life.Req == nil || v.game() == nil {
		return nil
	}
	if v.legalFor != v.life.Req {
		// The request's game never changes: list its moves once.
		v.legalFor, v.legalMoves = v.life.Req, v.game().LegalMoves()
	}
	return v.legalMoves
}

// isLegal reports whether m is among ms.
func isLegal(ms []air.Move, m air.Move) bool {
	s := m.String()
	return slices.ContainsFunc(ms, func(l air.Move) bool { return l.String() == s })
}

// isBonus reports whether the legal moves are the F-35's +1 decision.
func isBonus(ms []air.Move) bool { return len(ms) > 0 && ms[0].Action == air.ActBonus }

// startTurn sets a decision of a turn up: the weapon (one that can hit
// something, the missile first), the target and the cursor.
func (v *View) startTurn() {
	g := v.game()
	t, ok := g.Active()
	if !ok {
		return
	}
	pl, _ := g.PlaneByID(t.Plane)
	legal := v.legal()
	hits := func(w air.Weapon) bool {
		return slices.ContainsFunc(legal, func(m air.Move) bool { return m.Action == air.ActFire && m.Weapon == w.String() })
	}
	switch {
	case pl.Missiles == 0:
		v.weapon = air.Cannon
	case !hits(v.weapon) && hits(otherWeapon(v.weapon)):
		v.weapon = otherWeapon(v.weapon)
	}
	v.tgt = -1
	v.pickTarget(true)
	v.cur = pl.Pos
	if ws := v.wingmanSpaces(); len(ws) > 0 {
		v.cur = ws[0]
	}
}

func otherWeapon(w air.Weapon) air.Weapon {
	if w == air.Missile {
		return air.Cannon
	}
	return air.Missile
}

// targets lists the opposing planes flying: those the weapon can hit
// first, then by distance from the acting plane.
func (v *View) targets() []air.Plane {
	g := v.game()
	t, ok := g.Active()
	if !ok {
		return nil
	}
	me, _ := g.PlaneByID(t.Plane)
	legal := v.legal()
	var out []air.Plane
	for _, p := range flying(g, engine.NoSeat) {
		if g.Opposes(me.Seat, p.Seat) {
			out = append(out, p)
		}
	}
	rank := func(p air.Plane) int {
		r := air.Distance(me.Pos, p.Pos)
		if !isLegal(legal, air.FireMove(v.weapon, p.ID)) {
			r += 100
		}
		return r
	}
	slices.SortStableFunc(out, func(a, b air.Plane) int { return rank(a) - rank(b) })
	return out
}

// pickTarget offers the best target unless the player picked one that is
// still flying (or fresh asks for a new one).
func (v *View) pickTarget(fresh bool) {
	ts := v.targets()
	if !fresh && slices.ContainsFunc(ts, func(p air.Plane) bool { return p.ID == v.tgt }) {
		return
	}
	v.tgt = -1
	if len(ts) > 0 {
		v.tgt = ts[0].ID
	}
}

// cycleTarget picks the next (d = 1) or previous opposing plane.
func (v *View) cycleTarget(d int) {
	ts := v.targets()
	if len(ts) == 0 {
		v.life.Msg = "no opposing plane is flying"
		return
	}
	slices.SortFunc(ts, func(a, b air.Plane) int { return a.ID - b.ID })
	i := slices.IndexFunc(ts, func(p air.Plane) bool { return p.ID == v.tgt })
	if i < 0 {
		i = 0
		if d < 0 {
			i = 1
		}
	}
	v.tgt = ts[(i+d+len(ts))%len(ts)].ID
}

// wingmanSpaces lists the spaces the wingman move can reach now.
func (v *View) wingmanSpaces() []air.Pos {
	var out []air.Pos
	for _, m := range v.legal() {
		if m.Action == air.ActWingman && m.To != nil {
			out = append(out, *m.To)
		}
	}
	return out
}

// moveCursor moves the board cursor (rows grow upward, so up is +1).
func (v *View) moveCursor(dx, dy int) {
	v.cur.X = (v.cur.X + dx + air.Columns) % air.Columns
	v.cur.Y = (v.cur.Y + dy + air.Rows) % air.Rows
}

// act sends a move of the turn; a refusal says why in the prompt.
func (v *View) act(m air.Move) {
	if v.life.Req == nil {
		return
	}
	if m.Target != nil && *m.Target < 0 {
		v.life.Msg = "no target selected (tab picks one)"
		return
	}
	v.reply(engine.Decision{Move: m.Encode()})
}

// hitChance is the chance that n red dice reach dist, in percent.
func hitChance(n, dist int) int {
	total, hit := 0, 0
	var roll func(k, sum int)
	roll = func(k, sum int) {
		if k == n {
			total++
			if sum >= dist {
				hit++
			}
			return
		}
		for _, f := range air.RedFaces {
			roll(k+1, sum+f)
		}
	}
	roll(0, 0)
	return (100*hit + total/2) / total
}

// fireText describes the selected shot, such as "missile at the Fire F-22,
// 3 spaces (67%)".
func (v *View) fireText(me air.Plane) string {
	tp, ok := v.game().PlaneByID(v.tgt)
	if !ok {
		return ""
	}
	d := air.Distance(me.Pos, tp.Pos)
	return fmt.Sprintf("%s at %s (%d sp, %d%%)", v.weapon, tp.Name(), d, hitChance(v.weapon.Dice(), d))
}

// turnPrompt says what the acting plane can do now.
func (v *View) turnPrompt() string {
	if v.wing {
		return v.wingPrompt()
	}
	g := v.game()
	t, ok := g.Active()
	if !ok {
		return ""
	}
	me, _ := g.PlaneByID(t.Plane)
	legal := v.legal()
	var can []string
	if isLegal(legal, air.PlainMove(air.ActMove)) {
		can = append(can, "m fly "+maneuverText(t.Card.Own))
	}
	if n := len(v.wingmanSpaces()); n > 0 {
		can = append(can, fmt.Sprintf("j wingman (%d +)", n))
	}
	if v.tgt >= 0 && isLegal(legal, air.FireMove(v.weapon, v.tgt)) {
		can = append(can, "f "+v.fireText(me))
	} else if slices.ContainsFunc(legal, func(m air.Move) bool { return m.Action == air.ActFire }) {
		can = append(can, "tab/w: a target in range")
	}
	if v.tgt >= 0 && isLegal(legal, air.DisruptMove(v.tgt)) {
		tp, _ := g.PlaneByID(v.tgt)
		can = append(can, fmt.Sprintf("d disrupt %s %s", tp.Name(), maneuverText(t.Card.Opp)))
	}
	if isLegal(legal, air.PlainMove(air.ActEnd)) {
		can = append(can, "e end turn")
	}
	return fmt.Sprintf("%s with #%d: %s", me.Name(), t.Card.Number, strings.Join(can, " · "))
}

// turnBindings are the keys of a turn; those the rules do not allow now are
// hidden from the bar but still answer with the reason.
func (v *View) turnBindings() []keys.Binding {
	if v.wing {
		return v.wingBindings()
	}
	legal := v.legal()
	has := func(action string) bool {
		return slices.ContainsFunc(legal, func(m air.Move) bool { return m.Action == action })
	}
	fire := air.FireMove(v.weapon, v.tgt)
	bs := []keys.Binding{
		{Keys: []keys.Key{keys.R('m')}, Label: "m", Hint: "fly", Hidden: !has(air.ActMove),
			Help: "fly the card's maneuver (the black dice say how far)", Run: func() { v.act(air.PlainMove(air.ActMove)) }},
		{Keys: []keys.Key{keys.R('f')}, Label: "f", Hint: "fire", Hidden: !isLegal(legal, fire),
			Help: "fire the selected weapon at the selected target (the red dice must reach its distance)", Run: func() { v.act(fire) }},
		{Keys: keys.Tab, Label: "tab", Hint: "target", Help: "select the next opposing plane as the target", Run: func() { v.cycleTarget(1) }},
		{Keys: keys.Backtab, Label: "shift-tab", Hint: "target", Hidden: true, Help: "select the previous opposing plane", Run: func() { v.cycleTarget(-1) }},
		{Keys: []keys.Key{keys.R('d')}, Label: "d", Hint: "disrupt", Hidden: !has(air.ActDisrupt),
			Help: "move the target by the disruption card's opponent maneuver", Run: func() { v.act(air.DisruptMove(v.tgt)) }},
		{Keys: []keys.Key{keys.R('j')}, Label: "j", Hint: "wingman", Hidden: !has(air.ActWingman),
			Help: "the wingman move: pick one of the marked spaces next to its partner (the plane takes its partner's heading)", Run: v.startWing},
		{Keys: []keys.Key{keys.R('e')}, Label: "e", Hint: "end turn", Hidden: !has(air.ActEnd),
			Help: "hold fire and end the turn", Run: func() { v.act(air.PlainMove(air.ActEnd)) }},
	}
	return append(bs, v.cursorBindings(!has(air.ActWingman))...)
}

// bonusPrompt says where the F-35 lands with and without its +1.
func (v *View) bonusPrompt() string {
	g := v.game()
	t, ok := g.Active()
	if !ok {
		return ""
	}
	land := func(take bool) string {
		c := g.Clone().(*air.Game)
		if _, err := c.Apply(engine.Input{Kind: engine.NeedMove, Seat: v.seat(), Move: air.BonusMove(take).Encode()}); err != nil {
			return "?"
		}
		p, _ := c.PlaneByID(t.Plane)
		return p.Pos.String()
	}
	return fmt.Sprintf("%s: y takes the +1 (lands at %s), n refuses it (lands at %s)", strings.TrimSuffix(v.life.Req.Need.Prompt, "?"), land(true), land(false))
}

// bonusBindings are the keys of the F-35's +1.
func (v *View) bonusBindings() []keys.Binding {
	return []keys.Binding{
		{Keys: []keys.Key{keys.R('y')}, Label: "y", Hint: "+1", Help: "the F-35 flies one space more", Run: func() { v.act(air.BonusMove(true)) }},
		{Keys: []keys.Key{keys.R('n')}, Label: "n", Hint: "no +1", Help: "the F-35 flies what the dice rolled", Run: func() { v.act(air.BonusMove(false)) }},
	}
}
