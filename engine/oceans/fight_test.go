package oceans

import (
	"testing"
)

// runFight fights att against def, taking the listed picks (by card kind)
// at each real decision, and returns the winner, the totals and the sides
// that played zero-valued cards, in order.
func runFight(t *testing.T, att, def []Card, picks []Card, actors []int) (int, int, int, []int) {
	t.Helper()
	f := newFight(toBattle(att), toBattle(def))
	var log []fightEvent
	for n := 0; ; n++ {
		c := f.settle(&log)
		if c.kind == choiceNone {
			break
		}
		if n >= len(picks) {
			t.Fatalf("unexpected decision %+v", c)
		}
		if actors != nil && c.actor != actors[n] {
			t.Fatalf("decision %d is made by side %d, want %d", n, c.actor, actors[n])
		}
		i := -1
		for j, x := range f.side(c.side) {
			if c.opts&(1<<j) != 0 && x.card == picks[n] {
				i = j
				break
			}
		}
		if i < 0 {
			t.Fatalf("decision %d: %s is not an option", n, picks[n])
		}
		f.resolve(c, i, &log)
	}
	var zeros []int
	for _, e := range log {
		if e.kind == "zero" {
			zeros = append(zeros, e.side)
		}
	}
	return f.winner(), f.total(attackerSide), f.total(defenderSide), zeros
}

func TestBattleRules(t *testing.T) {
	const A, D, none = attackerSide, defenderSide, -1
	type C = []Card
	cases := []struct {
		name     string
		att, def C
		picks    C
		actors   []int
		winner   int
		at, dt   int
		zeros    []int
	}{
		{name: "fighter beside a carrier is worth 3", att: C{Carrier, Fighter}, def: C{Battleship}, winner: A, at: 5, dt: 4},
		{name: "fighter without a carrier is worth 1", att: C{Fighter, Destroyer}, def: C{Battleship}, winner: D, at: 3, dt: 4},
		{name: "one carrier lifts every fighter", att: C{Carrier, Fighter, Fighter}, def: C{Battleship, Battleship}, winner: D, at: 8, dt: 8},
		{name: "submarine is worth 5 against no destroyer", att: C{Submarine}, def: C{Battleship}, winner: A, at: 5, dt: 4},
		{name: "submarine is worth 2 against a destroyer", att: C{Submarine, PTBoat}, def: C{Destroyer}, winner: A, at: 3, dt: 2},
		{name: "tie goes to the defender", att: C{Battleship}, def: C{Carrier, Destroyer}, winner: D, at: 4, dt: 4},
		{name: "no cards remaining: nobody wins", att: C{Minefield}, def: C{Minefield}, winner: none, zeros: []int{D, A}},
		{name: "depth charges destroy every attacking submarine", att: C{Submarine, Submarine, PTBoat}, def: C{DepthCharges, Destroyer}, winner: D, at: 1, dt: 2, zeros: []int{D}},
		{name: "depth charges destroy defending submarines too", att: C{DepthCharges, Battleship}, def: C{Submarine, Submarine}, winner: A, at: 4, dt: 0, zeros: []int{A}},
		{name: "minefield owner picks the target without a PT Boat", att: C{Battleship, Destroyer}, def: C{Minefield, Submarine},
			picks: C{Battleship}, actors: []int{D}, winner: D, at: 2, dt: 2, zeros: []int{D}},
		{name: "PT Boat owner picks the target", att: C{Battleship, PTBoat}, def: C{Minefield, Submarine},
			picks: C{PTBoat}, actors: []int{A}, winner: D, at: 4, dt: 5, zeros: []int{D}},
		{name: "minefield cannot hit a submarine or a fighter", att: C{Submarine, Fighter}, def: C{Minefield}, winner: A, at: 6, dt: 0, zeros: []int{D}},
		{name: "zero cards alternate from the defender", att: C{Minefield, Minefield, Battleship, Battleship}, def: C{Minefield, Minefield, Carrier, Carrier},
			winner: none, zeros: []int{D, A, D, A}},
		{name: "a seat with zero cards left lets the other play on", att: C{Minefield, DepthCharges, Battleship}, def: C{Minefield, Battleship, Battleship, Submarine},
			picks: C{DepthCharges}, actors: []int{A}, winner: D, at: 0, dt: 4, zeros: []int{D, A, A}},
		{name: "forced attack on an empty ocean: any positive total wins", att: C{PTBoat}, def: nil, winner: A, at: 1, dt: 0},
		{name: "forced attack on an empty ocean with zero cards only: nobody wins", att: C{Minefield, DepthCharges}, def: nil,
			picks: C{Minefield}, winner: none, zeros: []int{A, A}},
		{name: "destroying the last destroyer makes submarines worth 5", att: C{Minefield, Submarine}, def: C{Destroyer, PTBoat},
			picks: C{Destroyer}, actors: []int{D}, winner: A, at: 5, dt: 1, zeros: []int{A}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, at, dt, zeros := runFight(t, tc.att, tc.def, tc.picks, tc.actors)
			if w != tc.winner || at != tc.at || dt != tc.dt {
				t.Errorf("winner %d with %d to %d, want %d with %d to %d", w, at, dt, tc.winner, tc.at, tc.dt)
			}
			if len(zeros) != len(tc.zeros) {
				t.Errorf("zero cards played by %v, want %v", zeros, tc.zeros)
			} else {
				for i := range zeros {
					if zeros[i] != tc.zeros[i] {
						t.Errorf("zero cards played by %v, want %v", zeros, tc.zeros)
						break
					}
				}
			}
		})
	}
}

// TestSolveFight checks the exact battle solver the strong bot uses.
func TestSolveFight(t *testing.T) {
	// The PT Boat owner saves the Battleship by giving up the PT Boat.
	f := newFight(toBattle([]Card{Battleship, PTBoat}), toBattle([]Card{Minefield, Destroyer}))
	c := f.settle(nil) // the defender's only zero card resolves itself
	w, best := solveFight(f)
	if c.kind != choiceTarget || c.actor != attackerSide {
		t.Fatalf("pending %+v, want the attacker's target choice", c)
	}
	if got := f.side(c.side)[best].card; got != PTBoat || w != attackerSide {
		t.Fatalf("solver sacrifices %s and gets winner %d, want PT Boat and the attacker", got, w)
	}
}
