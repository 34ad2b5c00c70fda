package seaview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// returning is the choice, before the scramble roll, of the fighters that
// fly back to the carrier (each costs one of the four dice).
type returning struct {
	marked []int
}

func (r *returning) start(v *View) {
	r.marked = nil
	if fs := v.flying(); len(fs) > 0 {
		v.cur = v.fighters(v.seat())[fs[0]].Cell
	}
}

// flying lists your fighters in flight.
func (v *View) flying() []int {
	var out []int
	for _, f := range v.fighters(v.seat()) {
		if f.State == sea.InFlight {
			out = append(out, f.Index)
		}
	}
	return out
}

// ownFighterAt returns your fighter on space c, or -1.
func (v *View) ownFighterAt(c sea.Cell) int {
	if o := v.at(c); o.Kind == sea.FighterPiece && o.Owner == v.seat() {
		return o.Index
	}
	return -1
}

// toggleAt marks or unmarks your fighter on c.
func (r *returning) toggleAt(v *View, c sea.Cell) {
	f := v.ownFighterAt(c)
	if f < 0 {
		v.life.Msg = "the cursor is not on one of your fighters in flight"
		return
	}
	if i := slices.Index(r.marked, f); i >= 0 {
		r.marked = slices.Delete(r.marked, i, i+1)
		return
	}
	if len(r.marked) >= sea.ScrambleDice {
		v.life.Msg = fmt.Sprintf("at most %d fighters can return (one die each)", sea.ScrambleDice)
		return
	}
	r.marked = append(r.marked, f)
}

// next puts the cursor on your next fighter in flight.
func (r *returning) next(v *View, d int) {
	fs := v.flying()
	if len(fs) == 0 {
		return
	}
	i := slices.Index(fs, v.ownFighterAt(v.cur))
	if i < 0 && d < 0 {
		i = 0
	}
	v.cur = v.fighters(v.seat())[fs[(i+d+len(fs))%len(fs)]].Cell
}

func (r *returning) send(v *View) {
	m := slices.Clone(r.marked)
	slices.Sort(m)
	v.replyMove(sea.ReturnMove(m))
}

func (r *returning) prompt(v *View) string {
	n := len(r.marked)
	return fmt.Sprintf("Step 2: return fighters to reload? Each costs a die — %d marked, you roll %d", n, sea.ScrambleDice-n)
}

func (r *returning) overlay(v *View, out map[sea.Cell]look) {
	for _, f := range v.flying() {
		c := v.fighters(v.seat())[f].Cell
		lk := v.base(c)
		lk.st = lk.st.Underline(true)
		if slices.Contains(r.marked, f) {
			lk = look{gReturn, v.th.Mark}
		}
		out[c] = lk
	}
}

func (r *returning) draw(v *View, p *pane) {
	th := v.th
	p.line(style.S("Return to the carrier", th.Accent))
	names := make([]string, len(r.marked))
	for i, f := range r.marked {
		names[i] = fmt.Sprint(f)
	}
	if len(names) == 0 {
		names = []string{"none"}
	}
	p.text(fmt.Sprintf("fighters %s → roll %d dice", strings.Join(names, ", "), sea.ScrambleDice-len(r.marked)), th.Base)
}

func (v *View) returnBindings() []keys.Binding {
	r := &v.ret
	return append(arrowBindings("cursor", "move the cursor", v.move),
		bind(keys.Tab, "tab", "next fighter", "put the cursor on your next fighter in flight", func() { r.next(v, 1) }),
		keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous", Hidden: true, Help: "the previous fighter in flight", Run: func() { r.next(v, -1) }},
		bind(runes(' '), "space", "mark", "mark or unmark the fighter under the cursor to return (a click on it too)", func() { r.toggleAt(v, v.cur) }),
		bind(keys.Enter, "enter", "go on", "return the marked fighters (none is fine) and roll the scramble dice", func() { r.send(v) }),
	)
}
