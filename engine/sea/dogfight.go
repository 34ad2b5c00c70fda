package sea

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Step 5: dogfights. The defender is the player whose turn it is not. The
// defender picks which of its fighters next to an enemy fighter dogfights
// next; the attacker then picks which of its fighters next to that one
// attacks it (house formalisation of the rulebook's two choices). A choice
// with a single candidate is made by the engine.

// defenderCandidates lists the defender's fighters next to an attacker's.
func (g *Game) defenderCandidates() []int {
	def, att := other(g.active), g.active
	var out []int
	for i, f := range g.sides[def].fighters {
		if f.state != InFlight {
			continue
		}
		for _, a := range g.sides[att].fighters {
			if a.state == InFlight && Adjacent(f.cell, a.cell) {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// attackerCandidates lists the attacker's fighters next to the defender's
// fighter d.
func (g *Game) attackerCandidates(d int) []int {
	dc := g.sides[other(g.active)].fighters[d].cell
	var out []int
	for i, a := range g.sides[g.active].fighters {
		if a.state == InFlight && Adjacent(dc, a.cell) {
			out = append(out, i)
		}
	}
	return out
}

func (g *Game) enterStep5() {
	g.step = 5
	g.enterDogfight()
}

func (g *Game) enterDogfight() {
	if g.checkEnd() {
		return
	}
	g.df = dogfight{fighter: [2]int{-1, -1}}
	c := g.defenderCandidates()
	switch len(c) {
	case 0:
		g.enterStep6()
	case 1:
		g.chooseDefender(c[0])
	default:
		g.phase = phDefend
	}
}

func (g *Game) chooseDefender(f int) {
	g.df.fighter[0] = f
	if g.sides[other(g.active)].fighters[f].strength == 0 {
		g.phase = phOpenDefender
		return
	}
	g.enterAttackChoice()
}

func (g *Game) enterAttackChoice() {
	c := g.attackerCandidates(g.df.fighter[0])
	if len(c) == 1 {
		g.chooseAttacker(c[0])
		return
	}
	g.phase = phAttack
}

func (g *Game) chooseAttacker(f int) {
	g.df.fighter[1] = f
	if g.sides[g.active].fighters[f].strength == 0 {
		g.phase = phOpenAttacker
		return
	}
	g.emit(engine.NoSeat, "dogfight", "dogfight: %s's fighter %d (strength %d) against %s's fighter %d (strength %d)",
		other(g.active), g.df.fighter[0], g.dfStrength(0), g.active, f, g.dfStrength(1))
	g.df.side = 0
	g.phase = phDogfightRoll
}

func (g *Game) applyDogfightChoice(m Move) error {
	if err := expectKind(m, KindFighter); err != nil {
		return err
	}
	var cands []int
	if g.phase == phDefend {
		cands = g.defenderCandidates()
	} else {
		cands = g.attackerCandidates(g.df.fighter[0])
	}
	if !slices.Contains(cands, m.Fighter) {
		return engine.Illegal("fighter %d cannot dogfight now (candidates %v)", m.Fighter, cands)
	}
	if g.phase == phDefend {
		g.chooseDefender(m.Fighter)
	} else {
		g.chooseAttacker(m.Fighter)
	}
	return nil
}

// openDogfighter records the opened strength of the dogfighting fighter on
// side (0 defender, 1 attacker), checking it against the squadron multiset.
func (g *Game) openDogfighter(side int, val []byte) error {
	s := g.dfSeat(side)
	f := g.df.fighter[side]
	slot := StrengthSlot(s, f)
	v, err := DecodeStrength(val)
	if err != nil {
		return &engine.Fault{Seat: s, Err: engine.Illegal("%s: %v", slot, err)}
	}
	n := 1
	for _, ff := range g.sides[s].fighters {
		if ff.strength == v {
			n++
		}
	}
	if n > strengthCount(v) {
		return &engine.Fault{Seat: s, Err: engine.Illegal("%s: a %d more than the squadron's %d fighters of strength %d", slot, v, strengthCount(v), v)}
	}
	g.dfFighter(side).strength = v
	g.emit(s, "strength", "%s's fighter %d has strength %d", s, f, v)
	if side == 0 {
		g.enterAttackChoice()
	} else {
		g.chooseAttacker(f)
	}
	return nil
}

func (g *Game) rollDogfight(faces []int) {
	g.df.dice[g.df.side] = faces
	if g.dfFighter(g.df.side).load >= 0 {
		g.phase = phSidewinder
		return
	}
	g.nextDogfightSide()
}

func (g *Game) applySidewinder(m Move, vals map[engine.Slot][]byte) error {
	if err := expectKind(m, KindSidewinder, KindDone); err != nil {
		return err
	}
	if m.Kind == KindDone {
		g.nextDogfightSide()
		return nil
	}
	side := g.df.side
	s, f := g.dfSeat(side), g.df.fighter[side]
	if m.Use != UsePlus && m.Use != UseReroll {
		return engine.Illegal("a Sidewinder is used %q or %q, not %q", UsePlus, UseReroll, m.Use)
	}
	if m.Use == UseReroll && (m.Die < 0 || m.Die >= len(g.df.dice[side])) {
		return engine.Illegal("no die %d to roll again", m.Die)
	}
	if m.Use == UsePlus && m.Die != 0 {
		return engine.Illegal("adding one needs no die")
	}
	slot, _ := g.loadSlot(s, f)
	mis, err := DecodeMissile(vals[slot])
	if err != nil {
		return engine.Illegal("fighter %d: %s: %v", f, slot, err)
	}
	if mis != Sidewinder {
		return engine.Illegal("fighter %d: %s holds a %s, not a Sidewinder", f, slot, mis)
	}
	g.useLoad(s, f, mis)
	if m.Use == UsePlus {
		g.df.bonus[side] = 1
		g.emit(s, "sidewinder", "%s's Sidewinder adds one to its highest die", s)
		g.nextDogfightSide()
		return nil
	}
	g.df.reroll = m.Die
	g.emit(s, "sidewinder", "%s's Sidewinder rolls die %d again", s, m.Die)
	g.phase = phReroll
	return nil
}

func (g *Game) nextDogfightSide() {
	if g.df.side == 0 {
		g.df.side = 1
		g.phase = phDogfightRoll
		return
	}
	g.resolveDogfight()
}

// dogfightScore is a side's result: its highest die plus its Sidewinder bonus.
func (g *Game) dogfightScore(side int) int {
	return slices.Max(g.df.dice[side]) + g.df.bonus[side]
}

func (g *Game) resolveDogfight() {
	d, a := g.dogfightScore(0), g.dogfightScore(1)
	ds, as := other(g.active), g.active
	df, af := g.df.fighter[0], g.df.fighter[1]
	switch {
	case d > a:
		g.loseFighter(as, af)
		g.emit(ds, "dogfight", "%s's fighter %d (%d) shot down %s's fighter %d (%d)", ds, df, d, as, af, a)
	case a > d:
		g.loseFighter(ds, df)
		g.emit(as, "dogfight", "%s's fighter %d (%d) shot down %s's fighter %d (%d)", as, af, a, ds, df, d)
	default:
		g.loseFighter(ds, df)
		g.loseFighter(as, af)
		g.emit(engine.NoSeat, "dogfight", "tie at %d: both fighters are lost", d)
	}
	g.enterDogfight()
}
