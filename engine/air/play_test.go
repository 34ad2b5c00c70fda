package air

import (
	"fmt"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 15
	if testing.Short() {
		games = 5
	}
	for _, tc := range []struct {
		seats   int
		variant string
	}{{2, VariantStandard}, {3, VariantFreeForAll}, {4, VariantFreeForAll}, {4, VariantTeam}, {2, VariantMaxDamage}, {4, VariantMaxDamage}} {
		t.Run(fmt.Sprintf("%s/%d", tc.variant, tc.seats), func(t *testing.T) {
			for i := range games {
				seed := uint64(i*7 + tc.seats)
				r := newReferee(t, tc.seats, tc.variant, seed)
				r.play(t, randomAgents(tc.seats, seed), 200000, func() { invariants(t, r.g) })
				o := r.g.Outcome()
				if !o.Done || (o.Draw == (len(o.Winners) > 0)) {
					t.Fatalf("bad outcome %+v", o)
				}
			}
		})
	}
}

func TestSameInputsSameHash(t *testing.T) {
	for _, seats := range []int{2, 4} {
		r := newReferee(t, seats, VariantStandard, 5)
		twin, err := New(engine.Setup{Seats: seats})
		if err != nil {
			t.Fatal(err)
		}
		agents := randomAgents(seats, 5)
		for r.g.Next().Kind != engine.NeedNone {
			in, err := r.input(agents)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.apply(in); err != nil {
				t.Fatal(err)
			}
			if _, err := twin.Apply(in); err != nil {
				t.Fatalf("twin rejects an input the game took: %v", err)
			}
			if r.g.Hash() != twin.Hash() {
				t.Fatalf("hashes differ after step %d", r.steps)
			}
		}
	}
}
