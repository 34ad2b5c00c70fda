package airview

import (
	"fmt"
	"slices"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/keys"
)

// The wingman move puts the plane on one of several marked spaces beside
// its partner. j starts picking one (the cursor on the first), and the
// player moves the cursor or tabs through the marked spaces before enter
// (or j again) makes the move: j alone used to fly at once to whichever
// space came first. A click on a marked space picks it at once.

// startWing starts picking the wingman's space.
func (v *View) startWing() {
	ws := v.wingmanSpaces()
	if len(ws) == 0 {
		v.act(air.WingmanMove(v.cur)) // refused, with the rule's reason
		return
	}
	v.wing = true
	if !slices.Contains(ws, v.cur) {
		v.cur = ws[0]
	}
}

// cycleWing puts the cursor on the next (d = 1) or previous marked space.
func (v *View) cycleWing(d int) {
	ws := v.wingmanSpaces()
	if len(ws) == 0 {
		return
	}
	i := slices.Index(ws, v.cur)
	if i < 0 && d < 0 {
		i = 0
	}
	v.cur = ws[(i+d+len(ws))%len(ws)]
}

// placeWing makes the wingman move to the cursor's space.
func (v *View) placeWing() {
	if !slices.Contains(v.wingmanSpaces(), v.cur) {
		v.life.Msg = fmt.Sprintf("%s is not a marked space: tab goes to one", v.cur)
		return
	}
	v.wing = false
	v.act(air.WingmanMove(v.cur))
}

// wingPrompt says what picking the wingman's space expects.
func (v *View) wingPrompt() string {
	n := len(v.wingmanSpaces())
	spaces := "the marked space"
	if n != 1 {
		spaces = fmt.Sprintf("one of the %d marked spaces", n)
	}
	return fmt.Sprintf("Wingman move: put the plane on %s (cursor at %s) · enter places it · esc goes back", spaces, v.cur)
}

// wingBindings are the keys while the wingman's space is being picked.
func (v *View) wingBindings() []keys.Binding {
	bs := []keys.Binding{
		{Keys: append(append([]keys.Key{}, keys.Enter...), keys.R('j')), Label: "enter", Hint: "place", Help: "make the wingman move to the cursor's space (j too)", Run: v.placeWing},
		{Keys: keys.Tab, Label: "tab", Hint: "next space", Help: "put the cursor on the next marked space", Run: func() { v.cycleWing(1) }},
		{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous space", Hidden: true, Help: "put the cursor on the previous marked space", Run: func() { v.cycleWing(-1) }},
		{Keys: []keys.Key{keys.K(tcell.KeyEscape)}, Label: "esc", Hint: "back", Help: "back to the turn's other choices", Run: func() { v.wing = false }},
	}
	return append(bs, v.cursorBindings(false)...)
}

// cursorBindings move the board cursor: one help line for the four
// arrows (each is its own binding, so they share a label), shown in the
// bar unless hidden.
func (v *View) cursorBindings(hidden bool) []keys.Binding {
	arrows := []struct {
		k      []keys.Key
		dx, dy int
	}{{keys.Up, 0, 1}, {keys.Down, 0, -1}, {keys.Left, -1, 0}, {keys.Right, 1, 0}}
	var bs []keys.Binding
	for i, a := range arrows {
		bs = append(bs, keys.Binding{Keys: a.k, Label: "←↑↓→", Hint: "cursor", Hidden: i > 0 || hidden,
			Help: "move the cursor (the wingman move goes to its space)", Run: func() { v.moveCursor(a.dx, a.dy) }})
	}
	return bs
}
