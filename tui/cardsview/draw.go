package cardsview

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// Layout of the board (house values of the interface).
const (
	keepRecent = 6  // changes kept for the "what changed" lines
	maxCellW   = 18 // the widest a grid cell grows
	minCellW   = 9  // below this the board says it needs more room
	labelW     = 2  // the row letter and its space
)

// geometry is where the last draw put the clickable parts.
type geometry struct {
	cells [cursorRows][cards.GridCols]board.Rect
	hand  []board.Rect
}

func (g geometry) cellAt(x, y int) (int, int, bool) {
	for r := range g.cells {
		if c, ok := board.Hit(g.cells[r][:], x, y); ok {
			return r, c, true
		}
	}
	return 0, 0, false
}

func (g geometry) handAt(x, y int) (int, bool) { return board.Hit(g.hand, x, y) }

// Draw draws both grids, the hand, the piles, the powers and the changes.
func (v *View) Draw(scr tcell.Screen) {
	v.geo = geometry{}
	v.menu.Undraw()
	th := v.th
	x, y, w, h, ok := v.Begin(scr, th, v.g != nil)
	if !ok {
		return
	}
	if w < labelW+cards.GridCols*minCellW || h < 2*(2+cards.GridRows)+2 {
		style.Print(scr, x, y, w, th.Warn, "the board needs more room")
		return
	}
	cw := min(maxCellW, (w-labelW)/cards.GridCols)
	info := v.infoWant(w)
	rowH := 2
	if h < 2*(2+2*cards.GridRows)-1+info-len(v.recent)+1 {
		rowH = 1
	}
	// The lower grid shares the upper grid's column numbers when room is
	// short.
	topH := 2 + cards.GridRows*rowH
	lowH := topH
	spare := h - 2*topH - info
	if spare < 0 {
		lowH--
		spare++
	}
	me := v.seat()
	cy := y
	v.drawGrid(scr, x, cy, w, cw, rowH, 1-me, 0, true)
	cy += topH
	if spare > 0 {
		cy++
		spare--
	}
	if v.menu.Open() {
		v.menu.Draw(scr, th, x, cy, w, lowH)
	} else {
		v.drawGrid(scr, x, cy, w, cw, rowH, me, cards.GridRows, lowH == topH)
	}
	cy += lowH
	if spare > 0 {
		cy++
	}
	v.drawInfo(scr, x, cy, w, y+h-cy)
}

// infoWant is how many lines the information below the grids would like.
func (v *View) infoWant(w int) int {
	tail := min(len(v.recent), 3)
	if v.legend {
		tail = len(legend)
	}
	return len(v.handLines(w)) + len(v.powerLines(w)) + 2 + tail
}

// drawGrid draws seat's coordinate grid; rowBase is the cursor row of its
// first row (0 for the grid on top, 3 for the one below).
func (v *View) drawGrid(scr tcell.Screen, x, y, w, cw, rowH int, seat engine.Seat, rowBase int, numbers bool) {
	th := v.th
	title := "Your grid"
	switch {
	case v.life.Snap.Spectator:
		title = fmt.Sprintf("%s · %s", v.life.Snap.Name(seat), seat)
	case seat != v.seat():
		title = "Target · " + v.life.Snap.Name(seat)
	}
	if v.g.Turn() == seat && !v.g.Outcome().Done {
		title += " · on turn"
	}
	right := fmt.Sprintf("hand %d · draw %d", len(v.g.Hand(seat)), v.g.DrawPile(seat))
	tw := style.Print(scr, x, y, w, th.Accent, title)
	if rw := style.Width(right); tw+2+rw <= w {
		style.Print(scr, x+w-rw, y, rw, th.Dim, right)
	}
	top := y + 1
	if numbers {
		for c := range cards.GridCols {
			style.Print(scr, x+labelW+c*cw+1, top, 2, th.Dim, fmt.Sprint(c+1))
		}
		top++
	}
	grid := v.g.Grid(seat)
	for r := range cards.GridRows {
		ry := top + r*rowH
		style.Print(scr, x, ry, 1, th.Dim, string(rune('A'+r)))
		for c := range cards.GridCols {
			pos := r*cards.GridCols + c
			cx := x + labelW + c*cw
			l1, l2 := v.cellLook(seat, pos, grid[pos], cw-1, rowH == 1)
			cursor := v.mode == playing && !v.menu.Open() && v.row == rowBase+r && v.col == c
			v.drawCell(scr, cx, ry, cw-1, l1, cursor)
			if rowH > 1 {
				v.drawCell(scr, cx, ry+1, cw-1, l2, cursor)
			}
			v.geo.cells[rowBase+r][c] = board.Rect{X: cx, Y: ry, W: cw, H: rowH}
		}
	}
}

