package ubuildview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
)

// aim is a volley being aimed: the ship that fires, the cursor on the
// target grid, and the shots marked so far.
type aim struct {
	ship     ubuild.Ship // NoShip in classic
	row, col int
	marks    []ubuild.Cell
}

// start begins aiming: the ship keeps its choice if it can still fire,
// the marks are cleared.
func (a *aim) start(v *View) {
	a.marks = nil
	if v.variant() == ubuild.Classic {
		a.ship = ubuild.NoShip
	} else if a.ship == ubuild.NoShip || v.shots(a.ship) == 0 {
		a.ship = ubuild.NoShip
		if ships := v.firingShips(); len(ships) > 0 {
			a.ship = ships[0]
		}
	}
	a.fit(v)
}

// fit drops marks the ship cannot fire any more.
func (a *aim) fit(v *View) {
	if v.g == nil {
		return
	}
	a.marks = slices.DeleteFunc(a.marks, func(c ubuild.Cell) bool { return !v.g.CanTarget(v.seat(), c) })
	if n := v.shots(a.ship); len(a.marks) > n {
		a.marks = a.marks[:n]
	}
}

func (a *aim) cursor() ubuild.Cell { return ubuild.CellAt(a.row, a.col) }

func (a *aim) marked(c ubuild.Cell) bool { return slices.Contains(a.marks, c) }

func (a *aim) move(dr, dc int) {
	a.row = min(max(a.row+dr, 0), ubuild.Rows-1)
	a.col = min(max(a.col+dc, 0), ubuild.Cols-1)
}

// shots returns how many shots ship may fire now (0 if it cannot).
func (v *View) shots(ship ubuild.Ship) int {
	if v.g == nil {
		return 0
	}
	n, err := v.g.ShotsAllowed(v.seat(), ship, v.secrets())
	if err != nil {
		return 0
	}
	return n
}

// firingShips lists the local ships that can fire now, in fleet order.
func (v *View) firingShips() []ubuild.Ship {
	var out []ubuild.Ship
	for s := range ubuild.Ship(ubuild.NumShips) {
		if v.shots(s) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// toggle marks or unmarks cell c.
func (v *View) toggle(c ubuild.Cell) {
	a := &v.aim
	if i := slices.Index(a.marks, c); i >= 0 {
		a.marks = slices.Delete(a.marks, i, i+1)
		return
	}
	if v.g == nil || !v.g.CanTarget(v.seat(), c) {
		v.life.Msg = fmt.Sprintf("%s was already called", c)
		return
	}
	n := v.shots(a.ship)
	if len(a.marks) >= n {
		if n == 1 {
			a.marks = []ubuild.Cell{c}
			return
		}
		v.life.Msg = fmt.Sprintf("%s fires %d shots: unmark one first", v.shipWord(), n)
		return
	}
	a.marks = append(a.marks, c)
}

// shipWord names the firing ship for prompts.
func (v *View) shipWord() string {
	if v.aim.ship == ubuild.NoShip {
		return "this turn"
	}
	return "the " + v.aim.ship.Name()
}

// selectShip makes s the firing ship if it can fire.
func (v *View) selectShip(s ubuild.Ship) {
	if v.variant() == ubuild.Classic {
		v.life.Msg = "the classic variant names no ship"
		return
	}
	if v.shots(s) == 0 {
		v.life.Msg = fmt.Sprintf("the %s cannot fire (sunk)", s.Name())
		return
	}
	v.aim.ship = s
	v.aim.fit(v)
}

// cycleShip moves to the next (d=1) or previous (d=-1) ship that can fire.
func (v *View) cycleShip(d int) {
	ships := v.firingShips()
	if len(ships) == 0 || v.variant() == ubuild.Classic {
		return
	}
	i := slices.Index(ships, v.aim.ship)
	v.aim.ship = ships[(i+d+len(ships))%len(ships)]
	v.aim.fit(v)
}

// fire sends the marked volley (the cursor's cell if nothing is marked).
func (v *View) fire() {
	a := &v.aim
	if len(a.marks) == 0 {
		v.toggle(a.cursor())
		if len(a.marks) == 0 {
			return
		}
	}
	b, err := ubuild.EncodeFire(a.ship, a.marks)
	if err != nil {
		v.life.Msg = err.Error()
		return
	}
	if v.reply(engine.Decision{Move: b}) {
		a.marks = nil
	}
}

func (a *aim) prompt(v *View) string {
	n := v.shots(a.ship)
	if v.variant() == ubuild.Classic || n == 1 {
		target := a.cursor()
		if len(a.marks) > 0 {
			target = a.marks[0]
		}
		return fmt.Sprintf("Your turn: one shot — enter fires at %s", target)
	}
	names := make([]string, len(a.marks))
	for i, c := range a.marks {
		names[i] = c.String()
	}
	marked := ""
	if len(names) > 0 {
		marked = " (" + strings.Join(names, " ") + ")"
	}
	return fmt.Sprintf("Your turn: the %s fires up to %d — %d marked%s; enter fires", a.ship.Name(), n, len(a.marks), marked)
}

func (v *View) aimBindings() []keys.Binding {
	a := &v.aim
	bs := keys.Arrows("aim", "move the cursor on the target grid", a.move)
	bs = append(bs,
		keys.Binding{Keys: []keys.Key{keys.R(' ')}, Label: "space", Hint: "mark", Help: "mark or unmark the cell under the cursor as a shot (left click on the target grid does too)", Run: func() { v.toggle(a.cursor()) }},
		keys.Binding{Keys: keys.Enter, Label: "enter", Hint: fmt.Sprintf("fire (%d of %d marked)", len(a.marks), v.shots(a.ship)), Help: "fire the marked shots (or the cursor's cell when none is marked)", Run: v.fire},
	)
	if v.variant() != ubuild.Classic {
		bs = append(bs,
			keys.Binding{Keys: keys.Tab, Label: "tab", Hint: "ship", Help: "fire with the next ship that can (click a ship in your fleet list too)", Run: func() { v.cycleShip(1) }},
			keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous ship", Hidden: true, Help: "fire with the previous ship that can", Run: func() { v.cycleShip(-1) }},
		)
		bs = append(bs, shipKeys(v.selectShip)...)
	}
	bs = append(bs, keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyBackspace2), keys.K(tcell.KeyBackspace), keys.R('u')}, Label: "u", Hint: "unmark all", Hidden: true, Help: "clear every marked shot", Run: func() { a.marks = nil }})
	return bs
}

// aimClick: a left click on the target grid moves the cursor there and
// marks or unmarks the cell; a right click marks it and fires; a click on a
// ship of your fleet list makes it the firing ship.
func (v *View) aimClick(x, y int, right bool) {
	if c, ok := v.geo.tgt.cellAt(x, y); ok {
		v.aim.row, v.aim.col = c.Row(), c.Col()
		if right {
			if !v.aim.marked(c) {
				v.toggle(c)
			}
			v.fire()
			return
		}
		v.toggle(c)
		return
	}
	if s, ok := board.Hit(v.geo.fleetRows[:], x, y); ok {
		v.selectShip(ubuild.Ship(s))
	}
}
