package cardsview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
)

// changes puts into words what differs on the table between two states of
// a match: cards turned up, hits, repairs, shields, sinkings, reshuffles.
// who names a seat ("you" for the local one); the sentence is "" when
// nothing visible changed.
func changes(prev, cur *cards.Game, who func(engine.Seat) string) string {
	var parts []string
	if prev.First() == engine.NoSeat && cur.First() != engine.NoSeat {
		parts = append(parts, fmt.Sprintf("%s %s first (joint coin flip)", who(cur.First()), board.Verb(who(cur.First()), "play", "plays")))
	}
	for s := range engine.Seat(2) {
		owner := board.Possessive(who(s))
		pg, cg := prev.Grid(s), cur.Grid(s)
		for pos := range cards.GridSize {
			if pg[pos].Faceup || !cg[pos].Faceup {
				continue
			}
			what := "a miss"
			if cg[pos].Ship.Valid() {
				what = "the " + cg[pos].Ship.Title()
			}
			parts = append(parts, fmt.Sprintf("%s %s turns up %s", owner, cards.PosName(pos), what))
		}
		pf, cf := prev.Fleet(s), cur.Fleet(s)
		for i := range cf {
			parts = append(parts, shipChanges(owner, pf[i], cf[i])...)
		}
		if prev.Deck(s) > 0 && cur.Deck(s) > prev.Deck(s) {
			parts = append(parts, fmt.Sprintf("%s %s the discard pile into a new draw pile", who(s), board.Verb(who(s), "shuffle", "shuffles")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	line := strings.Join(parts, "; ")
	if strings.HasPrefix(line, "you") {
		line = "Y" + line[1:] // a sentence starts with a capital, a name keeps its own
	}
	return line
}

// before reports whether a is an earlier state of the match than b: fewer
// turns, or a card turned up or a ship sunk in b that is not in a.
func before(a, b *cards.Game) bool {
	if a.Turns() != b.Turns() {
		return a.Turns() < b.Turns()
	}
	for s := range engine.Seat(2) {
		ag, bg := a.Grid(s), b.Grid(s)
		for i := range ag {
			if bg[i].Faceup && !ag[i].Faceup {
				return true
			}
		}
		if a.Deck(s) < b.Deck(s) || a.DrawPile(s) > b.DrawPile(s) && a.Deck(s) == b.Deck(s) {
			return true
		}
	}
	return false
}

// shipChanges lists what happened to one ship.
func shipChanges(owner string, p, c cards.ShipView) []string {
	name := owner + " " + c.Ship.Title()
	var out []string
	switch {
	case c.Sunk && !p.Sunk:
		return append(out, name+" is sunk")
	case c.Damage > p.Damage:
		out = append(out, fmt.Sprintf("%s hit (%d/%d)", name, c.Damage, c.Ship.Hits()))
	case c.Damage < p.Damage:
		out = append(out, fmt.Sprintf("%s repaired (%d/%d)", name, c.Damage, c.Ship.Hits()))
	}
	switch {
	case c.Shield && !p.Shield:
		out = append(out, name+" shielded")
	case !c.Shield && p.Shield:
		out = append(out, "the shield on "+name+" is destroyed")
	case c.Shield && c.ShieldDamage > p.ShieldDamage:
		out = append(out, fmt.Sprintf("the shield on %s hit (%d/%d)", name, c.ShieldDamage, cards.ShieldStrength))
	}
	return out
}
