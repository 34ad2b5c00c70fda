package sea

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// hasFighters reports whether seat s has a fighter in flight or on deck.
func (g *Game) hasFighters(s engine.Seat) bool {
	for _, f := range g.sides[s].fighters {
		if f.state != Lost {
			return true
		}
	}
	return false
}

// fleetGone reports whether seat s has no fighter (in flight or on deck)
// and no destroyer left.
func (g *Game) fleetGone(s engine.Seat) bool {
	if g.hasFighters(s) {
		return false
	}
	for _, d := range g.sides[s].destroyers {
		if d.alive {
			return false
		}
	}
	return true
}

// harpoonAfloat reports whether seat s has a Harpoon in the water.
func (g *Game) harpoonAfloat(s engine.Seat) bool {
	for _, h := range g.harpoons {
		if h.owner == s {
			return true
		}
	}
	return false
}

// checkEnd ends the match when the rulebook's "Winning" sentences decide
// it, and reports whether the match is decided (a sunk carrier is decided
// where it sinks, in hitShip).
//
// The two end sentences can both apply when the last fighters and
// destroyers of both seats go at once (a tied dogfight) while a Harpoon is
// in the water: "destroy all enemy fighters and destroyers [with] no
// Harpoon missiles left in the water" would give the Harpoon's owner the
// win at once, "if both players' destroyers and fighters are destroyed,
// the player with no damage on the carrier wins" would not. The reading
// that follows both (DATA.md, house): when both fleets are gone, the
// Harpoons still in the water finish their moves first (on their owners'
// turns, as ever; a hit may still damage or sink a carrier), and then the
// "both destroyed" sentence decides by the carriers. The first sentence
// decides only while the winner still has a fighter or a destroyer.
func (g *Game) checkEnd() bool {
	if g.decided {
		return true
	}
	gone0, gone1 := g.fleetGone(0), g.fleetGone(1)
	afloat0, afloat1 := g.harpoonAfloat(0), g.harpoonAfloat(1)
	switch {
	case gone0 && gone1 && !afloat0 && !afloat1:
		g.finishByDamage("both fleets were destroyed")
	case gone0 && gone1:
		return false // the Harpoons in the water move first
	case gone0 && !afloat0:
		g.finish([]engine.Seat{1}, "destroyed every enemy fighter and destroyer")
	case gone1 && !afloat1:
		g.finish([]engine.Seat{0}, "destroyed every enemy fighter and destroyer")
	default:
		return false
	}
	return true
}

// finishByDamage decides by the carriers: an undamaged carrier beats a
// damaged one; otherwise a tie.
func (g *Game) finishByDamage(reason string) {
	d0, d1 := g.sides[0].carrier.damaged, g.sides[1].carrier.damaged
	switch {
	case d0 == d1:
		g.finish(nil, reason+": tie")
	case d0:
		g.finish([]engine.Seat{1}, reason+": the undamaged carrier wins")
	default:
		g.finish([]engine.Seat{0}, reason+": the undamaged carrier wins")
	}
}

// finish decides the match and starts the final reveal.
func (g *Game) finish(winners []engine.Seat, reason string) {
	g.decided = true
	g.outcome = engine.Outcome{Done: true, Winners: winners, Draw: len(winners) == 0, Reason: reason}
	g.step = 0
	g.emit(engine.NoSeat, "end", "match over: %s", reason)
	g.enterReveal(0)
}

// enterReveal asks seat s, then the other, to open every remaining secret.
func (g *Game) enterReveal(s engine.Seat) {
	for ; s <= 1; s++ {
		if len(g.unopened(s)) > 0 {
			g.revealSeat = s
			g.phase = phReveal
			return
		}
	}
	g.revealSeat = engine.NoSeat
	g.phase = phOver
}

// applyReveal takes the final openings of one seat and checks them: every
// missile is a Sidewinder or a Harpoon, and the squadron's strengths are
// exactly StrengthMultiset.
func (g *Game) applyReveal(n engine.Need, vals map[engine.Slot][]byte) error {
	s := n.Seat
	sd := &g.sides[s]
	for _, slot := range n.Open {
		v := vals[slot]
		if slot.Name == StrengthsName {
			st, err := DecodeStrength(v)
			if err != nil {
				return &engine.Fault{Seat: s, Err: engine.Illegal("%s: %v", slot, err)}
			}
			sd.fighters[slot.Index].strength = st
			continue
		}
		mis, err := DecodeMissile(v)
		if err != nil {
			return &engine.Fault{Seat: s, Err: engine.Illegal("%s: %v", slot, err)}
		}
		for i := range g.loads {
			if g.loads[i].owner == s && g.loads[i].name == slot.Name {
				g.loads[i].opened, g.loads[i].missile = true, mis
			}
		}
	}
	if err := checkSquadron(sd.fighters); err != nil {
		return &engine.Fault{Seat: s, Err: fmt.Errorf("%s's squadron: %w", s, err)}
	}
	g.emit(s, "reveal", "%s revealed its remaining secrets", s)
	g.enterReveal(s + 1)
	return nil
}

// checkSquadron checks that the strengths of a squadron are exactly
// StrengthMultiset.
func checkSquadron(fs [FightersPerSide]fighter) error {
	var counts [MaxStrength + 1]int
	for _, f := range fs {
		counts[f.strength]++
	}
	ok := true
	var got, want []string
	for v := MinStrength; v <= MaxStrength; v++ {
		ok = ok && counts[v] == strengthCount(v)
		got = append(got, fmt.Sprintf("%d fighters of strength %d", counts[v], v))
		want = append(want, fmt.Sprintf("%d", strengthCount(v)))
	}
	if !ok {
		return engine.Illegal("%s; the rules say %s of strengths %d-%d", strings.Join(got, ", "), strings.Join(want, ", "), MinStrength, MaxStrength)
	}
	return nil
}
