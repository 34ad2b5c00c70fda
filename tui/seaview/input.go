package seaview

import (
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
)

// click handles a click at screen position x, y.
func (v *View) click(x, y int, right bool) {
	if row, ok := v.geo.rowAt(x, y); ok {
		v.clickRow(row, right)
		return
	}
	c, ok := v.geo.cellAt(x, y)
	if !ok || v.g == nil {
		return
	}
	v.cur = c
	if right {
		v.alternate()
		return
	}
	v.enter()
}

// enter acts on the space under the cursor, as the mode understands it.
func (v *View) enter() {
	switch v.mode {
	case mPlace:
		v.pl.place(v)
	case mHarpoonPick:
		v.choosePicked()
	case mPath:
		v.path.send(v)
	case mReturn:
		v.ret.toggleAt(v, v.cur)
	case mScramble:
		v.scr.enter(v)
	case mDestroyers:
		v.ds.enter(v)
	case mDogfighter:
		v.choosePicked()
	case mLaunch:
		v.choosePicked()
	}
}

// alternate is the right click: turn, or the next option.
func (v *View) alternate() {
	switch v.mode {
	case mPlace:
		v.pl.turn(v, 1)
	case mDestroyers:
		v.ds.nextWay(v)
	}
}

// clickRow handles a click on a row of the side pane.
func (v *View) clickRow(r paneRow, right bool) {
	switch v.mode {
	case mStrengths:
		if r.kind == rowFighter {
			v.str.sel = r.index
			if right {
				v.str.bump(-1)
			} else {
				v.str.bump(1)
			}
		}
	case mScramble:
		switch r.kind {
		case rowDie:
			v.scr.chooseDie(v, r.index)
		case rowFighter:
			v.scr.chooseFighter(v, r.index)
		}
	case mDamage:
		if r.kind == rowFighter {
			v.dmg.toggle(r.index)
		}
	case mDestroyers:
		if r.kind == rowTarget {
			v.ds.aimAt(v, r.index)
		}
	case mSidewinder:
		if r.kind == rowDie {
			v.sidewinder(sea.SidewinderReroll(r.index))
		}
	case mLoad:
		if r.kind == rowMissile {
			v.load(sea.Missile(r.index))
		}
	}
}

// move moves the cursor by (dc, dr), staying on the board.
func (v *View) move(dc, dr int) {
	c := sea.At(min(max(v.cur.Col()+dc, 0), sea.Cols-1), min(max(v.cur.Row()+dr, 0), sea.Rows-1))
	if c != sea.NoCell {
		v.cur = c
	}
}

// arrowBindings returns the arrow keys moving the cursor through move,
// which takes the column first.
func arrowBindings(hint, help string, move func(dc, dr int)) []keys.Binding {
	return keys.Arrows(hint, help, func(dr, dc int) { move(dc, dr) })
}

// bind is a shorthand for a binding.
func bind(ks []keys.Key, label, hint, help string, run func()) keys.Binding {
	return keys.Binding{Keys: ks, Label: label, Hint: hint, Help: help, Run: run}
}

// runes returns the keys typing each of rs.
func runes(rs ...rune) []keys.Key {
	out := make([]keys.Key, len(rs))
	for i, r := range rs {
		out[i] = keys.R(r)
	}
	return out
}
