package oceansview

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// Layout of the board (house values of the interface).
const (
	keepRecent = 12 // lines of what happened kept
	labelW     = 9  // the marker, the ocean's name and a space
	sepW       = 2  // between the two task forces
	minCellW   = 3  // a card on the table: its code and a space (glyph, code, space from 4)
	maxCellW   = 7
	minW       = labelW + 2*oceans.MaxTaskForce*minCellW + sepW
	minH       = 16
)

// geometry is where the last draw put the clickable parts.
type geometry struct {
	rows  [oceans.NumOceans]board.Rect // each ocean's row
	own   [oceans.NumOceans]board.Rect // the player's side of each row
	enemy [oceans.NumOceans][]board.Rect
	hand  []board.Rect
}

func (g geometry) handAt(x, y int) (int, bool) { return board.Hit(g.hand, x, y) }

func (g geometry) enemyAt(x, y int) (oceans.Ocean, int, bool) {
	for o := range g.enemy {
		if i, ok := board.Hit(g.enemy[o], x, y); ok {
			return oceans.Ocean(o), i, true
		}
	}
	return 0, 0, false
}

func (g geometry) oceanAt(x, y int) (oceans.Ocean, bool, bool) {
	for o, r := range g.rows {
		if r.Has(x, y) {
			return oceans.Ocean(o), g.own[o].Has(x, y), true
		}
	}
	return 0, false, false
}

// look is how one card is drawn.
type look struct {
	text string
	st   tcell.Style
}

// Draw draws the oceans, the hand, and the battle or what happened.
func (v *View) Draw(scr tcell.Screen) {
	v.geo = geometry{}
	v.menu.Undraw()
	th := v.th
	x, y, w, h, ok := v.Begin(scr, th, v.g != nil)
	if !ok {
		return
	}
	if w < minW || h < minH {
		style.Print(scr, x, y, w, th.Warn, "the board needs more room")
		return
	}
	cw := min(maxCellW, (w-labelW-sepW)/(2*oceans.MaxTaskForce))
	me, them := v.seat(), 1-v.seat()
	cy := y
	for _, s := range []engine.Seat{me, them} {
		style.PrintSegs(scr, x, cy, w, v.seatLine(s)...)
		cy++
	}
	cy = v.drawTable(scr, x, cy, w, cw)
	if h >= 24 {
		style.Print(scr, x, cy, w, th.Dim, style.Truncate(v.ruleLine(), w))
		cy++
	}
	cy = v.drawHands(scr, x, cy, w, y+h)
	v.drawLower(scr, x, cy, w, y+h-cy)
}

// seatLine says what a seat holds: oceans won, fleet, deck, hand, and the
// restrictions on it.
func (v *View) seatLine(s engine.Seat) []style.Seg {
	th := v.th
	segs := []style.Seg{
		style.S(style.Pad(v.who(s), 13)+" ", th.Accent),
		style.S(fmt.Sprintf("%s%d won", style.OK, v.g.Controlled(s)), th.Good),
		style.S(fmt.Sprintf(" · fleet %d · deck %d · hand %d", v.g.FleetSize(s), v.g.DeckLeft(s), len(v.g.Hand(s))), th.Base),
	}
	if v.g.Surprised(s) {
		segs = append(segs, style.S(" · surprised", th.Warn))
	}
	if v.g.Turn() == s && v.g.LastTurn() {
		segs = append(segs, style.S(" · last turn", th.Warn))
	}
	return segs
}

// ruleLine reminds what an attack needs.
func (v *View) ruleLine() string {
	n := v.g.OceansInPlay()
	return fmt.Sprintf("%d oceans in play: an attack needs a fleet of %d · %d oceans win", n, oceans.AttackFactor*n, oceans.OceansToWin)
}

// drawTable draws the five oceans, the player's task forces on the left
// and the opponent's on the right; it returns the next free line.
func (v *View) drawTable(scr tcell.Screen, x, y, w, cw int) int {
	th := v.th
	me, them := v.seat(), 1-v.seat()
	sideW := oceans.MaxTaskForce * cw
	ownX := x + labelW
	enemyX := ownX + sideW + sepW
	style.Print(scr, x, y, labelW, th.Dim, "Ocean")
	style.Print(scr, ownX, y, sideW, th.Dim, style.Truncate(v.who(me), sideW))
	style.Print(scr, enemyX, y, sideW, th.Dim, style.Truncate(v.who(them), sideW))
	y++
	bv, inBattle := v.g.Battle()
	picking := v.mode == playing || v.mode == deploying
	_, pc, _ := v.picked()
	for o := range oceans.Ocean(oceans.NumOceans) {
		ry := y + int(o)
		v.geo.rows[o] = board.Rect{X: x, Y: ry, W: w, H: 1}
		v.geo.own[o] = board.Rect{X: ownX, Y: ry, W: sideW, H: 1}
		marker, mst := " ", th.Base
		switch {
		case inBattle && bv.Ocean == o:
			marker, mst = glyphBattle, th.Hit
		case picking && !v.menu.Open() && v.ocean == o:
			marker, mst = style.Pointer, th.Accent
		}
		nst := th.Base
		if picking && !v.menu.Open() && v.ocean == o {
			nst = th.Selected
		}
		style.Print(scr, x, ry, 1, mst, marker)
		style.Print(scr, x+1, ry, labelW-1, nst, oceanLabel[o])
		if c := v.g.Controller(o); c != engine.NoSeat {
			st, glyph := th.Good, style.OK
			if c != me || v.life.Snap.Spectator {
				st, glyph = th.Bad, style.Fail
				if v.life.Snap.Spectator {
					st, glyph = th.Accent, style.OK
				}
			}
			style.Print(scr, ownX, ry, w-labelW, st, fmt.Sprintf("%s won by %s", glyph, v.who(c)))
			continue
		}
		v.drawForce(scr, ownX, ry, cw, me, o, false)
		v.geo.enemy[o] = v.drawForce(scr, enemyX, ry, cw, them, o, picking && v.mode == playing && targeting(pc) && v.ocean == o)
	}
	return y + oceans.NumOceans
}

