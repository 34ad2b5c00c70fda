package airview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// Layout of the board, in cells (house).
const (
	cellW  = 4                          // a marker, then three for a plane
	labelW = 4                          // a row's edge number and a space
	boardW = labelW + cellW*air.Columns // 40
	topH   = 2 + air.Rows               // the header, the column numbers, the rows
	sideW  = 10                         // the narrowest hand beside the board
	longW  = 30                         // a hand this wide shows cards in words
	minW   = boardW                     // narrower, the board says it needs room
	minH   = topH                       // shorter, likewise
	wideSq = 3                          // rows of a squadron board with room: name, F-35, F-22
)

// geometry is where the last draw put the clickable parts.
type geometry struct {
	ok     bool
	x0, y0 int          // the top-left cell of the board: space (0, Rows-1)
	hand   []board.Rect // each hand card's row
}

// spaceAt returns the board space under screen position x, y.
func (g geometry) spaceAt(x, y int) (air.Pos, bool) {
	if !g.ok {
		return air.Pos{}, false
	}
	dx, dy := x-g.x0, y-g.y0
	if dx < 0 || dy < 0 || dx >= cellW*air.Columns || dy >= air.Rows {
		return air.Pos{}, false
	}
	return air.Pos{X: dx / cellW, Y: air.Rows - 1 - dy}, true
}

// handAt returns the hand card drawn at x, y.
func (g geometry) handAt(x, y int) (int, bool) { return board.Hit(g.hand, x, y) }

// Draw draws the header, the board, the hand beside it and the turn
// order, the latest changes and the squadron boards below.
func (v *View) Draw(scr tcell.Screen) {
	v.geo = geometry{}
	th := v.th
	x, y, w, h, ok := v.Begin(scr, th, v.g != nil)
	if !ok {
		return
	}
	if w < minW || h < minH {
		style.Print(scr, x, y, w, th.Warn, style.Truncate(fmt.Sprintf("the board needs %dx%d (l narrows the log)", minW, minH), w))
		return
	}
	v.drawHeader(scr, x, y, w)
	v.drawBoard(scr, x, y+1)
	if side := w - boardW - 1; side >= sideW {
		v.drawSide(scr, x+boardW+1, y+1, side, topH-1)
	}
	if h > topH {
		v.drawBelow(scr, x, y+topH, w, h-topH)
	}
}

// RowsNeeded is the fewest rows that show the whole board: the header and
// grid, the order and "Last:" lines, and every squadron in its compact
// form (the match screen keeps them before it gives its prompt a second
// row).
func (v *View) RowsNeeded() int {
	if v.g == nil {
		return 0
	}
	return topH + 2 + v.g.Seats() + 1
}

// drawHeader draws the round, what the match is doing, and the piles.
func (v *View) drawHeader(scr tcell.Screen, x, y, w int) {
	th := v.th
	name, left := v.g.DrawPile()
	piles := fmt.Sprintf("deck %d · discard %d", left, len(v.g.DiscardPile()))
	if name != air.DeckName {
		piles = fmt.Sprintf("%s %d · discard %d", name, left, len(v.g.DiscardPile()))
	}
	text := fmt.Sprintf("Round %d · %s", v.g.Round(), v.phaseText())
	if w >= len([]rune(text))+len([]rune(piles))+2 {
		style.Print(scr, x+w-len([]rune(piles)), y, len([]rune(piles)), th.Dim, piles)
		w -= len([]rune(piles)) + 1
	}
	style.Print(scr, x, y, w, th.Accent, style.Truncate(text, w))
}

// phaseText says what the match is doing now.
func (v *View) phaseText() string {
	g := v.g
	if o := g.Outcome(); o.Done {
		if o.Draw || len(o.Winners) == 0 {
			return "draw: " + v.life.Snap.Say(o.Why())
		}
		var ws []string
		for _, s := range o.Winners {
			ws = append(ws, v.squadName(s))
		}
		return fmt.Sprintf("%s won: %s", strings.Join(ws, " and "), v.life.Snap.Say(o.Why()))
	}
	n := g.Next()
	switch n.Kind {
	case engine.NeedShuffle:
		return n.Prompt + " (every seat shuffles, with proofs)"
	case engine.NeedDeal:
		return fmt.Sprintf("dealing %s's hand", v.life.Snap.Name(n.Seat))
	case engine.NeedChoice:
		return "every squadron chooses its cards in secret"
	case engine.NeedOpen:
		return "the chosen cards are turned over"
	}
	t, ok := g.Active()
	if !ok {
		return n.Prompt
	}
	p, _ := g.PlaneByID(t.Plane)
	s := fmt.Sprintf("turn %d of %d: %s flies #%d %s", t.Index+1, len(g.Chosen()), p.Name(), t.Card.Number, maneuverText(t.Card.Own))
	if n.Kind == engine.NeedRandom {
		s += " · " + n.Prompt
	}
	return s
}