// drawCell prints one line of a cell, reversed under the cursor.
func (v *View) drawCell(scr tcell.Screen, x, y, w int, segs []style.Seg, cursor bool) {
	if cursor {
		style.Fill(scr, x, y, w, 1, v.th.Cursor)
		for i := range segs {
			segs[i].Style = segs[i].Style.Reverse(true)
		}
	}
	style.PrintSegs(scr, x, y, w, segs...)
}

// cellLook decides how a grid cell is drawn: its first line (what the card
// is) and its second (hits, shield, power); compact puts both on one line.
func (v *View) cellLook(seat engine.Seat, pos int, c cards.Cell, w int, compact bool) ([]style.Seg, []style.Seg) {
	th := v.th
	if tp, by, ok := v.g.Tapped(); ok && by != seat && tp == pos && !c.Faceup {
		return []style.Seg{style.S(style.Marked+" tapped", th.Mark)}, []style.Seg{style.S("flipping…", th.Mark)}
	}
	if !c.Faceup {
		return []style.Seg{style.S(strings.Repeat(glyphBack, w), th.Dim)}, nil
	}
	if !c.Ship.Valid() {
		return []style.Seg{style.S(style.Miss+" miss", th.Miss)}, nil
	}
	var sv cards.ShipView
	for _, s := range v.g.Fleet(seat) {
		if s.Ship == c.Ship {
			sv = s
		}
	}
	if sv.Sunk {
		return []style.Seg{style.S(style.Sunk+shipName(c.Ship), th.Sunk)}, []style.Seg{style.S("sunk", th.Sunk)}
	}
	st := th.Ghost
	if seat == v.seat() && !v.life.Snap.Spectator {
		st = th.Ship
	}
	l1 := []style.Seg{style.S(style.Ship+shipName(c.Ship), st)}
	dst := th.Dim
	if sv.Damage > 0 {
		dst = th.Hit
	}
	l2 := []style.Seg{style.S(fmt.Sprintf("%s%d/%d", style.Hit, sv.Damage, c.Ship.Hits()), dst)}
	if sv.Shield {
		l2 = append(l2, style.S(fmt.Sprintf(" %s%d/%d", glyphShield, sv.ShieldDamage, cards.ShieldStrength), th.Accent))
	}
	if sv.PowerOn {
		l2 = append(l2, style.S(" "+glyphPowerOn, th.Good))
	}
	if pegs := pegsShort(sv.Pegs); pegs != "" && style.SegsWidth(l2)+1+style.Width(pegs) <= w {
		l2 = append(l2, style.S(" "+pegs, th.Hit))
	}
	if compact {
		if style.SegsWidth(l1)+style.SegsWidth(l2) < w {
			l1 = append(l1, style.S(" ", th.Base))
			l1 = append(l1, l2...)
		}
		return l1, nil
	}
	return l1, l2
}

// handItem is one card of a hand as drawn.
type handItem struct {
	text string
	st   tcell.Style
}

// handItems returns the local player's hand as drawn, in hand order.
func (v *View) handItems(seat engine.Seat, wide bool) []handItem {
	faces := v.g.HandFaces(seat, v.secrets())
	hand := v.g.Hand(seat)
	must := v.g.MustPlayFrom()
	out := make([]handItem, len(faces))
	for i, f := range faces {
		label := faceShort(f)
		if wide {
			label = faceLabel(f)
		}
		st := faceStyle(v.th, f)
		if must != nil && v.g.Turn() == seat && !containsRef(must, hand[i]) {
			st = v.th.Dim
		}
		out[i] = handItem{fmt.Sprintf("%d %s", i+1, label), st}
	}
	return out
}

func containsRef(rs []cards.CardRef, c cards.CardRef) bool {
	for _, r := range rs {
		if r == c {
			return true
		}
	}
	return false
}

// handLines lays the local hand out in lines of at most w cells; each
// entry is the indices of the cards on that line.
func (v *View) handLines(w int) [][]int {
	if v.life.Snap.Spectator {
		return [][]int{nil, nil}
	}
	items := v.handItems(v.seat(), w >= 70)
	var lines [][]int
	var cur []int
	cx := 6
	for i, it := range items {
		iw := style.Width(it.text) + 2
		if len(cur) > 0 && cx+iw > w {
			lines = append(lines, cur)
			cur, cx = nil, 6
		}
		cur = append(cur, i)
		cx += iw
	}
	return append(lines, cur)
}

