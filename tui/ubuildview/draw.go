package ubuildview

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// Layout of the board, in cells.
const (
	gridW     = 3 + 2*ubuild.Cols // row letter, space, then two cells a column
	gridH     = 2 + ubuild.Rows   // title, column numbers, rows
	fullH     = gridH + 1 + 1 + ubuild.NumShips
	nameW     = 10
	minGap    = 4
	maxGap    = 8
	noCell    = ubuild.Cell(-1)
	tableBarX = 12 // the weapon bar's column in a fleet table
)

// gridGeo is where a grid's cell A-1 was drawn.
type gridGeo struct {
	x, y int
	ok   bool
}

// cellAt returns the cell under screen position x, y.
func (g gridGeo) cellAt(x, y int) (ubuild.Cell, bool) {
	if !g.ok {
		return 0, false
	}
	dx, dy := x-g.x, y-g.y
	if dx < 0 || dy < 0 || dy >= ubuild.Rows || dx >= 2*ubuild.Cols {
		return 0, false
	}
	return ubuild.CellAt(dy, dx/2), true
}

// geometry is where the last draw put the clickable parts.
type geometry struct {
	own, tgt  gridGeo
	fleetRows [ubuild.NumShips]board.Rect // each ship's row of the fleet list
	armRows   [ubuild.NumShips]board.Rect // each ship's row of the build table
	armBarX   int
}

// cellLook is how one cell is drawn.
type cellLook struct {
	glyph string
	st    tcell.Style
}

// Draw draws both grids, the fleet tables and the last volley.
func (v *View) Draw(scr tcell.Screen) {
	v.geo = geometry{}
	th := v.th
	x, y, w, h, ok := v.Begin(scr, th, v.g != nil)
	if !ok {
		return
	}
	if h < gridH || w < gridW {
		style.Print(scr, x, y, w, th.Warn, "the board needs more room")
		return
	}
	me := v.seat()
	them := 1 - me
	both := w >= 2*gridW+minGap
	gap := min(maxGap, max(minGap, w-2*gridW-2))
	leftX, rightX := x, x+gridW+gap
	if !both {
		// Only one grid fits (the log is wide): the one that matters now.
		if v.mode == aiming || v.mode == idle && v.g.Phase() != ubuild.PhaseSetup {
			leftX, rightX = -1, x
		} else {
			rightX = -1
		}
	}
	if leftX >= 0 {
		title := "Your ocean"
		if v.life.Snap.Spectator {
			title = fmt.Sprintf("%s · %s", v.life.Snap.Name(me), me)
		}
		v.geo.own = v.drawGrid(scr, leftX, y, min(gridW+gap-1, x+w-leftX), title, me, true)
	}
	if rightX >= 0 {
		title := "Target · " + v.life.Snap.Name(them)
		if v.life.Snap.Spectator {
			title = fmt.Sprintf("%s · %s", v.life.Snap.Name(them), them)
		}
		v.geo.tgt = v.drawGrid(scr, rightX, y, x+w-rightX, title, them, v.life.Snap.Spectator)
	}
	if h >= gridH+1 {
		style.Print(scr, x, y+gridH, w, th.Dim, style.Truncate(v.volleyText(), w))
	}
	if h < fullH {
		return
	}
	ty := y + gridH + 1
	if v.legendOn {
		v.drawLegend(scr, x, ty, w, y+h-ty)
		return
	}
	tableW := gridW + gap - 1
	if leftX >= 0 {
		if v.mode == arming {
			v.drawArmTable(scr, leftX, ty, tableW)
		} else {
			v.drawFleetTable(scr, leftX, ty, tableW, me, true)
		}
	}
	if rightX >= 0 {
		v.drawFleetTable(scr, rightX, ty, x+w-rightX, them, v.life.Snap.Spectator)
	}
}

// drawGrid draws seat's grid with its title at gx, gy; full shows the
// seat's hidden values known to the viewer (ours, or all in the audit).
func (v *View) drawGrid(scr tcell.Screen, gx, gy, titleW int, title string, seat engine.Seat, full bool) gridGeo {
	th := v.th
	// The title keeps to the board's own cells (a long name ran into the
	// pane beside it), shortened with "…".
	style.Print(scr, gx, gy, titleW, th.Accent, style.Truncate(title, titleW))
	for c := range ubuild.Cols {
		style.Print(scr, gx+3+2*c, gy+1, 2, th.Dim, fmt.Sprint(c+1))
	}
	geo := gridGeo{x: gx + 3, y: gy + 2, ok: true}
	own := full && !v.life.Snap.Spectator
	for r := range ubuild.Rows {
		style.Print(scr, gx, gy+2+r, 2, th.Dim, string(rune('A'+r)))
		for c := range ubuild.Cols {
			cell := ubuild.CellAt(r, c)
			lk := v.look(seat, cell, full, own)
			style.Print(scr, geo.x+2*c, geo.y+r, 1, lk.st, lk.glyph)
		}
	}
	return geo
}

