package seaview

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// destroying is step 3 (each destroyer moves or fires once) or step 4
// (defensive fire: each may fire once).
type destroying struct {
	defense bool
	d       int // selected destroyer, -1 for none
	way     int // which of the moves ending on the cursor's space
	tsel    int // target cycled to with t
	msel    int // move cycled to with m
}

func (s *destroying) start(v *View, defense bool) {
	s.defense, s.d, s.way, s.tsel, s.msel = defense, -1, 0, -1, -1
	cs := s.candidates(v)
	for _, d := range cs {
		s.d = d
		if len(s.targets(v)) > 0 || len(s.moves(v)) > 0 {
			break // the first that can act
		}
	}
	if len(cs) > 0 {
		s.choose(v, s.d)
	}
}

// candidates lists your destroyers that may still act in this step.
func (s *destroying) candidates(v *View) []int {
	var out []int
	for _, d := range v.fr().destroyers[v.seat()] {
		if d.Afloat && (s.defense && !d.Fired || !s.defense && !d.Acted) {
			out = append(out, d.Index)
		}
	}
	return out
}

// choose selects destroyer d and puts the cursor on its first target, or
// on its bow.
func (s *destroying) choose(v *View, d int) {
	s.d, s.way, s.tsel, s.msel = d, 0, -1, -1
	v.cur = v.fr().destroyers[v.seat()][d].Bow
	if ts := s.targets(v); len(ts) > 0 {
		s.tsel = 0
		v.cur = s.aimCell(v, ts[0].Target)
	}
}

// targets lists what the selected destroyer can fire at.
func (s *destroying) targets(v *View) []sea.FireTarget {
	if s.d < 0 {
		return nil
	}
	return v.g.FireTargets(v.seat(), s.d)
}

// moves lists the selected destroyer's moves (none in defensive fire).
func (s *destroying) moves(v *View) [][]sea.Cell {
	if s.d < 0 || s.defense {
		return nil
	}
	ms := v.g.DestroyerMoves(v.seat(), s.d)
	slices.SortStableFunc(ms, func(a, b []sea.Cell) int { return v.toFoe(a[len(a)-1]) - v.toFoe(b[len(b)-1]) })
	return ms
}

// waysTo lists the moves whose bow ends on c.
func (s *destroying) waysTo(v *View, c sea.Cell) [][]sea.Cell {
	var out [][]sea.Cell
	for _, m := range s.moves(v) {
		if m[len(m)-1] == c {
			out = append(out, m)
		}
	}
	return out
}

// targetCells returns the spaces target t of the enemy occupies.
func (v *View) targetCells(t sea.Target) []sea.Cell {
	foe := v.foe()
	switch t.Kind {
	case sea.TargetFighter:
		return []sea.Cell{v.g.Fighters(foe, nil)[t.Index].Cell}
	case sea.TargetDestroyer:
		d := v.fr().destroyers[foe][t.Index]
		return []sea.Cell{d.Bow, d.Stern}
	case sea.TargetCarrier:
		return v.fr().carriers[foe].Cells
	case sea.TargetHarpoon:
		for _, h := range v.g.Harpoons() {
			if h.ID == t.Index {
				return []sea.Cell{h.Cell}
			}
		}
	}
	return nil
}

// aimCell returns the target's space nearest the selected destroyer.
func (s *destroying) aimCell(v *View, t sea.Target) sea.Cell {
	cells := v.targetCells(t)
	if len(cells) == 0 {
		return v.cur
	}
	d := v.fr().destroyers[v.seat()][s.d]
	best := cells[0]
	for _, c := range cells {
		if sea.MinDist([]sea.Cell{d.Bow, d.Stern}, []sea.Cell{c}) < sea.MinDist([]sea.Cell{d.Bow, d.Stern}, []sea.Cell{best}) {
			best = c
		}
	}
	return best
}

// targetAt returns the target on space c.
func (s *destroying) targetAt(v *View, c sea.Cell) (sea.FireTarget, bool) {
	for _, t := range s.targets(v) {
		if slices.Contains(v.targetCells(t.Target), c) {
			return t, true
		}
	}
	return sea.FireTarget{}, false
}