// squadName is a seat's squadron with its player's name, such as "ann's
// Blue".
func (v *View) squadName(s engine.Seat) string {
	sq := "?"
	if s >= 0 && int(s) < len(air.Squadron) {
		sq = air.Squadron[s]
	}
	return fmt.Sprintf("%s's %s", v.life.Snap.Name(s), sq)
}

// planeStyle colours a seat's planes: the viewer's, teammates', and the
// others' (in the audit, each seat its own).
func (v *View) planeStyle(s engine.Seat) tcell.Style {
	th := v.th
	if v.life.Snap.Spectator {
		return [4]tcell.Style{th.Ship, th.Warn, th.Good, th.Accent}[int(s)&3]
	}
	switch {
	case s == v.seat():
		return th.Ship
	case !v.g.Opposes(v.seat(), s):
		return th.Good
	}
	return th.Warn
}

// drawBoard draws the edge numbers and the spaces, with the planes, the
// cone of the selected plane and weapon, the target and the wingman
// spaces.
func (v *View) drawBoard(scr tcell.Screen, x, y int) {
	th := v.th
	g := v.g
	cols, rows := air.EdgeLabels()
	for c, l := range cols {
		style.Print(scr, x+labelW+c*cellW+1, y, 2, th.Dim, fmt.Sprint(l))
	}
	v.geo.ok, v.geo.x0, v.geo.y0 = true, x+labelW, y+1
	at := map[air.Pos]air.Plane{}
	for _, p := range flying(g, engine.NoSeat) {
		at[p.Pos] = p
	}
	cone := map[air.Pos]bool{}
	sel, hasSel := v.selected()
	if hasSel {
		for _, p := range g.Cone(sel.ID, v.weapon) {
			cone[p] = true
		}
	}
	coneGlyph := gMissile
	if v.weapon == air.Cannon {
		coneGlyph = gCannon
	}
	wing := map[air.Pos]bool{}
	cursor := false
	if v.mode == acting {
		for _, p := range v.wingmanSpaces() {
			wing[p] = true
		}
		cursor = len(wing) > 0
	}
	for r := range air.Rows {
		py := air.Rows - 1 - r
		sy := y + 1 + r
		style.Print(scr, x, sy, labelW-1, th.Dim, fmt.Sprintf("%3d", rows[py]))
		for c := range air.Columns {
			pos := air.Pos{X: c, Y: py}
			sx := x + labelW + c*cellW
			mark, mst := " ", th.Base
			body, bst := " "+gEmpty+" ", th.Dim
			if p, ok := at[pos]; ok {
				body, bst = planeGlyph(p), v.planeStyle(p.Seat)
				switch {
				case hasSel && p.ID == sel.ID:
					mark, mst = gActing, th.Accent
				case v.mode == acting && p.ID == v.tgt:
					mark, mst = gTarget, th.Mark
				case cone[pos] && hasSel && g.Opposes(sel.Seat, p.Seat):
					mark, mst = coneGlyph, th.Mark
				}
			} else {
				switch {
				case wing[pos]:
					body, bst = " "+gWingman+" ", th.Accent
				case cone[pos]:
					body, bst = " "+coneGlyph+" ", th.Mark
				}
			}
			if cursor && pos == v.cur {
				mst, bst = mst.Reverse(true), bst.Reverse(true)
			}
			style.Print(scr, sx, sy, 1, mst, mark)
			style.Print(scr, sx+1, sy, 3, bst, body)
		}
	}
}

