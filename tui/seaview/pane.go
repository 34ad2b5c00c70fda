package seaview

import (
	"fmt"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// stepNames names the six steps of a turn.
var stepNames = [7]string{"", "Harpoons move", "scramble", "destroyers", "defensive fire", "dogfights", "launch Harpoons"}

// drawPane draws the side pane: the turn and its dice, the decision at
// hand, both Admiral Cards and the piece under the cursor. It returns the
// first row it left free.
func (v *View) drawPane(scr tcell.Screen, x, y, w, h int) int {
	p := &pane{v: v, scr: scr, x: x, y: y, w: w, end: y + h}
	v.drawStatus(p)
	if v.legendOn {
		p.gap()
		p.line(style.S("Legend (g hides it)", v.th.Accent))
		flowLegend(p.scr, v.th, []rect{{p.x, p.y, p.w, p.end - p.y}}, legend)
		return p.end
	}
	v.drawRolls(p)
	p.gap()
	v.drawTask(p)
	p.gap()
	v.drawAdmirals(p)
	p.gap()
	v.drawDetails(p)
	return p.y
}

// drawStatus says where the match is.
func (v *View) drawStatus(p *pane) {
	th, g := v.th, v.g
	n := g.Next()
	switch {
	case n.Kind == engine.NeedNone:
		o := g.Outcome()
		text := "Match over: draw"
		for _, w := range o.Winners {
			text = "Match over: " + v.name(w) + " won"
		}
		p.text(text, th.Accent)
		p.text(v.life.Snap.Say(o.Why()), th.Dim)
		return
	case n.Name == "reveal":
		p.text("Match decided: the final reveal", th.Accent)
		return
	case g.Turn() == 0:
		p.text("Setup", th.Accent)
		if s, piece, ok := g.Placing(); ok {
			who := v.name(s)
			p.text(fmt.Sprintf("%s place%s a %s", who, board.Verb(who, "", "s"), piece), th.Base)
		} else if rest, ok := strings.CutPrefix(n.Prompt, "commit your "); ok && n.Seat != engine.NoSeat {
			// The engine's prompt speaks to the committing seat; on the
			// other's screen it read as an order to the wrong player.
			who := v.name(n.Seat)
			p.text(fmt.Sprintf("%s commit%s %s %s", who, board.Verb(who, "", "s"), board.Verb(who, "your", "their"), rest), th.Base)
		} else {
			p.text(n.Prompt, th.Base)
		}
		return
	}
	a := g.Active()
	p.line(style.S(fmt.Sprintf("Turn %d · %s", g.Turn(), v.name(a)), th.Accent))
	if st := g.Step(); st >= 1 && st <= 6 {
		p.line(style.S(fmt.Sprintf("step %d/6 %s", st, stepNames[st]), th.Base))
	}
}

// drawTask draws the decision at hand, or what the other side is doing.
func (v *View) drawTask(p *pane) {
	switch v.mode {
	case mStrengths:
		v.str.draw(v, p)
		return
	case mScramble:
		v.scr.draw(v, p)
		return
	case mDestroyers:
		v.ds.draw(v, p)
		return
	case mDamage:
		v.dmg.draw(v, p)
		return
	case mLoad:
		v.drawLoad(p)
		return
	case mReturn:
		v.ret.draw(v, p)
		return
	case mPath:
		v.path.draw(v, p)
		return
	case mSidewinder:
		v.drawSidewinder(p)
		return
	}
	th, g := v.th, v.g
	if df, ok := g.Dogfight(); ok {
		v.drawDogfight(p, df)
		return
	}
	if f, ok := g.PendingFire(); ok {
		p.text(fmt.Sprintf("%s's destroyer %d fires at %s: needs more than %d", v.name(f.Seat), f.Destroyer, v.targetName(1-f.Seat, f.Target), f.Distance), th.Warn)
		return
	}
	if dice := g.ScrambleRoll(); dice != nil {
		p.text(fmt.Sprintf("scramble dice: %s", diceGlyphs(dice)), th.Base)
		return
	}
	if pr, ok := g.PendingPath(); ok {
		p.text(fmt.Sprintf("Harpoon from %s, up to %d spaces", pr.From, pr.Steps), th.Base)
		return
	}
	if s, n, ok := g.PendingDamage(); ok {
		p.text(fmt.Sprintf("%s must remove %s from the deck", v.name(s), count(n, "fighter")), th.Warn)
	}
}

// drawAdmirals draws both Admiral Cards.
func (v *View) drawAdmirals(p *pane) {
	for _, s := range []engine.Seat{v.seat(), v.foe()} {
		v.drawAdmiral(p, s)
	}
}

// drawAdmiral draws seat s's Admiral Card: the carrier's state, the planes
// on deck (with their strengths when the viewer knows them), the planes in
// the air and lost.
func (v *View) drawAdmiral(p *pane, s engine.Seat) {
	th, g := v.th, v.g
	own := s == v.seat()
	ad := g.Admiral(s)
	cv := v.fr().carriers[s]
	state, sst, glyph := "intact", th.Good, bowGlyph(true, own, cv.Facing)
	switch {
	case ad.Sunk:
		state, sst, glyph = "SUNK", th.Sunk, gSunk
	case ad.Damaged:
		state, sst, glyph = "DAMAGED", th.Hit, gDamaged
	case !cv.Placed:
		state, sst, glyph = "not placed", th.Dim, gWater
	}
	name := v.name(s)
	if name == "you" {
		name = "You"
	}
	p.line(style.S(style.Truncate(name, max(4, p.w-style.Width(state)-3))+" ", th.Accent), style.S(glyph+" ", sst), style.S(state, sst))
	var deck []string
	air, lost, known := 0, 0, true
	for _, f := range v.fighters(s) {
		switch f.State {
		case sea.OnDeck:
			deck = append(deck, fighterGlyph(f, own || v.life.Snap.Spectator))
			known = known && f.Strength > 0
		case sea.InFlight:
			air++
		default:
			lost++
		}
	}
	text := fmt.Sprintf("deck %d", len(deck))
	if known && len(deck) > 0 {
		text = "deck: " + strings.Join(deck, " ")
	}
	p.text(fmt.Sprintf("%s, air %d, lost %d", text, air, lost), th.Base)
}

// drawDetails describes the piece under the cursor.
func (v *View) drawDetails(p *pane) {
	if !v.showCursor() || !v.cur.Valid() {
		return
	}
	p.text(v.describeCell(v.cur), v.th.Base)
}

// describeCell says what is on space c, as the viewer may know it.
func (v *View) describeCell(c sea.Cell) string {
	o := v.at(c)
	switch o.Kind {
	case sea.CarrierPiece:
		cv := v.fr().carriers[o.Owner]
		st := "intact"
		if cv.Damaged {
			st = "DAMAGED: one more hit sinks it"
		}
		return fmt.Sprintf("%s: %s carrier, bow %s facing %s, launch space %s; %s", c, v.whose(o.Owner), cv.Bow, cv.Facing, cv.Launch, st)
	case sea.DestroyerPiece:
		d := v.fr().destroyers[o.Owner][o.Index]
		acted := ""
		switch {
		case d.Acted:
			acted = "; has moved or fired this turn"
		case d.Fired:
			acted = "; has fired in defence this turn"
		}
		return fmt.Sprintf("%s: %s destroyer %d, bow %s facing %s%s", c, v.whose(o.Owner), o.Index, d.Bow, d.Facing, acted)
	case sea.FighterPiece:
		return fmt.Sprintf("%s: %s", c, v.describeFighter(v.fighters(o.Owner)[o.Index], v.whose(o.Owner)))
	case sea.HarpoonPiece:
		return fmt.Sprintf("%s: %s Harpoon %d in the water (it moves at the start of its owner's turn)", c, v.whose(o.Owner), o.Index)
	}
	if v.fr().shallow[c] {
		return fmt.Sprintf("%s: shallow with an island: no fighter flies over it, no ship or Harpoon enters it, it blocks destroyer fire", c)
	}
	for s := range engine.Seat(2) {
		if cv := v.fr().carriers[s]; cv.Placed && cv.Launch == c {
			return fmt.Sprintf("%s: launch space of %s carrier", c, v.whose(s))
		}
	}
	return fmt.Sprintf("%s: open water (%s half)", c, v.whose(engine.Seat(sea.HalfOf(c.Row()))))
}

// describeFighter describes a fighter; whose is "your" or "bob's".
func (v *View) describeFighter(f sea.FighterView, whose string) string {
	st := "strength ?"
	if f.Strength > 0 {
		st = fmt.Sprintf("strength %d", f.Strength)
		if f.Public {
			st += " (revealed)"
		}
	}
	load := "no missile"
	switch {
	case f.Armed && f.Missile != sea.MissileNone:
		load = "carries a " + f.Missile.String()
	case f.Armed:
		load = "carries a missile (hidden)"
	}
	extra := ""
	if f.Returned {
		extra = "; returned this turn"
	}
	return fmt.Sprintf("%s fighter %d, %s, %s%s", whose, f.Index, st, load, extra)
}

// drawRolls lists the turn's last dice (the verification log has every
// roll with each seat's hash-chain preimage).
func (v *View) drawRolls(p *pane) {
	rolls := v.g.Rolls()
	if len(rolls) > maxRolls {
		rolls = rolls[len(rolls)-maxRolls:]
	}
	for _, r := range rolls {
		p.line(style.S(style.Truncate(v.rollText(r), p.w), v.th.Warn))
	}
}

// maxRolls is how many of the turn's rolls the pane lists.
const maxRolls = 3

// rollText puts one roll into words: who acted on it, what for, the faces.
func (v *View) rollText(r sea.Roll) string {
	if r.Seat == engine.NoSeat && len(r.Dice) == 2 {
		return fmt.Sprintf("%s: %s %d, %s %d", r.Name, v.name(0), r.Dice[0], v.name(1), r.Dice[1])
	}
	who := "joint"
	if r.Seat != engine.NoSeat {
		who = v.name(r.Seat)
	}
	return fmt.Sprintf("%s %s %s", who, r.Name, diceGlyphs(r.Dice))
}

// diceGlyphs draws faces as die glyphs with their numbers: "⚄5 ⚃4".
func diceGlyphs(faces []int) string {
	parts := make([]string, len(faces))
	for i, f := range faces {
		g := "?"
		if f >= 1 && f <= 6 {
			g = string(rune('⚀' + f - 1))
		}
		parts[i] = fmt.Sprintf("%s%d", g, f)
	}
	return strings.Join(parts, " ")
}

// targetName names a target of seat owner's side.
func (v *View) targetName(owner engine.Seat, t sea.Target) string {
	whose := v.whose(owner)
	switch t.Kind {
	case sea.TargetCarrier:
		return whose + " carrier"
	case sea.TargetHarpoon:
		return fmt.Sprintf("%s Harpoon %d", whose, t.Index)
	}
	return fmt.Sprintf("%s %s %d", whose, t.Kind, t.Index)
}

// drawDogfight draws the dogfight in progress: both fighters, their dice
// and Sidewinder bonuses.
func (v *View) drawDogfight(p *pane, df sea.DogfightView) {
	th := v.th
	p.line(style.S("Dogfight", th.Accent))
	for side, label := range []string{"defender", "attacker"} {
		s := df.Seats[side]
		f := df.Fighters[side]
		text := fmt.Sprintf("%s %s: ", label, v.name(s))
		if f < 0 {
			text += "choosing…"
		} else {
			fv := v.fighters(s)[f]
			st := "?"
			if fv.Strength > 0 {
				st = fmt.Sprint(fv.Strength)
			}
			text += fmt.Sprintf("fighter %d (%s)", f, st)
		}
		p.text(text, th.Base)
		if d := df.Dice[side]; d != nil {
			best := 0
			for _, x := range d {
				best = max(best, x)
			}
			line := "  dice " + diceGlyphs(d)
			if df.Bonus[side] > 0 {
				line += fmt.Sprintf(" +%d", df.Bonus[side])
			}
			p.text(fmt.Sprintf("%s = %d", line, best+df.Bonus[side]), th.Warn)
		}
	}
}