// drawForce draws seat's task force in ocean o; aiming shows the target
// cursor and the marks. It returns each card's rectangle.
func (v *View) drawForce(scr tcell.Screen, x, y, cw int, s engine.Seat, o oceans.Ocean, aiming bool) []board.Rect {
	th := v.th
	tf := v.g.TaskForce(s, o)
	out := make([]board.Rect, len(tf))
	for i, c := range tf {
		narrow := cw < 4
		lk := v.cardLook(s, c.Leaf, narrow)
		if aiming {
			for _, m := range v.marks {
				if m == c.Leaf {
					lk = look{style.Marked + code[v.g.Known(s, c.Leaf)], th.Mark}
					if narrow {
						lk.text = style.Marked + style.Marked
					}
				}
			}
			if i == v.tcol {
				lk.st = lk.st.Reverse(true)
			}
		}
		style.Print(scr, x+i*cw, y, cw-1, lk.st, lk.text)
		out[i] = board.Rect{X: x + i*cw, Y: y, W: cw, H: 1}
	}
	if len(tf) < oceans.MaxTaskForce && v.g.Blockaded(s, o) {
		style.Print(scr, x+len(tf)*cw, y, cw-1, th.Warn, glyphBlockade)
	}
	if aiming && len(tf) == 0 {
		style.Print(scr, x, y, cw*2, th.Dim.Reverse(true), "none")
	}
	return out
}

// cardLook decides how a task-force card of seat is drawn: revealed,
// facedown but known to the viewer, or facedown. Narrow cells drop the
// glyph: a revealed card is its code ("BB"), a facedown one the viewer
// knows its code in lower case ("bb"), an unknown one "▒▒".
func (v *View) cardLook(s engine.Seat, leaf int, narrow bool) look {
	th := v.th
	if c := v.g.Known(s, leaf); c != oceans.NoCard {
		st := th.Accent
		if s == v.seat() && !v.life.Snap.Spectator {
			st = th.Ship
		}
		if narrow {
			return look{code[c], st}
		}
		return look{glyphUp + code[c], st}
	}
	if s == v.seat() || v.life.Snap.Spectator {
		if c := v.secretCard(s, leaf); c != oceans.NoCard {
			if narrow {
				return look{strings.ToLower(code[c]), th.Ghost}
			}
			return look{glyphHidden + code[c], th.Ghost}
		}
	}
	if narrow {
		return look{strings.Repeat(glyphBack, 2), th.Dim}
	}
	return look{strings.Repeat(glyphBack, 3), th.Dim}
}

// secretCard returns a card the viewer's secrets hold.
func (v *View) secretCard(s engine.Seat, leaf int) oceans.Card {
	b, ok := v.secrets().Value(engine.Slot{Owner: s, Name: oceans.FleetName, Index: leaf})
	if !ok {
		return oceans.NoCard
	}
	c, err := oceans.DecodeCard(b)
	if err != nil {
		return oceans.NoCard
	}
	return c
}

// handText names a hand card: "BB" narrow, "BB Battleship 4" wide.
func handText(c oceans.Card, wide bool) string {
	if !c.Valid() {
		return glyphBack + glyphBack
	}
	if wide {
		return fmt.Sprintf("%s %s %s", code[c], shortName[c], value[c])
	}
	return code[c]
}

