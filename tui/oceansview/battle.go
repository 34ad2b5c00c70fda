package oceansview

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
)

// Battle sides, as the engine counts them.
const (
	attackerSide = 0
	defenderSide = 1
)

// battleRec is a battle as the board tells it: both task forces, the
// zero-valued cards played in turn with their effects and who chose, the
// totals and the winner.
type battleRec struct {
	ocean    oceans.Ocean
	attacker engine.Seat
	leaves   [2][]int  // each side's task force (attacker, defender), in play order
	gone     [2][]bool // the cards played or destroyed, by index into leaves
	lines    []string  // the steps, in order
	plays    int       // zero-valued cards played so far
	over     bool
	result   string
	totals   [2]int
	counted  bool // totals holds the final totals
	partial  bool // the board joined the battle late: earlier steps are not told
	shown    bool // the board has drawn it over
}

// seat returns the seat of a side.
func (b *battleRec) seat(side int) engine.Seat {
	if side == attackerSide {
		return b.attacker
	}
	return 1 - b.attacker
}

// side returns the side of a seat.
func (b *battleRec) side(s engine.Seat) int {
	if s == b.attacker {
		return attackerSide
	}
	return defenderSide
}

// newBattle starts the record of an attack by attacker in ocean o, with the
// task forces as they stand in g.
func newBattle(g *oceans.Game, attacker engine.Seat, o oceans.Ocean) *battleRec {
	b := &battleRec{ocean: o, attacker: attacker}
	for side := range 2 {
		for _, c := range g.TaskForce(b.seat(side), o) {
			b.leaves[side] = append(b.leaves[side], c.Leaf)
		}
		b.gone[side] = make([]bool, len(b.leaves[side]))
	}
	return b
}

// battleFromState rebuilds the battle in progress in g when its steps were
// not seen: the cards gone are those no longer standing.
func battleFromState(g *oceans.Game) *battleRec {
	bv, ok := g.Battle()
	if !ok {
		return nil
	}
	b := newBattle(g, bv.Attacker, bv.Ocean)
	b.partial = true
	if !bv.Revealed {
		return b
	}
	for side, standing := range [2][]oceans.Card{bv.Attacking, bv.Defending} {
		left := slices.Clone(standing)
		for i, l := range b.leaves[side] {
			c := g.Known(b.seat(side), l)
			if j := slices.Index(left, c); j >= 0 {
				left = slices.Delete(left, j, j+1)
				continue
			}
			b.gone[side][i] = true
		}
	}
	return b
}

// strike marks the first standing card of kind c on seat's side as gone.
func (b *battleRec) strike(g *oceans.Game, s engine.Seat, c oceans.Card) {
	side := b.side(s)
	for i, l := range b.leaves[side] {
		if !b.gone[side][i] && g.Known(s, l) == c {
			b.gone[side][i] = true
			return
		}
	}
}

// totalsRe reads the totals from the engine's battle event.
var totalsRe = regexp.MustCompile(`\(attacker (\d+), defender (\d+)\)`)

// tell takes one retraced step into the battle record (starting one on an
// attack) and returns the narrative lines it adds. cur is the newest state,
// whose known cards name every revealed card.
func (v *View) tell(st step, cur *oceans.Game) {
	if st.move != nil && st.move.Kind == oceans.Attack {
		if old := v.battle; old != nil && old.over && !old.shown {
			// A battle fought and over before the board could draw it:
			// its steps go to what happened.
			v.recent = append(v.recent, old.lines...)
			v.recent = append(v.recent, old.result)
		}
		v.battle = newBattle(st.before, st.seat, st.move.Ocean)
		v.battle.lines = append(v.battle.lines, fmt.Sprintf("%s %s %s in the %s", v.who(st.seat), board.Verb(v.who(st.seat), "attack", "attacks"), v.who(1-st.seat), st.move.Ocean))
	}
	b := v.battle
	inBattle := b != nil && !b.over && (st.before.Phase() == oceans.PhaseBattle || st.move != nil && st.move.Kind == oceans.Attack)
	chose := ""
	if st.move != nil && (st.move.Kind == oceans.Zero || st.move.Kind == oceans.Target) {
		chose = fmt.Sprintf(" (%s choice)", board.Possessive(v.who(st.seat)))
	}
	for _, ev := range st.events {
		me := v.seat()
		if v.life.Snap.Spectator {
			me = engine.NoSeat
		}
		text := sayTo(ev.Words(), me, v.life.Snap)
		if inBattle {
			switch ev.Kind {
			case "reveal":
				b.lines = append(b.lines, text)
			case "zero":
				b.plays++
				v.zeros++
				b.strike(cur, ev.Seat, cardIn(ev.Text))
				b.lines = append(b.lines, fmt.Sprintf("%d. %s", b.plays, text)+chose)
				chose = ""
			case "destroy":
				b.strike(cur, ev.Seat, cardIn(ev.Text))
				b.lines = append(b.lines, "   → "+text+chose)
				chose = ""
			case "fizzle":
				b.lines = append(b.lines, "   → "+text)
			case "battle":
				b.over, b.result = true, text
				if m := totalsRe.FindStringSubmatch(ev.Text); m != nil {
					fmt.Sscan(m[1], &b.totals[attackerSide])
					fmt.Sscan(m[2], &b.totals[defenderSide])
					b.counted = true
				}
			}
		}
		if inBattle && ev.Kind != "battle" && ev.Kind != "game-over" {
			continue // told in the battle's own lines
		}
		if line := v.narrate(ev, text); line != "" {
			v.recent = append(v.recent, line)
		}
	}
	if len(v.recent) > keepRecent {
		v.recent = v.recent[len(v.recent)-keepRecent:]
	}
}

// narrate turns an event into a line of the recent list ("" for events not
// worth a line).
func (v *View) narrate(ev engine.Event, text string) string {
	switch ev.Kind {
	case "draw":
		// "seat 1 draws 2 (leaves [3 7]), 30 left": the leaves mean nothing
		// to people.
		if i := strings.Index(text, " (leaves"); i >= 0 {
			if j := strings.Index(text[i:], "), "); j >= 0 {
				return text[:i] + ", " + text[i+j+3:]
			}
		}
		return text
	case "verified", "reveal-order":
		return ""
	}
	return text
}

// totals returns each side's total: the final ones once the battle is
// over, the engine's running ones while it is fought.
func (b *battleRec) currentTotals(g *oceans.Game) ([2]int, bool) {
	if b.counted {
		return b.totals, true
	}
	if bv, ok := g.Battle(); ok && bv.Revealed && bv.Ocean == b.ocean {
		return [2]int{bv.AttackTotal, bv.DefendTotal}, true
	}
	return [2]int{}, false
}