// enter: select your destroyer under the cursor, fire at the target under
// it, or move there; otherwise say why not.
func (s *destroying) enter(v *View) {
	c := v.cur
	if o := v.at(c); o.Kind == sea.DestroyerPiece && o.Owner == v.seat() && o.Index != s.d {
		if !slices.Contains(s.candidates(v), o.Index) {
			v.life.Msg = fmt.Sprintf("destroyer %d has already acted this turn", o.Index)
			return
		}
		s.choose(v, o.Index)
		return
	}
	if s.d < 0 {
		v.life.Msg = "no destroyer selected: tab picks one"
		return
	}
	if t, ok := s.targetAt(v, c); ok {
		v.replyMove(sea.FireMove(s.d, t.Target))
		return
	}
	if ways := s.waysTo(v, c); len(ways) > 0 {
		v.replyMove(sea.DestroyerMove(s.d, ways[s.way%len(ways)]))
		return
	}
	v.life.Msg = s.whyNot(v, c)
}

// whyNot explains why the selected destroyer can do nothing at c.
func (s *destroying) whyNot(v *View, c sea.Cell) string {
	d := v.fr().destroyers[v.seat()][s.d]
	o := v.at(c)
	if o.Kind != sea.Empty && o.Owner == v.foe() {
		dist := sea.MinDist([]sea.Cell{d.Bow, d.Stern}, []sea.Cell{c})
		if dist > sea.FireRange {
			return fmt.Sprintf("%s is %d spaces away: out of range (a die must beat the distance)", v.occupantName(c), dist)
		}
		for _, a := range []sea.Cell{d.Bow, d.Stern} {
			if sea.Dist(a, c) == dist && !v.g.LineOfFire(a, c) {
				return fmt.Sprintf("an island blocks the line of fire from %s to %s", a, c)
			}
		}
		return fmt.Sprintf("destroyer %d cannot fire at %s", s.d, v.occupantName(c))
	}
	if s.defense {
		return "in defensive fire a destroyer only fires: put the cursor on a target"
	}
	return fmt.Sprintf("destroyer %d cannot move there: 1-2 spaces ahead of its bow (straight or 45°), off shallows and Harpoons, a space of water from other ships", s.d)
}

// nextTarget puts the cursor on the next target.
func (s *destroying) nextTarget(v *View) {
	ts := s.targets(v)
	if len(ts) == 0 {
		v.life.Msg = "nothing in range of this destroyer"
		return
	}
	s.tsel = (s.tsel + 1) % len(ts)
	v.cur = s.aimCell(v, ts[s.tsel].Target)
}

// aimAt puts the cursor on target i of the list.
func (s *destroying) aimAt(v *View, i int) {
	if ts := s.targets(v); i >= 0 && i < len(ts) {
		s.tsel = i
		v.cur = s.aimCell(v, ts[i].Target)
	}
}

// nextMove puts the cursor on the next move's bow.
func (s *destroying) nextMove(v *View) {
	ms := s.moves(v)
	if len(ms) == 0 {
		v.life.Msg = "this destroyer cannot move"
		return
	}
	s.msel = (s.msel + 1) % len(ms)
	m := ms[s.msel]
	v.cur = m[len(m)-1]
	s.way = slices.IndexFunc(s.waysTo(v, v.cur), func(w []sea.Cell) bool { return slices.Equal(w, m) })
}

// nextWay takes the next of several moves ending on the cursor's space.
func (s *destroying) nextWay(v *View) {
	if n := len(s.waysTo(v, v.cur)); n > 1 {
		s.way = (s.way + 1) % n
	}
}

// cycle selects the next destroyer that may act.
func (s *destroying) cycle(v *View) {
	cs := s.candidates(v)
	if len(cs) == 0 {
		return
	}
	i := slices.Index(cs, s.d)
	s.choose(v, cs[(i+1)%len(cs)])
}

func (s *destroying) prompt(v *View) string {
	if s.d < 0 {
		return "Your destroyers: d goes on"
	}
	if s.defense {
		return fmt.Sprintf("Defensive fire: destroyer %d, %s — enter fires at the target under the cursor", s.d, count(len(s.targets(v)), "target"))
	}
	return fmt.Sprintf("Step 3: destroyer %d moves to a %s or fires at a target — enter acts at the cursor", s.d, gReach)
}

