package ubuild

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// applyFire takes the attacker's volley. Rules: classic fires exactly one
// shot and names no ship; otherwise the attacker names one afloat ship and
// fires 1..(weapons left on it) shots; every shot is a cell the attacker has
// never called before (house rule). In custom, a ship's weapon count is
// opened the first time it fires, which settles earlier claims about it.
func (st *state) applyFire(in engine.Input) ([]engine.Event, error) {
	a := in.Seat
	f, err := decodeFire(in.Move)
	if err != nil {
		return nil, err
	}
	own := &st.fleets[a]
	var want []engine.Slot
	if st.custom() && f.ship.Valid() && own.weapons[f.ship] == 0 {
		want = append(want, WeaponsSlot(a, f.ship))
	}
	vals, err := takeOpened(in.Opened, want)
	if err != nil {
		return nil, fmt.Errorf("fire: %w", err)
	}
	if len(want) == 1 {
		if err := st.openWeapons(a, f.ship, vals[0]); err != nil {
			return nil, fmt.Errorf("fire: %w", err)
		}
	}

	limit := ClassicShots
	if st.variant == Classic {
		if f.ship != NoShip {
			return nil, engine.Illegal("fire: the classic variant names no ship (got %s)", f.ship)
		}
	} else {
		if f.ship == NoShip {
			return nil, engine.Illegal("fire: name the ship that fires")
		}
		if own.sunk[f.ship] {
			return nil, engine.Illegal("fire: the %s is sunk", f.ship.Name())
		}
		limit = own.weapons[f.ship] - own.hits[f.ship]
	}
	if len(f.shots) > limit {
		return nil, engine.Illegal("fire: %d shots, but %s", len(f.shots), shotLimitText(st.variant, f.ship, limit))
	}
	target := &st.fleets[1-a]
	for _, c := range f.shots {
		if target.shot.has(c) {
			return nil, engine.Illegal("fire: %s was already called", c)
		}
	}

	st.turn++
	st.last = Volley{Turn: st.turn, Attacker: a, Ship: f.ship, Shots: f.shots}
	st.hasLast = true
	st.phase = PhaseAnswer
	return []engine.Event{volleyEvent(a, f.ship, f.shots)}, nil
}

func shotLimitText(variant string, s Ship, limit int) string {
	if variant == Classic {
		return fmt.Sprintf("the classic variant fires %d", limit)
	}
	return fmt.Sprintf("the %s has %d weapons left", s.Name(), limit)
}

func volleyEvent(a engine.Seat, s Ship, shots []Cell) engine.Event {
	if s != NoShip {
		return engine.Eventf(a, "fire", "%s (%s) fires at %s", a, s.Name(), cellList(shots))
	}
	return engine.Eventf(a, "fire", "%s fires at %s", a, cellList(shots))
}

// cellList writes cells as a volley's event names them: "C-2, C-4".
func cellList(cells []Cell) string {
	var buf [MaxWeapons * 6]byte
	b := buf[:0]
	for i, c := range cells {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = c.appendText(b)
	}
	return string(b)
}

// openWeapons records the opened weapon count of seat's ship s, checks it
// (one byte, MinWeapons..MaxWeapons, the fleet's known counts can still
// total the variant's fleet total) and settles the deferred claims about that ship.
func (st *state) openWeapons(seat engine.Seat, s Ship, v []byte) error {
	if len(v) != 1 {
		return engine.Illegal("%s's %s weapons: %d bytes, want 1", seat, s, len(v))
	}
	n := int(v[0])
	if n < MinWeapons || n > MaxWeapons {
		return engine.Illegal("%s's %s has %d weapons, not %d-%d", seat, s.Name(), n, MinWeapons, MaxWeapons)
	}
	f := &st.fleets[seat]
	f.weapons[s] = n
	known, hidden := 0, 0
	for _, w := range f.weapons {
		if w == 0 {
			hidden++
		}
		known += w
	}
	if known+hidden*MinWeapons > st.total || known+hidden*MaxWeapons < st.total {
		return engine.Illegal("%s's weapons opened so far (%v) cannot total %d", seat, f.weapons, st.total)
	}
	return st.settleClaims(seat, s)
}

// settleClaims checks the deferred claims about seat's ship s against its
// opened weapon count, and drops them. A false claim is an [*engine.Fault]
// naming seat and the turn of the claim.
func (st *state) settleClaims(seat engine.Seat, s Ship) error {
	f := &st.fleets[seat]
	w := f.weapons[s]
	var keep []claim
	var bad *claim
	for _, c := range f.claims {
		if c.ship != s {
			keep = append(keep, c)
			continue
		}
		if c.hits >= w && bad == nil {
			bad = &c
		}
	}
	if bad != nil {
		return &engine.Fault{Seat: seat, Err: engine.Illegal(
			"turn %d: %s claimed its %s hit but not sunk after %d hits, but it had %d weapons and sank at %d",
			bad.turn, seat, s.Name(), bad.hits, w, min(s.Plate(), w))}
	}
	f.claims = keep
	return nil
}
