package oceans

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// sideSeat maps a battle side to its seat.
func (b *battle) sideSeat(side int) engine.Seat {
	if side == attackerSide {
		return b.attacker
	}
	return other(b.attacker)
}

// facedown lists the closed leaves of seat s's task force in ocean o.
func (g *Game) facedown(s engine.Seat, o Ocean) []engine.Slot {
	var out []engine.Slot
	for _, leaf := range g.seats[s].forces[o] {
		if g.seats[s].known[leaf] == NoCard {
			out = append(out, FleetSlot(s, leaf))
		}
	}
	return out
}

// openingSeat is the seat that reveals in the current opening step.
func (b *battle) openingSeat() engine.Seat {
	if b.step == stepOpenAttacker {
		return b.attacker
	}
	return other(b.attacker)
}

// battleNeed is what the battle in progress waits for: a seat's reveal of
// exactly the facedown leaves of its task force there, or a decision.
func (g *Game) battleNeed() engine.Need {
	b := &g.battle
	if b.step < stepFight {
		s := b.openingSeat()
		return engine.Need{Kind: engine.NeedOpen, Seat: s, Open: g.facedown(s, b.ocean),
			Prompt: fmt.Sprintf("reveal your task force in the %s", b.ocean)}
	}
	c := b.fight.pending()
	p := "choose which zero-valued card to play"
	if c.kind == choiceTarget {
		p = "choose the surface ship the Minefield destroys"
	}
	return engine.Need{Kind: engine.NeedMove, Seat: b.sideSeat(c.actor), Prompt: p}
}

// advanceBattle skips empty reveals and trivial decisions; done reports
// that the battle has ended (and the turn with it).
func (g *Game) advanceBattle(ev []engine.Event) ([]engine.Event, bool) {
	b := &g.battle
	for b.step < stepFight {
		if len(g.facedown(b.openingSeat(), b.ocean)) > 0 {
			return ev, false
		}
		b.step++
		if b.step == stepFight {
			g.startFight()
		}
	}
	var log []fightEvent
	c := b.fight.settle(&log)
	ev = append(ev, g.fightEvents(log)...)
	if c.kind != choiceNone {
		return ev, false
	}
	return g.endBattle(ev), true
}

// startFight builds the fight from both task forces, now all revealed.
func (g *Game) startFight() {
	b := &g.battle
	var sides [2][]bcard
	for side := range sides {
		s := b.sideSeat(side)
		for _, leaf := range g.seats[s].forces[b.ocean] {
			sides[side] = append(sides[side], bcard{leaf: leaf, card: g.seats[s].known[leaf]})
		}
	}
	b.fight = newFight(sides[attackerSide], sides[defenderSide])
}

// fightEvents turns the fight's log into events.
func (g *Game) fightEvents(log []fightEvent) []engine.Event {
	b := &g.battle
	ev := make([]engine.Event, 0, len(log))
	for _, e := range log {
		s := b.sideSeat(e.side)
		switch e.kind {
		case "zero":
			ev = append(ev, engine.Eventf(s, "zero", "%s plays its %s", s, e.card.card))
		case "destroy":
			ev = append(ev, engine.Eventf(s, "destroy", "%s's %s is destroyed", s, e.card.card))
		case "fizzle":
			ev = append(ev, engine.Eventf(s, "fizzle", "%s's Minefield finds no surface ship", s))
		}
	}
	return ev
}

// battleMove takes a decision inside a battle: which zero-valued card to
// play, or which surface ship a Minefield destroys.
func (g *Game) battleMove(seat engine.Seat, m Move) ([]engine.Event, error) {
	b := &g.battle
	if b.step < stepFight {
		return nil, engine.Illegal("the battle waits for a reveal, not a move")
	}
	c := b.fight.pending()
	want := Zero
	if c.kind == choiceTarget {
		want = Target
	}
	if m.Kind != want {
		return nil, engine.Illegal("the battle needs a %s move, not %s", want, m.Kind)
	}
	i := b.fight.find(c.side, m.Leaf)
	if i < 0 || c.opts&(1<<i) == 0 {
		if want == Zero {
			return nil, engine.Illegal("leaf %d is not a zero-valued card of %s in this battle", m.Leaf, seat)
		}
		return nil, engine.Illegal("leaf %d is not a surface ship of %s in this battle", m.Leaf, b.sideSeat(c.side))
	}
	var log []fightEvent
	b.fight.resolve(c, i, &log)
	return g.fightEvents(log), nil
}

// endBattle compares the totals, discards both task forces and gives the
// ocean to the winner; three oceans win the match.
func (g *Game) endBattle(ev []engine.Event) []engine.Event {
	b := g.battle
	att, def := b.fight.total(attackerSide), b.fight.total(defenderSide)
	w := b.fight.winner()
	for side := range 2 {
		st := &g.seats[b.sideSeat(side)]
		st.discard = append(st.discard, st.forces[b.ocean]...)
		st.forces[b.ocean] = nil
	}
	g.phase = PhasePlay
	g.battle = battle{}
	if w < 0 {
		return append(ev, engine.Eventf(engine.NoSeat, "battle", "no card stands in the %s: nobody wins it", b.ocean))
	}
	ws := b.sideSeat(w)
	g.control[b.ocean] = ws
	ev = append(ev, engine.Eventf(ws, "battle", "%s wins the %s (attacker %d, defender %d)", ws, b.ocean, att, def))
	if g.controlled(ws) >= OceansToWin {
		return g.finish(ws, engine.Wordsf("controls %d oceans", OceansToWin), ev)
	}
	return ev
}
