package seaview

import (
	"fmt"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// pathing is a rolled Harpoon being steered: in step 1 (it is removed
// unless it hits) or just launched (it must stop on an empty space unless
// it hits).
type pathing struct {
	req   sea.PathRequest
	dests []sea.Destination // hits first, then by board order
	sel   int
}

// start lists where the Harpoon can go and puts the cursor on the first
// hit, or on the Harpoon.
func (p *pathing) start(v *View) {
	p.req, _ = v.g.PendingPath()
	p.dests = v.g.HarpoonDestinations()
	v.byFoe(p.dests)
	// The cursor starts on the first destination (a ship in reach comes
	// first), where enter acts: the space the Harpoon starts from is not
	// one, and enter there was refused.
	p.sel = -1
	v.cur = p.req.From
	if len(p.dests) > 0 {
		p.sel = 0
		v.cur = p.dests[0].Cell
	}
}

// at returns the destination on space c.
func (p *pathing) at(c sea.Cell) (sea.Destination, bool) {
	for _, d := range p.dests {
		if d.Cell == c {
			return d, true
		}
	}
	return sea.Destination{}, false
}

// hits counts the ships in reach.
func (p *pathing) hits() int {
	n := 0
	for _, d := range p.dests {
		if d.Hit {
			n++
		}
	}
	return n
}

// next puts the cursor on the next destination (hits first).
func (p *pathing) next(v *View, d int) {
	if len(p.dests) == 0 {
		v.life.Msg = "the Harpoon has nowhere to go"
		return
	}
	p.sel = (p.sel + d + len(p.dests)) % len(p.dests)
	v.cur = p.dests[p.sel].Cell
}

// send steers the Harpoon to the cursor's space.
func (p *pathing) send(v *View) {
	d, ok := p.at(v.cur)
	if !ok {
		if v.cur == p.req.From {
			v.life.Msg = "the Harpoon is there already: choose where it goes"
		} else {
			v.life.Msg = fmt.Sprintf("a Harpoon from %s cannot reach %s with a %d", p.req.From, v.cur, p.req.Steps)
		}
		return
	}
	v.replyMove(sea.PathMove(d.Path))
}

// stop sends an empty path: in step 1 the Harpoon runs out of range; a
// launched Harpoon may only stay when it has nowhere to go.
func (p *pathing) stop(v *View) { v.replyMove(sea.PathMove(nil)) }

func (p *pathing) prompt(v *View) string {
	what := fmt.Sprintf("Harpoon %d", p.req.Harpoon)
	if p.req.Launch {
		what = fmt.Sprintf("Fighter %d's Harpoon", p.req.Fighter)
	}
	switch n := p.hits(); {
	case len(p.dests) == 0:
		return fmt.Sprintf("%s rolled %d and has nowhere to go — d returns it to the depot", what, p.req.Steps)
	case n > 0:
		return fmt.Sprintf("%s rolled %d: %d ship %s in reach (%s) — enter sends it to the cursor", what, p.req.Steps, n, plural(n, "space"), gTarget)
	case !p.req.Launch:
		return fmt.Sprintf("%s rolled %d: no ship in reach — d lets it run out", what, p.req.Steps)
	}
	return fmt.Sprintf("%s rolled %d: no ship in reach — enter sends it to wait at the cursor", what, p.req.Steps)
}

// overlay marks every destination and the path to the cursor.
func (p *pathing) overlay(v *View, out map[sea.Cell]look) {
	for _, d := range p.dests {
		if d.Hit || v.at(d.Cell).Kind == sea.Empty {
			out[d.Cell] = v.reachLook(d)
		}
	}
	if d, ok := p.at(v.cur); ok {
		v.drawPath(out, d.Path)
	}
}

// draw lists the ships in reach.
func (p *pathing) draw(v *View, p2 *pane) {
	th := v.th
	p2.line(style.S(fmt.Sprintf("Harpoon from %s, roll %s", p.req.From, diceGlyphs([]int{p.req.Steps})), th.Accent))
	if len(p.dests) == 0 {
		p2.text("nowhere to go", th.Warn)
		return
	}
	for _, d := range p.dests {
		if !d.Hit {
			break
		}
		p2.text(fmt.Sprintf("%s %s: %s (%s)", gTarget, d.Cell, v.occupantName(d.Cell), spaces(len(d.Path))), th.Hit)
	}
	if d, ok := p.at(v.cur); ok {
		p2.text(fmt.Sprintf("to %s in %s", d.Cell, spaces(len(d.Path))), th.Base)
	}
}

// occupantName names the piece on c.
func (v *View) occupantName(c sea.Cell) string {
	o := v.at(c)
	switch o.Kind {
	case sea.CarrierPiece:
		return v.targetName(o.Owner, sea.Target{Kind: sea.TargetCarrier})
	case sea.DestroyerPiece:
		return v.targetName(o.Owner, sea.Target{Kind: sea.TargetDestroyer, Index: o.Index})
	case sea.FighterPiece:
		return v.targetName(o.Owner, sea.Target{Kind: sea.TargetFighter, Index: o.Index})
	case sea.HarpoonPiece:
		return v.targetName(o.Owner, sea.Target{Kind: sea.TargetHarpoon, Index: o.Index})
	}
	return "water"
}

func (v *View) pathBindings() []keys.Binding {
	p := &v.path
	bs := append(arrowBindings("aim", "move the cursor: the path to it is drawn when the Harpoon can get there", v.move),
		bind(keys.Tab, "tab", "next place", "put the cursor on the next place the Harpoon can reach (ships first, then nearest the enemy carrier)", func() { p.next(v, 1) }),
		keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous", Hidden: true, Help: "the previous place the Harpoon can reach", Run: func() { p.next(v, -1) }},
		bind(keys.Enter, "enter", "send", "send the Harpoon along the drawn path (a click on a reachable space too)", func() { p.send(v) }),
	)
	if !p.req.Launch || len(p.dests) == 0 {
		bs = append(bs, bind(runes('d'), "d", "let it go", "do not steer it: a Harpoon that hits nothing is removed (a launched one with nowhere to go returns to the depot)", func() { p.stop(v) }))
	}
	return bs
}