// drawHands draws the player's hand (both hands in spectator mode) and
// returns the next free line.
func (v *View) drawHands(scr tcell.Screen, x, y, w, end int) int {
	th := v.th
	wide := w >= 70
	if v.life.Snap.Spectator {
		for _, s := range []engine.Seat{v.seat(), 1 - v.seat()} {
			_, cards := v.hand(s)
			segs := []style.Seg{style.S(v.life.Snap.Name(s)+": ", th.Accent)}
			for _, c := range cards {
				segs = append(segs, style.S(handText(c, false)+" ", th.Base))
			}
			style.PrintSegs(scr, x, y, w, segs...)
			y++
		}
		return y
	}
	_, cards := v.hand(v.seat())
	v.geo.hand = make([]board.Rect, len(cards))
	style.Print(scr, x, y, 5, th.Accent, "Hand")
	cx, start := x+6, y
	if len(cards) == 0 {
		style.Print(scr, cx, y, w-6, th.Dim, "empty")
	}
	for i, c := range cards {
		text := fmt.Sprintf("%d %s", i+1, handText(c, wide))
		tw := style.Width(text)
		if cx+tw > x+w && cx > x+6 {
			y++
			cx = x + 6
			if y >= end || y-start >= 2 && !wide {
				break
			}
		}
		st := th.Base
		if !c.CanJoin() {
			st = th.Accent
		}
		if (v.mode == playing || v.mode == deploying) && i == v.sel {
			st = th.Selected
		}
		style.Print(scr, cx, y, tw, st, text)
		v.geo.hand[i] = board.Rect{X: cx, Y: y, W: tw, H: 1}
		cx += tw + 2
	}
	y++
	if (v.mode == playing || v.mode == deploying) && y < end {
		if _, c, ok := v.picked(); ok && c.Valid() {
			style.Print(scr, x+6, y, w-6, th.Dim, style.Truncate(fmt.Sprintf("%s: worth %s · discarded: %s", c, value[c], commandText[c]), w-6))
			y++
		}
	}
	return y
}

// drawLower fills the rest: the choices list, the battle, what happened.
func (v *View) drawLower(scr tcell.Screen, x, y, w, h int) {
	if h <= 0 {
		return
	}
	end := y + h
	if v.legendOn && !v.menu.Open() {
		v.drawLegend(scr, x, y, w, h)
		return
	}
	if v.menu.Open() {
		rows := len(v.menu.Items) + 1
		if v.mode == fighting && v.battle != nil {
			y = v.drawBattle(scr, x, y, w, end-y-min(rows, 4))
		}
		y = v.menu.Draw(scr, v.th, x, y, w, end-y)
	} else if v.battle != nil {
		room := h
		if _, live := v.g.Battle(); !live {
			room -= min(len(v.recent), 3) // keep a few lines of what happened since
		}
		y = v.drawBattle(scr, x, y, w, min(room, len(v.battle.lines)+5))
	}
	v.drawRecent(scr, x, y, w, end-y)
}

// drawBattle draws the battle record in at most h lines and returns the
// next free line.
func (v *View) drawBattle(scr tcell.Screen, x, y, w, h int) int {
	th := v.th
	b := v.battle
	if h < 3 {
		return y
	}
	end := y + h
	title := fmt.Sprintf("%s Battle in the %s: %s %s, %s %s", glyphBattle, b.ocean,
		v.who(b.attacker), board.Verb(v.who(b.attacker), "attack", "attacks"), v.who(1-b.attacker), board.Verb(v.who(1-b.attacker), "defend", "defends"))
	if b.over {
		title = fmt.Sprintf("Last battle, in the %s: %s attacked %s", b.ocean, v.who(b.attacker), v.who(1-b.attacker))
	}
	style.Print(scr, x, y, w, th.Accent, style.Truncate(title, w))
	y++
	totals, counted := b.currentTotals(v.g)
	nameW := max(style.Width(v.who(b.attacker)), style.Width(v.who(1-b.attacker)))
	for side := range 2 {
		s := b.seat(side)
		segs := []style.Seg{style.S(style.Pad(v.who(s), nameW)+" ", th.Base)}
		for i, l := range b.leaves[side] {
			lk := v.cardLook(s, l, false)
			if b.gone[side][i] {
				lk = look{glyphGone + code[v.g.Known(s, l)], th.Sunk}
			}
			segs = append(segs, style.S(lk.text+" ", lk.st))
		}
		if len(b.leaves[side]) == 0 {
			segs = append(segs, style.S("no task force ", th.Dim))
		}
		if counted {
			segs = append(segs, style.S(fmt.Sprintf("= %d", totals[side]), th.Accent))
		}
		style.PrintSegs(scr, x, y, w, segs...)
		y++
	}
	lines := b.lines
	if b.partial {
		lines = append([]string{"(joined during the battle: earlier steps not shown)"}, lines...)
	}
	room := end - y
	if b.over {
		room--
	}
	if room < len(lines) {
		lines = lines[len(lines)-max(room, 0):]
	}
	for _, l := range lines {
		style.Print(scr, x+1, y, w-1, th.Base, style.Truncate(l, w-1))
		y++
	}
	if b.over && y < end {
		style.Print(scr, x+1, y, w-1, th.Good, style.Truncate("→ "+b.result, w-1))
		b.shown = true
		y++
	}
	return y
}

// drawRecent draws what happened, newest last, in at most h lines.
func (v *View) drawRecent(scr tcell.Screen, x, y, w, h int) {
	th := v.th
	n := min(len(v.recent), h)
	for i, line := range v.recent[len(v.recent)-n:] {
		st := th.Dim
		if i == n-1 {
			st = th.Base
		}
		style.Print(scr, x, y+i, w, st, style.Truncate("· "+line, w))
	}
}