// drawSide draws the hand beside the board (and, with room, the others'
// hand sizes).
func (v *View) drawSide(scr tcell.Screen, x, y, w, h int) {
	th := v.th
	g := v.g
	row := y
	line := func(st tcell.Style, text string) {
		if row < y+h {
			style.Print(scr, x, row, w, st, style.Truncate(text, w))
			row++
		}
	}
	me := v.seat()
	if v.life.Snap.Spectator {
		line(th.Accent, "Hands")
		for s := range g.Seats() {
			line(th.Base, fmt.Sprintf("%s %d", air.Squadron[s], len(g.Hand(engine.Seat(s)))))
		}
		line(th.Dim, "(never opened)")
		return
	}
	if v.out() {
		line(th.Warn, "Shot down: you are out")
		line(th.Dim, "nothing waits for you;")
		line(th.Dim, "q leaves, forfeiting nothing")
		return
	}
	hand := g.Hand(me)
	title := fmt.Sprintf("Hand (%d)", len(hand))
	if w >= longW {
		title = fmt.Sprintf("Your hand (%d cards)", len(hand))
	}
	line(th.Accent, title)
	for i, ref := range hand {
		if row >= y+h {
			break
		}
		cur, cst := " ", th.Base
		given := " "
		st := th.Base
		if v.mode == choosing {
			if i == v.choice.cursor {
				cur, cst = gActing, th.Accent
				st = th.Selected
			}
			if id := v.choice.holder(ref); id >= 0 {
				p, _ := g.PlaneByID(id)
				given = gF35
				if p.Kind == air.F22 {
					given = gF22
				}
			}
		}
		text := "?? " + ref.String()
		if c, ok := v.card(ref, 0); ok {
			text = cardShort(c)
			if w >= longW {
				text = cardLong(c)
			}
		}
		v.geo.hand = append(v.geo.hand, board.Rect{X: x, Y: row, W: w, H: 1})
		style.PrintSegs(scr, x, row, w, style.S(cur, cst), style.S(given, th.Mark), style.S(style.Truncate(text, w-2), st))
		row++
	}
	if w < longW || row+1 >= y+h {
		return
	}
	row++
	for s := range g.Seats() {
		if engine.Seat(s) != me && len(g.Hand(engine.Seat(s))) > 0 {
			line(th.Dim, fmt.Sprintf("%s holds %d cards", air.Squadron[s], len(g.Hand(engine.Seat(s)))))
		}
	}
}

// drawBelow draws the turn order, the latest changes and the squadron
// boards (or the legend).
func (v *View) drawBelow(scr tcell.Screen, x, y, w, h int) {
	th := v.th
	if v.legend {
		for i, l := range legend {
			if i < h {
				style.Print(scr, x, y+i, w, th.Base, style.Truncate(l, w))
			}
		}
		return
	}
	style.PrintSegs(scr, x, y, w, v.orderSegs(w)...)
	if h < 2 {
		return
	}
	if v.news != "" {
		style.Print(scr, x, y+1, w, th.Dim, style.Truncate("Last: "+v.news, w))
	}
	v.drawSquadrons(scr, x, y+2, w, h-2)
}

// orderSegs is the round's cards in turn order: done, acting, to come;
// face down until turned over (your own shown in brackets). Narrow, it
// drops the label and the brackets.
func (v *View) orderSegs(w int) []style.Seg {
	th := v.th
	g := v.g
	chosen := g.Chosen()
	if len(chosen) == 0 {
		label := style.S("Order ", th.Accent)
		if g.Next().Kind == engine.NeedChoice {
			return []style.Seg{label, style.S("every squadron is choosing…", th.Dim)}
		}
		return []style.Seg{label, style.S("cards are chosen once every hand is dealt", th.Dim)}
	}
	t, active := g.Active()
	build := func(compact bool) []style.Seg {
		var segs []style.Seg
		if !compact {
			segs = append(segs, style.S("Order ", th.Accent))
		}
		for i, p := range chosen {
			pl, _ := g.PlaneByID(p.Plane)
			mark, st := " ", th.Base
			switch {
			case active && i < t.Index:
				mark, st = gDone, th.Dim
			case active && i == t.Index:
				mark, st = gActing, th.Accent
			}
			num := gFaceDown
			switch {
			case p.Number > 0 && compact:
				num = fmt.Sprint(p.Number)
			case p.Number > 0:
				num = fmt.Sprintf("#%d", p.Number)
			case compact:
			default:
				if c, ok := v.card(p.Card, 0); ok && v.mine(pl.Seat) {
					num = fmt.Sprintf("(#%d)", c.Number)
				}
			}
			sep := " "
			if !compact {
				num += " "
			}
			segs = append(segs, style.S(mark, st), style.S(num, st), style.S(planeMark(pl), v.planeStyle(pl.Seat)), style.S(sep, th.Base))
		}
		return segs
	}
	segs := build(false)
	n := 0
	for _, s := range segs {
		n += len([]rune(s.Text))
	}
	if n > w {
		return build(true)
	}
	return segs
}

