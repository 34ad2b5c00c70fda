package seaview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// Layout of the board, in screen cells: two columns a space (the glyph and
// a gap) so that the 12 x 16 board looks about as wide as it is long, with
// the row numbers on the left and the column letters on top.
const (
	labelW  = 3                       // "16 "
	cellW   = 2                       // glyph and gap
	boardW  = labelW + cellW*sea.Cols // 27
	boardH  = 1 + sea.Rows            // the letters, then 16 rows
	paneGap = 2                       // between the board and the side pane
	minPane = 16                      // narrowest side pane worth drawing
)

// rowKind says what a clickable row of the side pane stands for.
type rowKind int

const (
	rowNone    rowKind = iota
	rowFighter         // a fighter (index)
	rowDie             // a die of the roll (index)
	rowTarget          // a destroyer target (index into the list)
	rowMissile         // a missile kind to load (sea.Missile)
)

// paneRow is a clickable row's meaning.
type paneRow struct {
	kind  rowKind
	index int
}

// rowGeo is where a clickable row was drawn.
type rowGeo struct {
	board.Rect
	row paneRow
}

// geometry is where the last draw put the clickable parts.
type geometry struct {
	bx, by int // the screen position of space A1
	ok     bool
	rows   []rowGeo
}

// cellAt returns the space under screen position x, y.
func (g geometry) cellAt(x, y int) (sea.Cell, bool) {
	if !g.ok {
		return sea.NoCell, false
	}
	dx, dy := x-g.bx, y-g.by
	if dx < 0 || dy < 0 || dx >= cellW*sea.Cols || dy >= sea.Rows {
		return sea.NoCell, false
	}
	return sea.At(dx/cellW, dy), true
}

// rowAt returns the clickable pane row under x, y.
func (g geometry) rowAt(x, y int) (paneRow, bool) {
	for _, r := range g.rows {
		if r.Has(x, y) {
			return r.row, true
		}
	}
	return paneRow{}, false
}

// screenOf returns where space c is drawn.
func (g geometry) screenOf(c sea.Cell) (int, int) {
	return g.bx + cellW*c.Col(), g.by + c.Row()
}

// look is how one space is drawn.
type look struct {
	glyph string
	st    tcell.Style
}

// Draw draws the board, the side pane and the legend.
func (v *View) Draw(scr tcell.Screen) {
	v.geo = geometry{}
	th := v.th
	x, y, w, h, ok := v.Begin(scr, th, v.g != nil)
	if !ok {
		return
	}
	if w < boardW || h < boardH {
		style.Print(scr, x, y, w, th.Warn, fmt.Sprintf("the board needs %dx%d", boardW, boardH))
		return
	}
	v.drawBoard(scr, x, y)
	pw := w - boardW - paneGap
	var areas []rect
	if h > boardH {
		areas = append(areas, rect{x, y + boardH, boardW, h - boardH})
	}
	if pw >= minPane {
		used := v.drawPane(scr, x+boardW+paneGap, y, pw, h)
		if v.legendOn {
			return // the pane shows it all
		}
		if used+1 < y+h {
			areas = append(areas, rect{x + boardW + paneGap, used + 1, pw, y + h - used - 1})
		}
	} else if h > boardH {
		areas[0].w = w
	}
	v.drawLegend(scr, areas)
}

// rect is a rectangle of the screen.
type rect struct{ x, y, w, h int }

// drawBoard draws the letters, the row numbers and every space.
func (v *View) drawBoard(scr tcell.Screen, x, y int) {
	th := v.th
	for c := range sea.Cols {
		style.Print(scr, x+labelW+cellW*c, y, 1, th.Dim, string(rune('A'+c)))
	}
	v.geo.bx, v.geo.by, v.geo.ok = x+labelW, y+1, true
	me := v.seat()
	ov := v.overlay()
	for r := range sea.Rows {
		st := th.Dim
		if !v.life.Snap.Spectator && sea.HalfOf(r) == int(me) {
			st = th.Accent // your half
		}
		style.Print(scr, x, y+1+r, 2, st, fmt.Sprintf("%2d", r+1))
		for col := range sea.Cols {
			c := sea.At(col, r)
			base := v.base(c)
			lk := base
			if o, ok := ov[c]; ok {
				lk = o
			}
			if c == v.cur && v.showCursor() {
				lk.st = lk.st.Reverse(true)
			}
			sx, sy := v.geo.screenOf(c)
			style.Print(scr, sx, sy, 1, lk.st, lk.glyph)
			if lk.glyph == base.glyph {
				if m := v.loadMark(c); m != "" {
					style.Print(scr, sx+1, sy, 1, th.Dim, m)
				}
			}
		}
	}
}

