package ubuild

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// answerSlots lists the slots an answer by seat must open: the grid cell of
// every shot, in shot order, then (custom) the weapon count of each ship the
// answer claims sunk while its count is hidden, in the order of the claims.
func (st *state) answerSlots(seat engine.Seat, rs []Report) []engine.Slot {
	out := make([]engine.Slot, 0, len(st.last.Shots)+1)
	for _, c := range st.last.Shots {
		out = append(out, GridSlot(seat, c))
	}
	if !st.custom() {
		return out
	}
	f := &st.fleets[seat]
	var listed [NumShips]bool
	for _, r := range rs {
		if r.Result == Sunk && r.Ship.Valid() && f.weapons[r.Ship] == 0 && !listed[r.Ship] {
			listed[r.Ship] = true
			out = append(out, WeaponsSlot(seat, r.Ship))
		}
	}
	return out
}

// applyAnswer takes the defender's answer and checks every claim against the
// opened cells: a result per shot, in shot order, for the shot's cell; miss
// on water; hit or sunk naming the ship on a ship cell; sunk exactly when the
// ship's hits reach min(plate, weapons); a cell of a ship already sunk is
// answered hit and changes nothing. In custom, a hit-not-sunk claim on a ship
// whose weapons are hidden is kept as a deferred check.
func (st *state) applyAnswer(in engine.Input) ([]engine.Event, error) {
	d, a := in.Seat, st.attacker
	rs, err := DecodeAnswer(in.Move)
	if err != nil {
		return nil, err
	}
	v := &st.last
	if len(rs) != len(v.Shots) {
		return nil, engine.Illegal("answer: %d results for %d shots", len(rs), len(v.Shots))
	}
	for i, r := range rs {
		if r.Cell != v.Shots[i] {
			return nil, engine.Illegal("answer: result %d is for %s, but shot %d was %s", i+1, r.Cell, i+1, v.Shots[i])
		}
	}
	want := st.answerSlots(d, rs)
	vals, err := takeOpened(in.Opened, want)
	if err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	f := &st.fleets[d]
	for i, c := range v.Shots {
		if len(vals[i]) != 1 || vals[i][0] > NumShips {
			return nil, engine.Illegal("answer: cell %s opened as %v, not a cell value 0-%d", c, vals[i], NumShips)
		}
		f.cells[c] = int8(vals[i][0])
		f.shot.set(c)
	}
	for j := len(v.Shots); j < len(want); j++ {
		if err := st.openWeapons(d, Ship(want[j].Index), vals[j]); err != nil {
			return nil, fmt.Errorf("answer: %w", err)
		}
	}

	ev := make([]engine.Event, 0, len(rs)+1)
	for _, r := range rs {
		if err := st.checkClaim(d, r); err != nil {
			return nil, fmt.Errorf("answer: %s: %w", r.Cell, err)
		}
		ev = append(ev, reportEvent(d, r))
	}
	if err := f.checkPlaceable(); err != nil {
		return nil, fmt.Errorf("answer: %w", err)
	}
	v.Results = rs

	if f.allSunk() {
		st.winner = a
		st.phase = PhaseReveal
		st.step = 0
		ev = append(ev, engine.Eventf(a, "fleet sunk", "%s sank the whole fleet of %s", a, d))
		return ev, nil
	}
	st.attacker = d
	st.phase = PhaseFire
	return ev, nil
}

// checkClaim checks one result of seat's answer against the opened cell,
// and records it.
func (st *state) checkClaim(seat engine.Seat, r Report) error {
	f := &st.fleets[seat]
	val := f.cells[r.Cell]
	if val == 0 {
		if r.Result != Miss {
			return engine.Illegal("water, not a %s", r.Result)
		}
		f.marks[r.Cell] = Mark{Result: Miss, Ship: NoShip}
		return nil
	}
	s := Ship(val - 1)
	switch {
	case r.Result == Miss:
		return engine.Illegal("a cell of the %s, not a miss", s.Name())
	case r.Ship != s:
		return engine.Illegal("a cell of the %s, not of the %s", s.Name(), r.Ship.Name())
	case f.sunk[s]:
		if r.Result != Hit {
			return engine.Illegal("the %s is already sunk: the answer is hit", s.Name())
		}
		f.marks[r.Cell] = Mark{Result: Hit, Ship: s}
		return nil
	}
	f.hits[s]++
	at, known := f.sinkAt(s)
	switch {
	case known && f.hits[s] == at:
		if r.Result != Sunk {
			return engine.Illegal("the %s sinks at %d hits: the answer is sunk", s.Name(), at)
		}
		f.sunk[s] = true
	case known:
		if r.Result != Hit {
			return engine.Illegal("the %s has %d hits and sinks at %d: sunk claimed too early", s.Name(), f.hits[s], at)
		}
	default: // custom, weapons hidden: a sunk claim would have opened them
		if f.hits[s] >= s.Plate() {
			return engine.Illegal("the %s takes hit %d of its plate's %d: the answer is sunk", s.Name(), f.hits[s], s.Plate())
		}
		f.claims = append(f.claims, claim{ship: s, hits: f.hits[s], turn: st.turn})
	}
	f.marks[r.Cell] = Mark{Result: r.Result, Ship: s}
	return nil
}

// checkPlaceable checks that the opened cells of each ship still fit one
// straight placement of its length that covers them and no cell opened as
// water or as another ship.
func (f *fleetState) checkPlaceable() error {
	var byVal [NumShips + 1]mask
	for c, v := range f.cells {
		if v >= 0 {
			byVal[v].set(Cell(c))
		}
	}
	var opened mask
	for _, m := range byVal {
		opened = opened.or(m)
	}
	for s := range Ship(NumShips) {
		own := byVal[s+1]
		blocked := opened.andNot(own)
		ok := false
		for _, p := range shipPlacements(s) {
			if p.cells.covers(own) && !p.cells.meets(blocked) {
				ok = true
				break
			}
		}
		if !ok {
			return engine.Illegal("the opened cells of the %s (%d of them) fit no straight placement of %d cells",
				s.Name(), own.count(), s.Plate())
		}
	}
	return nil
}

func reportEvent(d engine.Seat, r Report) engine.Event {
	if r.Result == Miss {
		return engine.Eventf(d, r.Result.String(), "%s: miss", r.Cell)
	}
	return engine.Eventf(d, r.Result.String(), "%s: %s, %s's %s", r.Cell, r.Result, d, r.Ship.Name())
}
