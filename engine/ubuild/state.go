package ubuild

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Phase is the stage a match is in.
type Phase uint8

// The stages of a match, in order.
const (
	PhaseSetup  Phase = iota // seats commit their grids (and weapons)
	PhaseFirst               // the coin flip for the first attacker
	PhaseFire                // the attacker fires a volley
	PhaseAnswer              // the defender answers the volley
	PhaseReveal              // the final reveal of every hidden slot
	PhaseDone                // the match is over
)

var phaseNames = [...]string{"setup", "first player", "fire", "answer", "reveal", "done"}

// String returns the phase's name.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Mark is what is publicly known of one cell of a seat's grid: the result of
// the shot it received (Unshot if none) and the ship named.
type Mark struct {
	Result Result
	Ship   Ship
}

// Volley is one turn's volley and, once answered, its answer.
type Volley struct {
	Turn     int         // the turn number, from 1
	Attacker engine.Seat // the seat that fired
	Ship     Ship        // the ship that fired (NoShip in classic)
	Shots    []Cell      // the shots, in order
	Results  []Report    // the answer, in shot order; nil until answered
}

// clone returns an independent copy.
func (v Volley) clone() Volley {
	v.Shots = slices.Clone(v.Shots)
	v.Results = slices.Clone(v.Results)
	return v
}

// claim is a deferred check: in custom, the defender said ship was hit but
// not sunk after hits hits, on turn turn, while its weapons were hidden. The
// claim is true if the ship had more than hits weapons.
type claim struct {
	ship Ship
	hits int
	turn int
}

// fleetState is the public state of one seat's grid and fleet.
type fleetState struct {
	roots     [2]engine.Digest // commitment roots: grid, weapons
	committed int              // how many vectors are committed
	cells     [NumCells]int8   // opened cell values; -1 while hidden
	marks     [NumCells]Mark   // shots received
	shot      mask             // cells called by the opponent
	hits      [NumShips]int    // hits counted toward sinking
	sunk      [NumShips]bool
	weapons   [NumShips]int // starting weapons; 0 while hidden (custom)
	claims    []claim       // deferred checks, unsettled
	revealed  bool          // the final reveal is done
}

// state is the whole public state of a match. It is a plain value apart
// from a few slices, so that Apply can work on a copy and keep it only on
// success.
type state struct {
	variant  string
	total    int // a custom variant's weapons a fleet ([FleetTotal]), 0 otherwise; not hashed, the variant is
	phase    Phase
	step     int // setup: index into commitSteps; reveal: the seat
	first    engine.Seat
	attacker engine.Seat
	winner   engine.Seat
	turn     int
	last     Volley
	hasLast  bool
	fleets   [2]fleetState
}

func newState(variant string) state {
	total, _ := FleetTotal(variant)
	st := state{variant: variant, total: total, first: engine.NoSeat, attacker: engine.NoSeat, winner: engine.NoSeat}
	for i := range st.fleets {
		f := &st.fleets[i]
		for c := range f.cells {
			f.cells[c] = -1
			f.marks[c].Ship = NoShip
		}
		if total == 0 {
			f.weapons = StandardWeapons()
		}
	}
	return st
}

// custom reports a custom variant: weapon counts hidden, committed at setup.
func (st *state) custom() bool { return st.total != 0 }

// clone returns an independent copy.
func (st *state) clone() state {
	n := *st
	n.last = st.last.clone()
	for i := range n.fleets {
		n.fleets[i].claims = slices.Clone(st.fleets[i].claims)
	}
	return n
}

// hash digests the whole public state.
func (st *state) hash() engine.Digest {
	h := engine.NewHasher("salvo/ubuild/state/1")
	h.String(st.variant).Int(int(st.phase)).Int(st.step)
	h.Int(int(st.first)).Int(int(st.attacker)).Int(int(st.winner)).Int(st.turn)
	h.Bool(st.hasLast)
	if st.hasLast {
		v := &st.last
		h.Int(v.Turn).Int(int(v.Attacker)).Int(int(v.Ship)).Int(len(v.Shots))
		for _, c := range v.Shots {
			h.Int(int(c))
		}
		h.Bool(v.Results != nil).Int(len(v.Results))
		for _, r := range v.Results {
			h.Int(int(r.Cell)).Int(int(r.Result)).Int(int(r.Ship))
		}
	}
	var buf [NumCells]byte
	for i := range st.fleets {
		f := &st.fleets[i]
		h.Int(f.committed).Digest(f.roots[0]).Digest(f.roots[1])
		for c, v := range f.cells {
			buf[c] = byte(v)
		}
		h.Bytes(buf[:])
		for c, m := range f.marks {
			buf[c] = byte(m.Result)<<4 | byte(m.Ship+1)
		}
		h.Bytes(buf[:])
		h.Ints(f.hits[:]...).Ints(f.weapons[:]...)
		for _, s := range f.sunk {
			h.Bool(s)
		}
		h.Int(len(f.claims))
		for _, c := range f.claims {
			h.Int(int(c.ship)).Int(c.hits).Int(c.turn)
		}
		h.Bool(f.revealed)
	}
	return h.Sum()
}

// sinkAt returns the hits that sink ship s of fleet f and whether that is
// known yet (custom weapons may be hidden).
func (f *fleetState) sinkAt(s Ship) (int, bool) {
	if f.weapons[s] == 0 {
		return s.Plate(), false
	}
	return min(s.Plate(), f.weapons[s]), true
}

// allSunk reports whether every ship of f is sunk.
func (f *fleetState) allSunk() bool {
	for _, s := range f.sunk {
		if !s {
			return false
		}
	}
	return true
}
