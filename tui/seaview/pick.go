package seaview

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
)

// picking is a choice among pieces on the board: the Harpoon that moves
// next, the fighter that dogfights, the fighter that launches. Tab puts
// the cursor on the next candidate; Enter (or a click) chooses the one
// under the cursor.
type picking struct {
	items []int // Harpoon IDs or fighter indices
	sel   int
}

// start takes the candidates and puts the cursor on the first.
func (p *picking) start(v *View, items []int) {
	p.items, p.sel = items, 0
	if len(items) > 0 {
		if c := v.itemCell(items[0]); c.Valid() {
			v.cur = c
		}
	}
}

// next puts the cursor on the next (d=1) or previous candidate.
func (p *picking) next(v *View, d int) {
	if len(p.items) == 0 {
		return
	}
	if i := slices.Index(p.items, v.itemAt(v.cur)); i >= 0 {
		p.sel = i
	}
	p.sel = (p.sel + d + len(p.items)) % len(p.items)
	if c := v.itemCell(p.items[p.sel]); c.Valid() {
		v.cur = c
	}
}

// itemCell returns where candidate item stands.
func (v *View) itemCell(item int) sea.Cell {
	if v.mode == mHarpoonPick {
		for _, h := range v.g.Harpoons() {
			if h.ID == item {
				return h.Cell
			}
		}
		return sea.NoCell
	}
	fs := v.fighters(v.seat())
	if item < 0 || item >= len(fs) {
		return sea.NoCell
	}
	return fs[item].Cell
}

// itemAt returns the candidate on space c, or -1.
func (v *View) itemAt(c sea.Cell) int {
	for _, it := range v.pick.items {
		if v.itemCell(it) == c {
			return it
		}
	}
	return -1
}

// choosePicked sends the choice of the candidate under the cursor.
func (v *View) choosePicked() {
	it := v.itemAt(v.cur)
	if it < 0 {
		v.life.Msg = "the cursor is not on a " + v.pickNoun() + ": tab puts it on one"
		return
	}
	switch v.mode {
	case mHarpoonPick:
		v.replyMove(sea.HarpoonMove(it))
	case mDogfighter:
		v.replyMove(sea.FighterMove(it))
	case mLaunch:
		v.replyMove(sea.LaunchMove(it))
	}
}

// pickNoun names what is being picked.
func (v *View) pickNoun() string {
	switch v.mode {
	case mHarpoonPick:
		return "Harpoon of yours still to move"
	case mLaunch:
		return "fighter of yours carrying a Harpoon"
	}
	return "fighter that can dogfight"
}

// pickOverlay marks the candidates.
func (v *View) pickOverlay(out map[sea.Cell]look) {
	for _, it := range v.pick.items {
		if c := v.itemCell(it); c.Valid() {
			lk := v.base(c)
			lk.st = lk.st.Underline(true).Bold(true)
			out[c] = lk
		}
	}
	if v.mode == mDogfighter {
		if df, ok := v.g.Dogfight(); ok && df.Fighters[0] >= 0 && df.Seats[0] != v.seat() {
			if c := v.fighters(df.Seats[0])[df.Fighters[0]].Cell; c.Valid() {
				out[c] = look{gTarget, v.th.Hit}
			}
		}
	}
}

// rangeOverlay shows where a Harpoon from c could go with a 6.
func (v *View) rangeOverlay(out map[sea.Cell]look, c sea.Cell, launch bool) {
	if !c.Valid() {
		return
	}
	for _, d := range v.g.HarpoonRange(v.seat(), c, sea.DieFaces, launch) {
		if _, taken := out[d.Cell]; !taken && (d.Hit || v.at(d.Cell).Kind == sea.Empty) {
			out[d.Cell] = v.reachLook(d)
		}
	}
}

// harpoonChoices lists the Harpoons still to move in step 1.
func (v *View) harpoonChoices() []int { return v.g.PendingHarpoons() }

func (v *View) harpoonPickOverlay(out map[sea.Cell]look) {
	v.pickOverlay(out)
	if v.itemAt(v.cur) >= 0 {
		v.rangeOverlay(out, v.cur, false)
	}
}

func (v *View) harpoonPickPrompt() string {
	return fmt.Sprintf("Step 1: which of your %s moves first? (%s: a 6's reach)", count(len(v.pick.items), "Harpoon"), gReach)
}

func (v *View) harpoonPickBindings() []keys.Binding {
	return append(arrowBindings("cursor", "move the cursor", v.move),
		bind(keys.Tab, "tab", "next Harpoon", "put the cursor on your next Harpoon to move", func() { v.pick.next(v, 1) }),
		keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous", Hidden: true, Help: "put the cursor on the previous Harpoon", Run: func() { v.pick.next(v, -1) }},
		bind(keys.Enter, "enter", "move it", "roll for the Harpoon under the cursor and move it (a click on it too)", v.choosePicked),
	)
}

// launchChoices lists your fighters in flight that carry a Harpoon.
func (v *View) launchChoices() []int {
	var out []int
	for _, f := range v.fighters(v.seat()) {
		if f.State == sea.InFlight && f.Armed && f.Missile == sea.Harpoon {
			out = append(out, f.Index)
		}
	}
	return out
}

func (v *View) launchOverlay(out map[sea.Cell]look) {
	v.pickOverlay(out)
	if v.itemAt(v.cur) >= 0 {
		v.rangeOverlay(out, v.cur, true)
	}
}

func (v *View) launchPrompt() string {
	if len(v.pick.items) == 0 {
		return "Step 6: no fighter in flight carries a Harpoon — d ends your turn"
	}
	return fmt.Sprintf("Step 6: %s can launch a Harpoon — enter launches the one at the cursor", count(len(v.pick.items), "fighter"))
}

func (v *View) launchBindings() []keys.Binding {
	return append(arrowBindings("cursor", "move the cursor", v.move),
		bind(keys.Tab, "tab", "next fighter", "put the cursor on your next fighter carrying a Harpoon", func() { v.pick.next(v, 1) }),
		keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous", Hidden: true, Help: "put the cursor on the previous fighter", Run: func() { v.pick.next(v, -1) }},
		bind(keys.Enter, "enter", "launch", "launch the Harpoon of the fighter under the cursor (a click on it too); a die says how far it goes", v.choosePicked),
		bind(runes('d'), "d", "end turn", "launch no more Harpoons: your turn ends", func() { v.replyMove(sea.DoneMove()) }),
	)
}

func (v *View) dogfighterPrompt() string {
	df, _ := v.g.Dogfight()
	if v.life.Req != nil && v.life.Req.Need.Name == sea.NeedAttacker && df.Fighters[0] >= 0 {
		f := v.fighters(df.Seats[0])[df.Fighters[0]]
		return fmt.Sprintf("Dogfight: choose your fighter to attack %s's fighter %d (strength %d)",
			v.life.Snap.Name(df.Seats[0]), f.Index, f.Strength)
	}
	return fmt.Sprintf("Dogfight: you defend — which of your fighters %s fights first?", ints(v.pick.items))
}

func (v *View) dogfighterBindings() []keys.Binding {
	return append(arrowBindings("cursor", "move the cursor", v.move),
		bind(keys.Tab, "tab", "next fighter", "put the cursor on your next fighter that can dogfight", func() { v.pick.next(v, 1) }),
		keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous", Hidden: true, Help: "put the cursor on the previous fighter", Run: func() { v.pick.next(v, -1) }},
		bind(keys.Enter, "enter", "choose", "this fighter dogfights: its strength is revealed (a click on it too)", v.choosePicked),
	)
}
