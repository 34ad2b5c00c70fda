package ubuildview

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/keys"
)

// placement is the fleet being placed at setup. One ship at a time floats
// under the cursor (cur) until it is dropped; a dropped ship can be picked
// up again.
type placement struct {
	pl       [ubuild.NumShips]ubuild.Placement
	placed   [ubuild.NumShips]bool
	cur      ubuild.Ship // the floating ship, or NoShip
	row, col int         // the floating ship's top or left end
	vertical bool
}

func (p *placement) reset() {
	*p = placement{cur: ubuild.Battleship}
}

// start makes sure a ship floats if any is left to place.
func (p *placement) start() {
	if p.cur == ubuild.NoShip && !p.allPlaced() {
		p.cur = p.nextUnplaced(ubuild.Battleship)
	}
}

func (p *placement) allPlaced() bool {
	for _, ok := range p.placed {
		if !ok {
			return false
		}
	}
	return true
}

func (p *placement) count() int {
	n := 0
	for _, ok := range p.placed {
		if ok {
			n++
		}
	}
	return n
}

// nextUnplaced returns the first unplaced ship from s on, in fleet order
// (wrapping), or NoShip.
func (p *placement) nextUnplaced(s ubuild.Ship) ubuild.Ship {
	for i := range ubuild.NumShips {
		t := ubuild.Ship((int(s) + i) % ubuild.NumShips)
		if !p.placed[t] {
			return t
		}
	}
	return ubuild.NoShip
}

// floating returns the floating ship's placement.
func (p *placement) floating() ubuild.Placement {
	return ubuild.Placement{Start: ubuild.CellAt(p.row, p.col), Vertical: p.vertical}
}

// owner returns the placed ship on cell c, or NoShip.
func (p *placement) owner(c ubuild.Cell) ubuild.Ship {
	for s := range ubuild.Ship(ubuild.NumShips) {
		if !p.placed[s] {
			continue
		}
		for _, x := range p.pl[s].Cells(s.Plate()) {
			if x == c {
				return s
			}
		}
	}
	return ubuild.NoShip
}

// clash reports whether the floating ship overlaps a placed one.
func (p *placement) clash() bool {
	if p.cur == ubuild.NoShip {
		return false
	}
	for _, c := range p.floating().Cells(p.cur.Plate()) {
		if p.owner(c) != ubuild.NoShip {
			return true
		}
	}
	return false
}

// clamp keeps the floating ship inside the grid.
func (p *placement) clamp() {
	n := 1
	if p.cur != ubuild.NoShip {
		n = p.cur.Plate()
	}
	maxRow, maxCol := ubuild.Rows-1, ubuild.Cols-1
	if p.vertical {
		maxRow = ubuild.Rows - n
	} else {
		maxCol = ubuild.Cols - n
	}
	p.row = min(max(p.row, 0), maxRow)
	p.col = min(max(p.col, 0), maxCol)
}

func (p *placement) move(dr, dc int) {
	p.row += dr
	p.col += dc
	p.clamp()
}

func (p *placement) rotate() {
	p.vertical = !p.vertical
	p.clamp()
}

// drop places the floating ship where it is.
func (p *placement) drop() error {
	if p.cur == ubuild.NoShip {
		return fmt.Errorf("no ship is floating: tab picks one up")
	}
	if p.clash() {
		return fmt.Errorf("the %s would overlap another ship", p.cur.Name())
	}
	p.pl[p.cur] = p.floating()
	p.placed[p.cur] = true
	p.cur = p.nextUnplaced(p.cur)
	p.clamp()
	return nil
}

// pick lifts ship s so it floats (it stays where it was until moved).
func (p *placement) pick(s ubuild.Ship) {
	if p.placed[s] {
		p.placed[s] = false
		st := p.pl[s].Start
		p.row, p.col, p.vertical = st.Row(), st.Col(), p.pl[s].Vertical
	}
	p.cur = s
	p.clamp()
}

func (p *placement) random(v *View) {
	l := ubuild.RandomLayout(v.rand)
	for s := range ubuild.Ship(ubuild.NumShips) {
		p.pl[s], p.placed[s] = l[s], true
	}
	p.cur = ubuild.NoShip
}

func (p *placement) layout() ubuild.Layout { return ubuild.Layout(p.pl) }

func (p *placement) prompt() string {
	if p.cur == ubuild.NoShip {
		return "Fleet placed: enter commits it (it cannot change after), tab picks a ship up again"
	}
	return fmt.Sprintf("Place the %s (%d): arrows move, r turns, enter drops — %d of %d placed",
		p.cur.Name(), p.cur.Plate(), p.count(), ubuild.NumShips)
}

// commit sends the finished layout.
func (v *View) commitLayout() {
	l := v.place.layout()
	if !v.place.allPlaced() {
		v.life.Msg = fmt.Sprintf("%d ships still to place", ubuild.NumShips-v.place.count())
		return
	}
	if err := l.Validate(); err != nil {
		v.life.Msg = err.Error()
		return
	}
	v.reply(engine.Decision{Leaves: l.Leaves()})
}

func (v *View) placeBindings() []keys.Binding {
	p := &v.place
	var bs []keys.Binding
	if p.cur != ubuild.NoShip {
		bs = append(bs, keys.Arrows("move", "move the floating ship", p.move)...)
		bs = append(bs,
			keys.Binding{Keys: []keys.Key{keys.R('r'), keys.R(' ')}, Label: "r", Hint: "turn", Help: "turn the floating ship between across and down (space too; right click on the board)", Run: p.rotate},
			keys.Binding{Keys: keys.Enter, Label: "enter", Hint: "drop", Help: "drop the floating ship where it is (left click on your ocean drops it there)", Run: func() {
				if err := p.drop(); err != nil {
					v.life.Msg = err.Error()
				}
			}},
		)
	} else {
		bs = append(bs, keys.Binding{Keys: keys.Enter, Label: "enter", Hint: "commit fleet", Help: "commit the layout: its hash goes to your opponent and it cannot change after", Run: v.commitLayout})
	}
	bs = append(bs,
		keys.Binding{Keys: keys.Tab, Label: "tab", Hint: "next ship", Help: "pick up the next ship (a placed one floats again; left click on a placed ship does too)", Run: func() {
			from := ubuild.Battleship
			if p.cur != ubuild.NoShip {
				from = ubuild.Ship((int(p.cur) + 1) % ubuild.NumShips)
			}
			p.pick(from)
		}},
		keys.Binding{Keys: []keys.Key{keys.R('x')}, Label: "x", Hint: "random layout", Help: "place the whole fleet at random (every legal layout equally likely)", Run: func() { p.random(v) }},
		keys.Binding{Keys: []keys.Key{keys.R('c')}, Label: "c", Hint: "clear", Help: "take every ship off the board and start again", Run: p.reset},
	)
	bs = append(bs, shipKeys(p.pick)...)
	return bs
}

// placeClick: a left click on a placed ship picks it up; elsewhere on your
// ocean it moves the floating ship there and drops it. A right click turns
// the floating ship.
func (v *View) placeClick(x, y int, right bool) {
	p := &v.place
	if right {
		p.rotate()
		return
	}
	c, ok := v.geo.own.cellAt(x, y)
	if !ok {
		return
	}
	if s := p.owner(c); s != ubuild.NoShip {
		p.pick(s)
		return
	}
	if p.cur == ubuild.NoShip {
		return
	}
	p.row, p.col = c.Row(), c.Col()
	p.clamp()
	if err := p.drop(); err != nil {
		v.life.Msg = err.Error()
	}
}
