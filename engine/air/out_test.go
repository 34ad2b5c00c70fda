package air

import (
	"fmt"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// asked lists every seat a need asks for something: the seat that acts and
// every contributor of a joint roll, choice or shuffle.
func asked(n engine.Need) []engine.Seat {
	out := slices.Clone(n.Seats)
	if n.Seat != engine.NoSeat {
		out = append(out, n.Seat)
	}
	return out
}

// TestOutSeatNeverAsked plays random 3-4 player matches and checks, after
// every input, that no need names a seat that lost both planes: a shot-down
// player is out of the game and nothing waits for it (issue 14 point 18).
// Before, every die and every reshuffle listed all seats.
func TestOutSeatNeverAsked(t *testing.T) {
	for _, tc := range []struct {
		seats   int
		variant string
	}{{3, VariantFreeForAll}, {4, VariantFreeForAll}, {4, VariantMaxDamage}, {3, VariantStandard}} {
		t.Run(fmt.Sprintf("%s/%d", tc.variant, tc.seats), func(t *testing.T) {
			outSeen := 0
			for i := range 6 {
				seed := uint64(i*13 + tc.seats)
				r := newReferee(t, tc.seats, tc.variant, seed, randomAgents(tc.seats, seed))
				r.play(t, 200000, func() {
					n := r.Game.Next()
					for _, s := range asked(n) {
						if r.Game.Out(s) {
							t.Fatalf("round %d: %s is out, yet the %s need %q asks it", r.Game.Round(), s, n.Kind, n.Name)
						}
					}
					for s := range tc.seats {
						if r.Game.Out(engine.Seat(s)) && n.Kind != engine.NeedNone {
							outSeen++
							return
						}
					}
				})
			}
			if outSeen == 0 {
				t.Fatal("no match went on after a seat was out: the test checked nothing")
			}
		})
	}
}

// TestOutSeatOfTable: Out is true exactly for a seat with both planes down.
func TestOutSeatOfTable(t *testing.T) {
	for _, tc := range []struct {
		down []int // plane IDs shot down
		out  []bool
	}{
		{nil, []bool{false, false, false}},
		{[]int{0}, []bool{false, false, false}},
		{[]int{0, 1}, []bool{true, false, false}},
		{[]int{2, 5}, []bool{false, false, false}},
		{[]int{2, 3, 4, 5}, []bool{false, true, true}},
	} {
		g, err := New(engine.Setup{Seats: 3, Variant: VariantFreeForAll})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range tc.down {
			g.planes[id].Down = true
		}
		for s, want := range tc.out {
			if got := g.Out(engine.Seat(s)); got != want {
				t.Errorf("down %v: Out(%d) = %v, want %v", tc.down, s, got, want)
			}
		}
		if g.Out(engine.NoSeat) || g.Out(3) {
			t.Errorf("Out of a seat that is not at the table")
		}
		for _, s := range g.flyingSeats() {
			if g.Out(s) {
				t.Errorf("down %v: flying seats list %s, which is out", tc.down, s)
			}
		}
	}
}