// look decides how a cell of seat's grid is drawn.
func (v *View) look(seat engine.Seat, c ubuild.Cell, full, own bool) cellLook {
	th := v.th
	g := v.g
	// Setup: our ocean shows the fleet being placed.
	if own && v.mode == placing {
		p := &v.place
		if p.cur != ubuild.NoShip {
			for _, x := range p.floating().Cells(p.cur.Plate()) {
				if x == c {
					if p.owner(c) != ubuild.NoShip {
						return cellLook{style.Clash, th.Bad.Reverse(true)}
					}
					return cellLook{style.Ghost, th.Ghost.Reverse(true)}
				}
			}
		}
		if p.owner(c) != ubuild.NoShip {
			return cellLook{style.Ship, th.Ship}
		}
		return cellLook{style.Water, th.Dim}
	}
	mark := g.Received(seat)[c]
	fleet := g.Fleet(seat)
	var lk cellLook
	switch mark.Result {
	case ubuild.Hit, ubuild.Sunk:
		if mark.Ship.Valid() && fleet[mark.Ship].Sunk {
			lk = cellLook{style.Sunk, th.Sunk}
		} else {
			lk = cellLook{style.Hit, th.Hit}
		}
	case ubuild.Miss:
		lk = cellLook{style.Miss, th.Miss}
	default:
		lk = cellLook{style.Water, th.Dim}
		if s, ok := v.cellValue(seat, c, full); ok && s != ubuild.NoShip {
			st := th.Ship
			if !own {
				st = th.Ghost
			}
			lk = cellLook{style.Ship, st}
		}
	}
	// Our target grid while aiming: marks and the cursor.
	if !full && v.mode == aiming {
		if v.aim.marked(c) {
			lk = cellLook{style.Marked, th.Mark}
		}
		if c == v.aim.cursor() {
			lk.st = lk.st.Reverse(true)
		}
	}
	return lk
}

// cellValue returns the ship on cell c of seat's grid (NoShip for water)
// if the viewer knows it: opened in the match, or (full) in the secrets.
func (v *View) cellValue(seat engine.Seat, c ubuild.Cell, full bool) (ubuild.Ship, bool) {
	if s, ok := v.g.Opened(seat, c); ok {
		return s, true
	}
	if !full {
		return ubuild.NoShip, false
	}
	b, ok := v.secrets().Value(ubuild.GridSlot(seat, c))
	if !ok || len(b) != 1 || b[0] > ubuild.NumShips {
		return ubuild.NoShip, false
	}
	return ubuild.Ship(int(b[0]) - 1), true
}

// weapons returns ship s's starting weapons if the viewer knows them.
func (v *View) weapons(seat engine.Seat, s ubuild.Ship, full bool) (int, bool) {
	st := v.g.Fleet(seat)[s]
	if st.WeaponsKnown() {
		return st.Weapons, true
	}
	if full {
		if b, ok := v.secrets().Value(ubuild.WeaponsSlot(seat, s)); ok && len(b) == 1 {
			return int(b[0]), true
		}
	}
	return 0, false
}

