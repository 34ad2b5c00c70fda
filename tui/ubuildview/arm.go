package ubuildview

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
)

// armament is a custom fleet's weapon allocation being built.
type armament struct {
	w     [ubuild.NumShips]int
	sel   ubuild.Ship
	total int // the weapons the fleet must total: the host's custom variant
}

// reset starts from the standard counts of a fleet of total weapons: each
// ship its plate number and the spares on the biggest ships, a build enter
// commits as it stands.
func (a *armament) reset(total int) {
	a.total = total
	a.w = ubuild.StandardBuild(total)
	a.sel = ubuild.Battleship
}

func (a *armament) sum() int {
	t := 0
	for _, n := range a.w {
		t += n
	}
	return t
}

// set gives the selected ship n weapons, kept within the ship's range and
// what the fleet's total leaves.
func (a *armament) set(n int) error {
	others := a.sum() - a.w[a.sel]
	n = min(max(n, ubuild.MinWeapons), ubuild.MaxWeapons, a.total-others)
	if n < ubuild.MinWeapons {
		return fmt.Errorf("no weapons left to give")
	}
	a.w[a.sel] = n
	return nil
}

func (a *armament) prompt() string {
	left := a.total - a.sum()
	if left == 0 {
		return fmt.Sprintf("Build your fleet: all %d weapons given — enter commits the build (hidden until each ship fires)", a.total)
	}
	return fmt.Sprintf("Build your fleet: %d weapons, %d-%d a ship — %d left to give", a.total, ubuild.MinWeapons, ubuild.MaxWeapons, left)
}

func (v *View) commitWeapons() {
	if err := ubuild.ValidateWeapons(v.arm.w, v.arm.total); err != nil {
		v.life.Msg = err.Error()
		return
	}
	v.reply(engine.Decision{Leaves: ubuild.WeaponLeaves(v.arm.w)})
}

func (v *View) armBindings() []keys.Binding {
	a := &v.arm
	change := func(d int) func() {
		return func() {
			if d > 0 && a.sum() >= a.total {
				v.life.Msg = fmt.Sprintf("all %d weapons are given: take one from another ship first", a.total)
				return
			}
			if err := a.set(a.w[a.sel] + d); err != nil {
				v.life.Msg = err.Error()
			}
		}
	}
	move := func(d int) func() {
		return func() { a.sel = ubuild.Ship((int(a.sel) + d + ubuild.NumShips) % ubuild.NumShips) }
	}
	bs := []keys.Binding{
		{Keys: keys.Up, Label: "↑↓", Hint: "ship", Help: "select the ship to arm", Run: move(-1)},
		{Keys: keys.Down, Label: "↓", Hint: "ship", Hidden: true, Run: move(1)},
		{Keys: append([]keys.Key{keys.R('+'), keys.R('=')}, keys.Right...), Label: "←→", Hint: "weapons", Help: "give the selected ship one weapon more (→ or +) or less (← or -)", Run: change(1)},
		{Keys: append([]keys.Key{keys.R('-')}, keys.Left...), Label: "←", Hint: "fewer", Hidden: true, Run: change(-1)},
		{Keys: keys.Enter, Label: "enter", Hint: "commit build", Help: fmt.Sprintf("commit the weapon counts (they must total %d, the host's choice); each stays hidden until that ship first fires", a.total), Run: v.commitWeapons},
		{Keys: []keys.Key{keys.R('x')}, Label: "x", Hint: "random build", Help: "a random legal build (every legal build equally likely)", Run: func() { a.w = ubuild.RandomWeapons(v.rand, a.total) }},
		{Keys: []keys.Key{keys.R('c')}, Label: "c", Hint: "standard", Help: "back to the standard counts (each ship its plate number, any spares one each on the biggest ships)", Run: func() { a.reset(a.total) }},
	}
	return append(bs, shipKeys(func(s ubuild.Ship) { a.sel = s })...)
}

// armClick selects the ship of the row clicked; a click on its weapon bar
// sets the count to the square clicked.
func (v *View) armClick(x, y int, _ bool) {
	s, ok := board.Hit(v.geo.armRows[:], x, y)
	if !ok {
		return
	}
	v.arm.sel = ubuild.Ship(s)
	if x >= v.geo.armBarX && x < v.geo.armBarX+ubuild.MaxWeapons {
		if err := v.arm.set(x - v.geo.armBarX + 1); err != nil {
			v.life.Msg = err.Error()
		}
	}
}
