package ubuild

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// applyReveal takes the final reveal of one seat: every slot not opened yet.
// It then checks the seat's layout (each ship its plate number of cells in
// one straight contiguous line, nothing else), and in custom the weapon
// counts (each 1..10, the fleet's total in all) and every deferred claim. A
// failure is an [*engine.Fault] naming the seat.
func (st *state) applyReveal(in engine.Input, need engine.Need) ([]engine.Event, error) {
	s := need.Seat
	vals, err := takeOpened(in.Opened, need.Open)
	if err != nil {
		return nil, fmt.Errorf("reveal: %w", err)
	}
	fault := func(err error) error { return &engine.Fault{Seat: s, Err: fmt.Errorf("final reveal: %w", err)} }
	f := &st.fleets[s]
	for i, slot := range need.Open {
		v := vals[i]
		if slot.Name == WeaponsName {
			if len(v) != 1 {
				return nil, fault(engine.Illegal("%s weapons: %d bytes, want 1", Ship(slot.Index), len(v)))
			}
			f.weapons[slot.Index] = int(v[0]) // checked below
			continue
		}
		if len(v) != 1 || v[0] > NumShips {
			return nil, fault(engine.Illegal("cell %s opened as %v, not a cell value 0-%d", Cell(slot.Index), v, NumShips))
		}
		f.cells[slot.Index] = int8(v[0])
	}
	var g [NumCells]byte
	for c, v := range f.cells {
		g[c] = byte(v)
	}
	if _, err := LayoutFromCells(g); err != nil {
		return nil, fault(engine.Illegal("bad layout: %v", err))
	}
	if st.custom() {
		if err := ValidateWeapons(f.weapons, st.total); err != nil {
			return nil, fault(engine.Illegal("bad weapons: %v", err))
		}
		for sh := range Ship(NumShips) {
			if err := st.settleClaims(s, sh); err != nil {
				return nil, err
			}
		}
	}
	f.revealed = true
	ev := []engine.Event{engine.Eventf(s, "reveal", "%s revealed a legal fleet", s)}
	st.step++
	if st.step == 2 {
		st.phase = PhaseDone
		ev = append(ev, engine.Eventf(st.winner, "win", "%s wins: %s", st.winner, WinReason))
	}
	return ev, nil
}