// overlay marks the selected destroyer's moves and targets, the ship
// where the cursor's move would leave it, and the line of fire to the
// target under the cursor.
func (s *destroying) overlay(v *View, out map[sea.Cell]look) {
	th := v.th
	if s.d < 0 {
		return
	}
	d := v.fr().destroyers[v.seat()][s.d]
	for _, c := range []sea.Cell{d.Bow, d.Stern} {
		lk := v.base(c)
		lk.st = lk.st.Underline(true)
		out[c] = lk
	}
	for _, m := range s.moves(v) {
		out[m[len(m)-1]] = look{gReach, th.Ghost}
	}
	for _, t := range s.targets(v) {
		for _, c := range v.targetCells(t.Target) {
			lk := v.base(c)
			lk.st = th.Mark.Underline(true)
			out[c] = lk
		}
	}
	if ways := s.waysTo(v, v.cur); len(ways) > 0 {
		w := ways[s.way%len(ways)]
		bow := w[len(w)-1]
		stern := d.Bow
		if len(w) == 2 {
			stern = w[0]
		}
		f, _ := sea.DirTo(stern, bow)
		out[bow] = look{bowGlyph(false, true, f), th.Ghost}
		out[stern] = look{gOwnHull, th.Ghost}
		return
	}
	if t, ok := s.targetAt(v, v.cur); ok {
		for _, a := range []sea.Cell{d.Bow, d.Stern} {
			if sea.Dist(a, v.cur) == t.Distance && v.g.LineOfFire(a, v.cur) {
				for _, c := range lineCells(a, v.cur) {
					if _, taken := out[c]; !taken || v.at(c).Kind == sea.Empty {
						out[c] = look{gPath, th.Mark}
					}
				}
				break
			}
		}
	}
}

// lineCells returns the spaces the straight line between the centres of a
// and b passes through, a and b left out (sampled finely, for drawing).
func lineCells(a, b sea.Cell) []sea.Cell {
	ax, ay := float64(a.Col())+0.5, float64(a.Row())+0.5
	bx, by := float64(b.Col())+0.5, float64(b.Row())+0.5
	n := 16 * (sea.Dist(a, b) + 1)
	var out []sea.Cell
	for k := 1; k < n; k++ {
		t := float64(k) / float64(n)
		c := sea.At(int(ax+(bx-ax)*t), int(ay+(by-ay)*t))
		if c != sea.NoCell && c != a && c != b && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// draw lists the selected destroyer's targets with the roll each needs.
func (s *destroying) draw(v *View, p *pane) {
	th := v.th
	title := "Destroyers"
	if s.defense {
		title = "Defensive fire"
	}
	p.line(style.S(title, th.Accent))
	if s.d < 0 {
		return
	}
	d := v.fr().destroyers[v.seat()][s.d]
	p.line(style.S(fmt.Sprintf("destroyer %d, bow %s %s", s.d, d.Bow, bowGlyph(false, true, d.Facing)), th.Base))
	ts := s.targets(v)
	if len(ts) == 0 {
		p.text("no target in range", th.Dim)
	}
	for i, t := range ts {
		ptr, st := " ", th.Base
		if i == s.tsel {
			ptr, st = gPointer, th.Selected
		}
		need := t.Distance + 1
		p.clickable(paneRow{rowTarget, i}, style.S(ptr, th.Accent),
			style.S(fmt.Sprintf("%s · %d away · %d+ (%d%%)", shortTarget(t.Target), t.Distance, need, (200*(sea.DieFaces-t.Distance)+sea.DieFaces)/(2*sea.DieFaces)), st))
	}
	if !s.defense {
		p.text(fmt.Sprintf("%s (%s)", count(len(s.moves(v)), "move"), gReach), th.Dim)
	}
}

// shortTarget names a target in a few letters.
func shortTarget(t sea.Target) string {
	switch t.Kind {
	case sea.TargetCarrier:
		return "carrier"
	case sea.TargetHarpoon:
		return fmt.Sprintf("Harpoon %d", t.Index)
	case sea.TargetDestroyer:
		return fmt.Sprintf("destroyer %d", t.Index)
	}
	return fmt.Sprintf("fighter %d", t.Index)
}

func (v *View) destroyerBindings() []keys.Binding {
	s := &v.ds
	bs := append(arrowBindings("aim", "move the cursor: a move's result or the line of fire is drawn", v.move),
		bind(keys.Enter, "enter", "act", "fire at the target under the cursor, move there, or select your destroyer under it (a click too)", func() { s.enter(v) }),
		bind(runes('t'), "t", "target", "put the cursor on the next target in range (a click on the list too)", func() { s.nextTarget(v) }),
	)
	if !s.defense {
		bs = append(bs, bind(runes('m'), "m", "move", "put the cursor on the next place the destroyer can move to, nearest the enemy carrier first", func() { s.nextMove(v) }),
			bind(runes('r'), "r", "other way", "when two moves end on the cursor's space, take the other (right click too)", func() { s.nextWay(v) }))
	}
	hint := "done"
	if s.defense {
		hint = "hold fire"
	}
	return append(bs,
		bind(keys.Tab, "tab", "destroyer", "select your other destroyer", func() { s.cycle(v) }),
		bind(runes('d'), "d", hint, "your destroyers that have not acted stay as they are this step", func() { v.replyMove(sea.DoneMove()) }),
	)
}