// loadMark returns the letter drawn beside a fighter for its missile:
// "h" a Harpoon, "s" a Sidewinder when the viewer knows which, "m" an
// enemy's missile of unknown kind; "" for none.
func (v *View) loadMark(c sea.Cell) string {
	o := v.at(c)
	if o.Kind != sea.FighterPiece {
		return ""
	}
	f := v.fighters(o.Owner)[o.Index]
	switch {
	case !f.Armed:
		return ""
	case f.Missile == sea.Harpoon:
		return gLoadHarpoon
	case f.Missile == sea.Sidewinder:
		return gLoadSidewinder
	}
	return gLoadHidden
}

// showCursor reports whether the cursor is drawn: while the player
// decides on the board, or inspects it between decisions.
func (v *View) showCursor() bool {
	switch v.mode {
	case mStrengths, mLoad, mDamage, mSidewinder:
		return false
	}
	return !v.life.Snap.Spectator || v.life.Req != nil
}

// base is how space c looks with no decision under way.
func (v *View) base(c sea.Cell) look {
	th := v.th
	me := v.seat()
	o := v.at(c)
	own := o.Owner == me
	pst := th.Ship
	if !own {
		pst = th.Bad
	}
	switch o.Kind {
	case sea.CarrierPiece:
		cv := v.fr().carriers[o.Owner]
		switch {
		case c == cv.Bow:
			return look{bowGlyph(true, own, cv.Facing), pst}
		case cv.Damaged:
			return look{gDamaged, th.Hit}
		case own:
			return look{gOwnHull, pst}
		}
		return look{gFoeHull, pst}
	case sea.DestroyerPiece:
		dv := v.fr().destroyers[o.Owner][o.Index]
		if c == dv.Bow {
			return look{bowGlyph(false, own, dv.Facing), pst}
		}
		if own {
			return look{gOwnHull, pst}
		}
		return look{gFoeHull, pst}
	case sea.FighterPiece:
		f := v.fighters(o.Owner)[o.Index]
		return look{fighterGlyph(f, own), pst}
	case sea.HarpoonPiece:
		if own {
			return look{gOwnHarp, pst}
		}
		return look{gFoeHarp, pst}
	}
	if v.fr().shallow[c] {
		return look{gShallow, th.Good}
	}
	if v.fr().wreck[c] {
		return look{gSunk, th.Sunk}
	}
	for s := range engine.Seat(2) {
		if cv := v.fr().carriers[s]; cv.Placed && !cv.Sunk && cv.Launch == c {
			return look{gLaunch, th.Dim}
		}
	}
	return look{gWater, th.Dim}
}

// overlay returns the spaces the decision under way draws differently:
// previews of paths and places, targets, marks.
func (v *View) overlay() map[sea.Cell]look {
	out := map[sea.Cell]look{}
	switch v.mode {
	case mPlace:
		v.pl.overlay(v, out)
	case mHarpoonPick:
		v.harpoonPickOverlay(out)
	case mPath:
		v.path.overlay(v, out)
	case mReturn:
		v.ret.overlay(v, out)
	case mScramble:
		v.scr.overlay(v, out)
	case mDestroyers:
		v.ds.overlay(v, out)
	case mDogfighter:
		v.pickOverlay(out)
	case mLaunch:
		v.launchOverlay(out)
	}
	// The fighters of a dogfight under way stand out.
	if df, ok := v.g.Dogfight(); ok {
		for side, f := range df.Fighters {
			if fs := v.fighters(df.Seats[side]); f >= 0 && f < len(fs) && fs[f].Cell.Valid() {
				lk, ok := out[fs[f].Cell]
				if !ok {
					lk = v.base(fs[f].Cell)
				}
				lk.st = lk.st.Reverse(true)
				out[fs[f].Cell] = lk
			}
		}
	}
	return out
}

// reachLook marks a destination: a hit on a ship, or a space reached.
func (v *View) reachLook(d sea.Destination) look {
	if d.Hit {
		return look{gTarget, v.th.Hit}
	}
	return look{gReach, v.th.Ghost}
}

