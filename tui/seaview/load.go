package seaview

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// Missile loading: the NeedCommit "load/<n>" after a take-off.

func (v *View) loadPrompt() string {
	f, _ := v.g.PendingLoad()
	st := v.fighters(v.seat())[f].Strength
	return fmt.Sprintf("Load fighter %d (strength %d): h a Harpoon (ships) or s a Sidewinder (dogfights)", f, st)
}

// load commits the missile for the fighter taking off.
func (v *View) load(m sea.Missile) {
	if m != sea.Harpoon && m != sea.Sidewinder {
		return
	}
	v.reply(engine.Decision{Leaves: [][]byte{sea.EncodeMissile(m)}})
}

func (v *View) drawLoad(p *pane) {
	th := v.th
	f, _ := v.g.PendingLoad()
	p.line(style.S(fmt.Sprintf("Load fighter %d", f), th.Accent))
	p.clickable(paneRow{rowMissile, int(sea.Harpoon)}, style.S("h", th.BarKey), style.S(" Harpoon: strikes ships", th.Base))
	p.clickable(paneRow{rowMissile, int(sea.Sidewinder)}, style.S("s", th.BarKey), style.S(" Sidewinder: dogfights", th.Base))
}

func (v *View) loadBindings() []keys.Binding {
	return []keys.Binding{
		bind(append(runes('h'), keys.Enter...), "h", "Harpoon", "load a Harpoon (enter too): launched in step 6, it can hit ships", func() { v.load(sea.Harpoon) }),
		bind(runes('s'), "s", "Sidewinder", "load a Sidewinder: in a dogfight it adds one to your best die or rolls one die again", func() { v.load(sea.Sidewinder) }),
	}
}
