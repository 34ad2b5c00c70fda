package seaview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// strengths is the squadron's strengths being assigned at setup: which
// fighter carries which number under its wing.
type strengths struct {
	vals [sea.FightersPerSide]int
	sel  int
}

// reset gives the fighters the squadron's strengths in ascending order.
func (s *strengths) reset() {
	s.vals = sea.StrengthMultiset
	s.sel = 0
}

// bump changes the selected fighter's strength by d, wrapping within 2-4.
func (s *strengths) bump(d int) {
	n := sea.MaxStrength - sea.MinStrength + 1
	s.vals[s.sel] = sea.MinStrength + ((s.vals[s.sel]-sea.MinStrength+d)%n+n)%n
}

// check reports how the strengths differ from the squadron's, or nil.
func (s *strengths) check() error {
	var got, want [sea.MaxStrength + 1]int
	for i := range s.vals {
		got[s.vals[i]]++
		want[sea.StrengthMultiset[i]]++
	}
	if got == want {
		return nil
	}
	var have []string
	for k := sea.MinStrength; k <= sea.MaxStrength; k++ {
		if got[k] != want[k] {
			have = append(have, fmt.Sprintf("%d %ds", got[k], k))
		}
	}
	return fmt.Errorf("the squadron is two 2s, four 3s, two 4s; you have %s", strings.Join(have, ", "))
}

func (s *strengths) prompt() string {
	if err := s.check(); err != nil {
		return "Strengths: " + err.Error()
	}
	return "Commit your squadron's strengths (each stays hidden until it dogfights)"
}

// draw lists the fighters with their strengths.
func (s *strengths) draw(v *View, p *pane) {
	th := v.th
	st := th.Good
	if s.check() != nil {
		st = th.Warn
	}
	p.line(style.S("Squadron strengths", th.Accent))
	for i, val := range s.vals {
		ptr, rst := " ", th.Base
		if i == s.sel {
			ptr, rst = gPointer, th.Selected
		}
		p.clickable(paneRow{rowFighter, i}, style.S(ptr, th.Accent),
			style.S(fmt.Sprintf("fighter %d  ", i), rst), style.S(strings.Repeat("■", val)+strings.Repeat("·", sea.MaxStrength-val), th.Ship),
			style.S(fmt.Sprintf(" %d", val), rst))
	}
	p.text("2×2, 4×3, 2×4", st)
}

// commit sends the strengths if they are the squadron's.
func (v *View) commitStrengths() {
	if v.str.check() != nil {
		v.life.Msg = "cannot commit" // the prompt says why
		return
	}
	leaves := make([][]byte, len(v.str.vals))
	for i, val := range v.str.vals {
		leaves[i] = sea.EncodeStrength(val)
	}
	v.reply(engine.Decision{Leaves: leaves})
}

func (v *View) strengthBindings() []keys.Binding {
	s := &v.str
	sel := func(d int) func() {
		return func() { s.sel = (s.sel + d + sea.FightersPerSide) % sea.FightersPerSide }
	}
	set := func(val int) func() { return func() { s.vals[s.sel] = val } }
	return []keys.Binding{
		bind(keys.Up, "↑↓", "fighter", "select a fighter (a click on its row too)", sel(-1)),
		{Keys: keys.Down, Label: "↓", Hint: "fighter", Hidden: true, Run: sel(1)},
		bind(append(runes('+'), keys.Right...), "←→", "strength", "raise (→) or lower (←) the selected fighter's strength, wrapping 2-4 (a click on its row raises it, a right click lowers it)", func() { s.bump(1) }),
		{Keys: append(runes('-'), keys.Left...), Label: "←", Hint: "weaker", Hidden: true, Run: func() { s.bump(-1) }},
		{Keys: runes('2'), Label: "2-4", Hint: "set", Help: "give the selected fighter strength 2, 3 or 4", Hidden: true, Run: set(2)},
		{Keys: runes('3'), Label: "3", Hint: "set", Hidden: true, Run: set(3)},
		{Keys: runes('4'), Label: "4", Hint: "set", Hidden: true, Run: set(4)},
		bind(keys.Enter, "enter", "commit", "commit the strengths: only their hash goes to your opponent; each is revealed when its fighter dogfights", v.commitStrengths),
		bind(runes('x'), "x", "shuffle", "give the fighters the squadron's strengths in a random order", func() {
			s.vals = sea.StrengthMultiset
			v.rand.Shuffle(len(s.vals), func(i, j int) { s.vals[i], s.vals[j] = s.vals[j], s.vals[i] })
		}),
		bind(runes('c'), "c", "sorted", "back to the strengths in ascending order (2 2 3 3 3 3 4 4)", s.reset),
	}
}