// drawSquadrons draws every squadron board: roomy (a name line, then a
// line a plane with its space) when there is room, else a line a squadron
// under a line naming the players.
func (v *View) drawSquadrons(scr tcell.Screen, x, y, w, h int) {
	th := v.th
	g := v.g
	n := g.Seats()
	roomy := h >= wideSq*n
	if !roomy {
		if h < n+1 {
			n = max(0, h-1)
		}
		var who []string
		for s := range g.Seats() {
			who = append(who, fmt.Sprintf("%s %s", squadronLetter(s), v.life.Snap.Name(engine.Seat(s))+v.youText(engine.Seat(s))))
		}
		style.Print(scr, x, y, w, th.Dim, style.Truncate(strings.Join(who, " · "), w))
		y++
	}
	for s := range n {
		seat := engine.Seat(s)
		planes := g.Planes()[2*s : 2*s+2]
		name := air.Squadron[s]
		nst := v.planeStyle(seat)
		if roomy {
			head := fmt.Sprintf("%s · %s%s", name, v.life.Snap.Name(seat), v.youText(seat))
			if g.Teams() {
				head += fmt.Sprintf(" · team %s", teamName(s))
			}
			if c := len(g.Hand(seat)); c > 0 {
				head += fmt.Sprintf(" · %d cards", c)
			}
			style.Print(scr, x, y, w, nst.Bold(true), style.Truncate(head, w))
			for i, p := range planes {
				style.PrintSegs(scr, x, y+1+i, w, append([]style.Seg{style.S("  ", th.Base)}, v.planeSegs(p, true)...)...)
			}
			y += wideSq
			continue
		}
		segs := []style.Seg{style.S(style.Pad(name, 6), nst)}
		for i, p := range planes {
			if i > 0 {
				segs = append(segs, style.S(" ", th.Base))
			}
			segs = append(segs, v.planeSegs(p, false)...)
		}
		style.PrintSegs(scr, x, y, w, segs...)
		y++
	}
}

// youText marks the viewer's own squadron.
func (v *View) youText(s engine.Seat) string {
	if v.mine(s) {
		return " (you)"
	}
	return ""
}

// teamName names a seat's team in the team game.
func teamName(seat int) string {
	var names []string
	for s := range 4 {
		if air.Team(s) == air.Team(seat) {
			names = append(names, air.Squadron[s])
		}
	}
	return strings.Join(names, "+")
}

// planeSegs is one plane's squadron-board record: model, heading (and,
// roomy, its space), missiles, and the damage boxes by location.
func (v *View) planeSegs(p air.Plane, roomy bool) []style.Seg {
	th := v.th
	model := gF35
	if p.Kind == air.F22 {
		model = gF22
	}
	var segs []style.Seg
	switch {
	case roomy && p.Down:
		what := "shot down"
		if g := v.game(); g != nil && g.Gone(p.Seat) {
			what = "left" // its player left: the plane left the board
		}
		segs = append(segs, style.S(style.Pad(fmt.Sprintf("%s %s %s", p.Kind, gDown, what), 20), th.Sunk))
	case roomy:
		segs = append(segs, style.S(style.Pad(fmt.Sprintf("%s %s %s", p.Kind, headingArrow[p.Heading&7], p.Pos), 16), v.planeStyle(p.Seat)),
			style.S(fmt.Sprintf("m%d  ", p.Missiles), th.Base))
	case p.Down:
		segs = append(segs, style.S(model+gDown+"   ", th.Sunk))
	default:
		segs = append(segs, style.S(model+headingArrow[p.Heading&7], v.planeStyle(p.Seat)), style.S(fmt.Sprintf(" m%d", p.Missiles), th.Base))
	}
	if !roomy {
		segs = append(segs, style.S(" ", th.Base))
	}
	for loc := air.FuelTank; loc <= air.Cockpit; loc++ {
		letter := strings.ToUpper(loc.String()[:1])
		if roomy && loc > air.FuelTank {
			letter = " " + letter
		}
		segs = append(segs, style.S(letter, th.Dim))
		need := air.ShotDownAt(p.Kind, loc)
		hit := p.Damage[loc]
		segs = append(segs, style.S(strings.Repeat(gHit, min(hit, need)), th.Hit), style.S(strings.Repeat(gIntact, max(0, need-hit)), th.Dim))
	}
	return segs
}

// changes says in words what changed between two states of the planes.
func changes(prev, cur []air.Plane) string {
	if len(prev) != len(cur) {
		return ""
	}
	var out []string
	for i, b := range cur {
		a := prev[i]
		for loc := air.FuelTank; loc <= air.Cockpit; loc++ {
			if b.Damage[loc] > a.Damage[loc] {
				out = append(out, fmt.Sprintf("%s hit in the %s", b.Name(), loc))
			}
		}
		switch {
		case b.Down && !a.Down:
			out = append(out, b.Name()+" shot down")
		case b.Down:
		case b.Pos != a.Pos || b.Heading != a.Heading:
			out = append(out, fmt.Sprintf("%s flew to %s heading %s", b.Name(), b.Pos, b.Heading))
		}
		if b.Missiles < a.Missiles && !b.Down {
			out = append(out, b.Name()+" fired a missile")
		}
	}
	return strings.Join(slices.Compact(out), "; ")
}
