package ubuild

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Answer implements [engine.Answerer]: it writes the honest answer of seat,
// the defender, to the pending volley, reading the shot cells (and in custom
// the weapon counts of ships it hits) from seat's secrets.
func (g *Game) Answer(seat engine.Seat, n engine.Need, sec engine.Secrets) ([]byte, error) {
	rs, err := g.HonestReports(seat, sec)
	if err != nil {
		return nil, err
	}
	if len(n.Open) != len(rs) {
		return nil, fmt.Errorf("ubuild: answer: need opens %d cells, the volley has %d shots", len(n.Open), len(rs))
	}
	b, err := encodeAnswer(rs)
	if err != nil {
		return nil, fmt.Errorf("ubuild: answer: %w", err)
	}
	return b, nil
}

// HonestReports returns the results the rules dictate for the pending volley
// against seat, given seat's secrets.
func (g *Game) HonestReports(seat engine.Seat, sec engine.Secrets) ([]Report, error) {
	st := &g.st
	if st.phase != PhaseAnswer || seat != 1-st.attacker {
		return nil, fmt.Errorf("ubuild: answer: no volley awaits an answer from %s", seat)
	}
	if sec == nil {
		return nil, fmt.Errorf("ubuild: answer: no secrets for %s", seat)
	}
	f := &st.fleets[seat]
	hits, sunk := f.hits, f.sunk
	rs := make([]Report, len(st.last.Shots))
	for i, c := range st.last.Shots {
		v, ok := sec.Value(GridSlot(seat, c))
		if !ok || len(v) != 1 || v[0] > NumShips {
			return nil, fmt.Errorf("ubuild: answer: %s's cell %s is unknown or malformed", seat, c)
		}
		if v[0] == 0 {
			rs[i] = Report{Cell: c, Result: Miss, Ship: NoShip}
			continue
		}
		s := Ship(v[0] - 1)
		rs[i] = Report{Cell: c, Result: Hit, Ship: s}
		if sunk[s] {
			continue
		}
		w := f.weapons[s]
		if w == 0 {
			if w, ok = secretWeapons(sec, seat, s); !ok {
				return nil, fmt.Errorf("ubuild: answer: %s's %s weapons are unknown", seat, s)
			}
		}
		hits[s]++
		if hits[s] >= min(s.Plate(), w) {
			sunk[s] = true
			rs[i].Result = Sunk
		}
	}
	return rs, nil
}