// drawFleetTable draws seat's fleet: for our own (full) fleet the weapons
// left and the hits taken; for the enemy's what is public.
func (v *View) drawFleetTable(scr tcell.Screen, x, y, w int, seat engine.Seat, full bool) {
	th := v.th
	title := "Fleet"
	if !full {
		title = "Enemy fleet"
	}
	barW := ubuild.NumShips
	for s := range ubuild.Ship(ubuild.NumShips) {
		if n, ok := v.weapons(seat, s, full); ok {
			barW = max(barW, n)
		}
	}
	// The hits column needs six cells ("✖ sunk"); a narrow table (the
	// enemy's at 80 columns) gives the weapons column only the bar's
	// width and a shorter heading rather than cut the hits.
	head, col := "weapons", max(barW+1, len("weapons")+1)
	if tableBarX+col+len("✖ sunk") > w {
		head, col = "arms", max(barW+1, len("arms")+1)
	}
	style.PrintSegs(scr, x, y, w, style.S(style.Pad(title, tableBarX), th.Accent), style.S(style.Pad(head, col), th.Dim), style.S("hits", th.Dim))
	fleet := v.g.Fleet(seat)
	for s := range ubuild.Ship(ubuild.NumShips) {
		st := fleet[s]
		ry := y + 1 + int(s)
		ptr, pst := " ", th.Base
		if full && !v.life.Snap.Spectator && v.mode == aiming && v.aim.ship == s {
			ptr, pst = style.Pointer, th.Accent
		}
		segs := []style.Seg{style.S(ptr, pst), style.S(style.Pad(shortName(s), tableBarX-1), th.Base)}
		n, known := v.weapons(seat, s, full)
		if known {
			left := n - st.Hits
			if st.Sunk || left < 0 {
				left = 0
			}
			segs = append(segs, style.S(strings.Repeat(style.Ship, left), th.Ship),
				style.S(style.Pad(strings.Repeat(style.Ghost, n-left), col-left), th.Dim))
		} else {
			segs = append(segs, style.S(style.Pad("?", col), th.Dim))
		}
		sinkAt := s.Plate()
		if known {
			sinkAt = min(sinkAt, n)
		}
		placing := full && !v.life.Snap.Spectator && v.mode == placing
		switch {
		case placing && v.place.cur == s:
			segs[0] = style.S(style.Pointer, th.Accent)
			segs = append(segs, style.S("placing", th.Accent))
		case placing && v.place.placed[s]:
			segs = append(segs, style.S(style.OK+" placed", th.Good))
		case placing:
			segs = append(segs, style.S("to place", th.Dim))
		case st.Sunk:
			segs = append(segs, style.S(style.Sunk+" sunk", th.Sunk))
		case st.Hits > 0:
			segs = append(segs, style.S(fmt.Sprintf("%s %d/%d", style.Hit, st.Hits, sinkAt), th.Hit))
		default:
			segs = append(segs, style.S(fmt.Sprintf("  0/%d", sinkAt), th.Dim))
		}
		style.PrintSegs(scr, x, ry, w, segs...)
		v.geo.fleetRows[s] = board.Rect{X: x, Y: ry, W: w, H: 1}
	}
}

// drawArmTable draws the weapon allocation of a custom fleet.
func (v *View) drawArmTable(scr tcell.Screen, x, y, w int) {
	th := v.th
	a := &v.arm
	st := th.Good
	if a.sum() != a.total {
		st = th.Warn
	}
	style.PrintSegs(scr, x, y, w, style.S(style.Pad("Build", tableBarX), th.Accent), style.S(fmt.Sprintf("%d of %d weapons", a.sum(), a.total), st))
	v.geo.armBarX = x + tableBarX
	for s := range ubuild.Ship(ubuild.NumShips) {
		ry := y + 1 + int(s)
		ptr, rst := " ", th.Base
		if a.sel == s {
			ptr, rst = style.Pointer, th.Selected
		}
		n := a.w[s]
		style.PrintSegs(scr, x, ry, w,
			style.S(ptr, th.Accent), style.S(style.Pad(shortName(s), tableBarX-1), rst),
			style.S(strings.Repeat(style.Ship, n), th.Ship),
			style.S(strings.Repeat(style.Water, ubuild.MaxWeapons-n), th.Dim),
			style.S(fmt.Sprintf(" %2d", n), rst))
		v.geo.armRows[s] = board.Rect{X: x, Y: ry, W: w, H: 1}
	}
}

// volleyText describes the latest volley and its answer.
func (v *View) volleyText() string {
	vl, ok := v.g.LastVolley()
	if !ok {
		switch v.g.Phase() {
		case ubuild.PhaseSetup:
			return "Setup: each side commits its fleet's hash before anyone fires."
		case ubuild.PhaseFirst:
			return "Both fleets committed: a joint coin flip picks who fires first."
		}
		if f := v.g.FirstPlayer(); f != engine.NoSeat {
			return fmt.Sprintf("%s fires first (joint coin flip).", v.life.Snap.Name(f))
		}
		return ""
	}
	who := v.life.Snap.Name(vl.Attacker)
	if vl.Ship != ubuild.NoShip {
		who += "'s " + shortName(vl.Ship)
	}
	parts := make([]string, len(vl.Shots))
	for i, c := range vl.Shots {
		parts[i] = c.String()
		if i < len(vl.Results) {
			parts[i] += " " + resultWord(vl.Results[i])
		}
	}
	tail := ""
	if vl.Results == nil {
		tail = " (awaiting the answer)"
	}
	return fmt.Sprintf("Turn %d: %s fired %s%s", vl.Turn, who, strings.Join(parts, ", "), tail)
}

func resultWord(r ubuild.Report) string {
	switch r.Result {
	case ubuild.Miss:
		return style.Miss + " miss"
	case ubuild.Hit:
		return style.Hit + " hit " + shortName(r.Ship)
	case ubuild.Sunk:
		return style.Sunk + " sank " + shortName(r.Ship)
	}
	return "?"
}
