package seaview

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// Sidewinders: after its dogfight roll, a fighter carrying a missile may
// launch its Sidewinder to add one to its best die or to roll one die
// again. The engine asks whenever the fighter carries a missile (only its
// owner knows which).

// dogfightMine returns the dogfight, your side's index and your fighter.
func (v *View) dogfightMine() (sea.DogfightView, int, sea.FighterView, bool) {
	df, ok := v.g.Dogfight()
	if !ok {
		return df, 0, sea.FighterView{}, false
	}
	side := df.Rolling
	if df.Seats[side] != v.seat() || df.Fighters[side] < 0 {
		return df, side, sea.FighterView{}, false
	}
	return df, side, v.fighters(v.seat())[df.Fighters[side]], true
}

// score is a side's best die plus its bonus.
func score(df sea.DogfightView, side int) int {
	if len(df.Dice[side]) == 0 {
		return 0
	}
	return slices.Max(df.Dice[side]) + df.Bonus[side]
}

func (v *View) sidewinderPrompt() string {
	df, side, f, ok := v.dogfightMine()
	if !ok {
		return "Sidewinder? enter goes on"
	}
	if f.Missile != sea.Sidewinder {
		return fmt.Sprintf("Dogfight: your fighter %d carries a %s, not a Sidewinder — enter goes on", f.Index, f.Missile)
	}
	vs := ""
	if side == 1 {
		vs = fmt.Sprintf(" against %d", score(df, 0))
	}
	return fmt.Sprintf("Dogfight: your dice %s make %d%s — Sidewinder: + adds one, 1-%d re-rolls a die",
		dice(df.Dice[side]), score(df, side), vs, len(df.Dice[side]))
}

// sidewinder sends a Sidewinder use (or a refusal's reason).
func (v *View) sidewinder(m sea.Move) {
	if _, _, f, ok := v.dogfightMine(); ok && f.Missile != sea.Sidewinder {
		v.life.Msg = fmt.Sprintf("fighter %d carries a %s: there is no Sidewinder to launch", f.Index, f.Missile)
		return
	}
	v.replyMove(m)
}

func (v *View) sidewinderBindings() []keys.Binding {
	bs := []keys.Binding{
		bind(append(runes('k'), keys.Enter...), "enter", "keep", "do not launch the Sidewinder (it stays loaded); the dogfight goes on", func() { v.replyMove(sea.DoneMove()) }),
		bind(runes('+', '='), "+", "add one", "launch the Sidewinder: your best die counts one more", func() { v.sidewinder(sea.SidewinderPlus()) }),
	}
	df, side, _, _ := v.dogfightMine()
	for i := range df.Dice[side] {
		bs = append(bs, keys.Binding{Keys: runes(rune('1' + i)), Label: fmt.Sprintf("1-%d", len(df.Dice[side])), Hint: "re-roll", Hidden: i > 0,
			Help: "launch the Sidewinder: roll that die (in the order shown) again (a click on it too)", Run: func() { v.sidewinder(sea.SidewinderReroll(i)) }})
	}
	return bs
}

// drawSidewinder lists your dice, clickable to re-roll.
func (v *View) drawSidewinder(p *pane) {
	th := v.th
	df, side, _, ok := v.dogfightMine()
	if !ok {
		return
	}
	v.drawDogfight(p, df)
	for i, f := range df.Dice[side] {
		p.clickable(paneRow{rowDie, i}, style.S(fmt.Sprintf(" %d", i+1), th.BarKey), style.S(" re-roll "+diceGlyphs([]int{f}), th.Base))
	}
}

// damaging is the choice of the deck fighters a carrier hit removes.
type damaging struct {
	count  int
	deck   []int
	marked []int
	sel    int
}

func (d *damaging) start(v *View) {
	_, d.count, _ = v.g.PendingDamage()
	d.deck = v.g.Admiral(v.seat()).Deck
	d.marked, d.sel = nil, 0
}

// toggle marks or unmarks deck fighter f.
func (d *damaging) toggle(f int) {
	if i := slices.Index(d.marked, f); i >= 0 {
		d.marked = slices.Delete(d.marked, i, i+1)
		return
	}
	if len(d.marked) < d.count {
		d.marked = append(d.marked, f)
	}
	if i := slices.Index(d.deck, f); i >= 0 {
		d.sel = i
	}
}

// weakest marks the weakest fighters on deck.
func (d *damaging) weakest(v *View) {
	fs := v.fighters(v.seat())
	deck := slices.Clone(d.deck)
	slices.SortStableFunc(deck, func(a, b int) int { return fs[a].Strength - fs[b].Strength })
	d.marked = slices.Clone(deck[:min(d.count, len(deck))])
}

func (d *damaging) send(v *View) {
	if len(d.marked) != d.count {
		v.life.Msg = fmt.Sprintf("mark exactly %s (%d marked)", count(d.count, "fighter"), len(d.marked))
		return
	}
	m := slices.Clone(d.marked)
	slices.Sort(m)
	v.replyMove(sea.RemoveMove(m))
}

func (d *damaging) prompt() string {
	return fmt.Sprintf("Carrier hit: remove %s from your deck — %d of %d marked", count(d.count, "fighter"), len(d.marked), d.count)
}

func (d *damaging) draw(v *View, p *pane) {
	th := v.th
	p.line(style.S(fmt.Sprintf("Lose %d from the deck", d.count), th.Hit))
	fs := v.fighters(v.seat())
	for i, f := range d.deck {
		ptr, st := " ", th.Base
		if i == d.sel {
			ptr, st = gPointer, th.Selected
		}
		mark := "  "
		if slices.Contains(d.marked, f) {
			mark, st = gLost+" ", th.Hit
		}
		p.clickable(paneRow{rowFighter, f}, style.S(ptr, th.Accent), style.S(mark, th.Hit), style.S(fmt.Sprintf("fighter %d (%d)", f, fs[f].Strength), st))
	}
}

func (v *View) damageBindings() []keys.Binding {
	d := &v.dmg
	sel := func(k int) func() {
		return func() {
			if len(d.deck) > 0 {
				d.sel = (d.sel + k + len(d.deck)) % len(d.deck)
			}
		}
	}
	return []keys.Binding{
		bind(keys.Up, "↑↓", "fighter", "select a fighter on deck", sel(-1)),
		{Keys: keys.Down, Label: "↓", Hint: "fighter", Hidden: true, Run: sel(1)},
		bind(runes(' '), "space", "mark", "mark or unmark the selected fighter (a click on its row too)", func() {
			if len(d.deck) > 0 {
				d.toggle(d.deck[d.sel])
			}
		}),
		bind(runes('x'), "x", "weakest", "mark the weakest fighters on deck", func() { d.weakest(v) }),
		bind(keys.Enter, "enter", "remove", "remove the marked fighters from the game", func() { d.send(v) }),
	}
}