// drawPath draws path (not its last space, which the caller draws).
func (v *View) drawPath(out map[sea.Cell]look, path []sea.Cell) {
	for i, c := range path {
		if i < len(path)-1 {
			out[c] = look{gPath, v.th.Mark}
		}
	}
}

// drawLegend draws the legend in whichever free area holds it whole
// (beside the board below the side pane, or below the board), else flows
// it through both, top first, ending with how to see all of it.
func (v *View) drawLegend(scr tcell.Screen, areas []rect) {
	for _, a := range areas {
		if flowLegend(nil, v.th, []rect{a}, legend) == len(legend) {
			flowLegend(scr, v.th, []rect{a}, legend)
			return
		}
	}
	slices.SortFunc(areas, func(a, b rect) int { return a.y - b.y })
	entries := legend
	if v.Bindings() != nil {
		// Leave room for the key that shows the whole legend.
		more := struct{ glyph, text string }{"g", "all glyphs"}
		for len(entries) > 0 && flowLegend(nil, v.th, areas, append(slices.Clone(entries), more)) <= len(entries) {
			entries = entries[:len(entries)-1]
		}
		entries = append(slices.Clone(entries), more)
	}
	flowLegend(scr, v.th, areas, entries)
}

// flowLegend lays entries out through areas (drawing them when scr is not
// nil) and returns how many fitted.
func flowLegend(scr tcell.Screen, th *style.Theme, areas []rect, entries []struct{ glyph, text string }) int {
	i := 0
	for _, a := range areas {
		cx, cy := a.x, a.y
		for i < len(entries) && cy < a.y+a.h {
			e := entries[i]
			n := style.Width(e.glyph) + 1 + style.Width(e.text)
			if cx > a.x && cx+n > a.x+a.w {
				cx, cy = a.x, cy+1
				continue
			}
			if n > a.w {
				return i
			}
			if scr != nil {
				style.PrintSegs(scr, cx, cy, a.x+a.w-cx, style.S(e.glyph, th.Base), style.S(" "+e.text, th.Dim))
			}
			cx += n + 2
			i++
		}
	}
	return i
}

// pane is a cursor down the side pane that stops at its bottom.
type pane struct {
	v       *View
	scr     tcell.Screen
	x, y, w int
	end     int
}

// full reports whether the pane has no row left.
func (p *pane) full() bool { return p.y >= p.end }

// line draws one row of segments, clipped; it returns false once full.
func (p *pane) line(segs ...style.Seg) bool {
	if p.full() {
		return false
	}
	style.PrintSegs(p.scr, p.x, p.y, p.w, segs...)
	p.y++
	return true
}

// text draws s wrapped in st.
func (p *pane) text(s string, st tcell.Style) {
	for _, l := range style.Wrap(s, p.w, " ") {
		if !p.line(style.S(l, st)) {
			return
		}
	}
}

// clickable draws a row and remembers it for the mouse.
func (p *pane) clickable(r paneRow, segs ...style.Seg) {
	if p.full() {
		return
	}
	p.v.geo.rows = append(p.v.geo.rows, rowGeo{Rect: board.Rect{X: p.x, Y: p.y, W: p.w, H: 1}, row: r})
	p.line(segs...)
}

// token is one clickable word of a row of tokens.
type token struct {
	row  paneRow
	text string
	st   tcell.Style
}

// tokens flows clickable words across rows after a label.
func (p *pane) tokens(label string, lst tcell.Style, ts []token) {
	if p.full() {
		return
	}
	cx := p.x + style.Print(p.scr, p.x, p.y, p.w, lst, label)
	for _, t := range ts {
		n := style.Width(t.text)
		if cx+n > p.x+p.w && cx > p.x {
			p.y++
			if p.full() {
				return
			}
			cx = p.x + 1
		}
		style.Print(p.scr, cx, p.y, p.x+p.w-cx, t.st, t.text)
		p.v.geo.rows = append(p.v.geo.rows, rowGeo{Rect: board.Rect{X: cx, Y: p.y, W: n, H: 1}, row: t.row})
		cx += n + 1
	}
	p.y++
}

// gap leaves an empty row if there is room for more after it.
func (p *pane) gap() {
	if p.y+1 < p.end {
		p.y++
	}
}

// dice renders faces as "5 4 4 2".
func dice(faces []int) string {
	parts := make([]string, len(faces))
	for i, f := range faces {
		parts[i] = fmt.Sprint(f)
	}
	return strings.Join(parts, " ")
}