// drawInfo draws the hand, the powers in force, the discard piles and what
// changed, as many as fit in h lines.
func (v *View) drawInfo(scr tcell.Screen, x, y, w, h int) {
	th := v.th
	end := y + h
	me, them := v.seat(), 1-v.seat()
	if v.life.Snap.Spectator {
		for _, s := range []engine.Seat{them, me} {
			if y >= end {
				return
			}
			segs := []style.Seg{style.S(v.life.Snap.Name(s)+": ", th.Accent)}
			for _, it := range v.handItems(s, false) {
				segs = append(segs, style.S(it.text+"  ", it.st))
			}
			style.PrintSegs(scr, x, y, w, segs...)
			y++
		}
	} else {
		items := v.handItems(me, w >= 70)
		v.geo.hand = make([]board.Rect, len(items))
		for li, line := range v.handLines(w) {
			if y >= end {
				return
			}
			if li == 0 {
				style.Print(scr, x, y, 5, th.Accent, "Hand")
			}
			cx := x + 6
			for _, i := range line {
				it := items[i]
				st := it.st
				if v.mode == playing && i == v.sel {
					st = th.Selected
				}
				n := style.Print(scr, cx, y, x+w-cx, st, it.text)
				v.geo.hand[i] = board.Rect{X: cx, Y: y, W: n, H: 1}
				cx += n + 2
			}
			if len(items) == 0 {
				style.Print(scr, cx, y, w-6, th.Dim, "empty")
			}
			y++
		}
	}
	for _, line := range v.powerLines(w) {
		if y >= end {
			return
		}
		style.PrintSegs(scr, x, y, w, line...)
		y++
	}
	for _, s := range []engine.Seat{them, me} {
		if y >= end {
			return
		}
		style.PrintSegs(scr, x, y, w, v.discardSegs(s)...)
		y++
	}
	if v.legend {
		for _, line := range legend {
			if y >= end {
				return
			}
			style.Print(scr, x, y, w, th.Base, line)
			y++
		}
		return
	}
	// The newest changes, as many as fit, newest last.
	n := min(len(v.recent), end-y)
	for i, line := range v.recent[len(v.recent)-n:] {
		st := th.Dim
		if i == n-1 {
			st = th.Base
		}
		style.Print(scr, x, y, w, st, style.Truncate("· "+line, w))
		y++
	}
}

// powerLines lists the ship powers in force on both sides: one line if it
// fits in w cells, else one line a side.
func (v *View) powerLines(w int) [][]style.Seg {
	th := v.th
	head := style.S("Powers  ", th.Accent)
	if v.g == nil {
		return nil
	}
	if v.g.Variant() == cards.VariantBeginner {
		return [][]style.Seg{{head, style.S("none (beginner rules)", th.Dim)}}
	}
	var sides [][]style.Seg
	for _, s := range []engine.Seat{v.seat(), 1 - v.seat()} {
		segs := []style.Seg{style.S(v.who(s)+": ", th.Base)}
		var long, short []string
		for _, sv := range v.g.Fleet(s) {
			if sv.PowerOn {
				long = append(long, fmt.Sprintf("%s%s %s", glyphPowerOn, shipName(sv.Ship), powerText(sv.Ship)))
				short = append(short, glyphPowerOn+shipName(sv.Ship))
			}
		}
		text := strings.Join(long, ", ")
		if style.Width(head.Text)+style.SegsWidth(segs)+style.Width(text) > w {
			text = strings.Join(short, " ")
		}
		if len(long) == 0 {
			segs = append(segs, style.S("none", th.Dim))
		} else {
			segs = append(segs, style.S(text, th.Good))
		}
		sides = append(sides, segs)
	}
	one := append(append(append([]style.Seg{head}, sides[0]...), style.S(" · ", th.Dim)), sides[1]...)
	if style.SegsWidth(one) <= w {
		return [][]style.Seg{one}
	}
	return [][]style.Seg{append([]style.Seg{head}, sides[0]...), append([]style.Seg{style.S("        ", th.Base)}, sides[1]...)}
}

// discardSegs draws seat's discard pile, counted by face.
func (v *View) discardSegs(s engine.Seat) []style.Seg {
	th := v.th
	d := v.g.Discard(s)
	segs := []style.Seg{style.S("Discard ", th.Accent), style.S(v.who(s)+": ", th.Base)}
	n := 0
	for f := cards.White; f <= cards.RepairDraw; f++ {
		if d[f] == 0 {
			continue
		}
		segs = append(segs, style.S(fmt.Sprintf("%s×%d ", faceShort(f), d[f]), faceStyle(th, f)))
		n += d[f]
	}
	if n == 0 {
		segs = append(segs, style.S("empty", th.Dim))
	}
	return segs
}
