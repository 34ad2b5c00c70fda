package air

import (
	"fmt"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 8
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
				r := newReferee(t, tc.seats, tc.variant, seed, randomAgents(tc.seats, seed))
				r.play(t, 200000, func() { invariants(t, r.Game) })
				o := r.Game.Outcome()
				if !o.Done || (o.Draw == (len(o.Winners) > 0)) {
					t.Fatalf("bad outcome %+v", o)
				}
			}
		})
	}
}

func TestSameInputsSameHash(t *testing.T) {
	for _, seats := range []int{2, 4} {
		r := newReferee(t, seats, VariantStandard, 5, randomAgents(seats, 5))
		twin, err := New(engine.Setup{Seats: seats})
		if err != nil {
			t.Fatal(err)
		}
		for r.Game.Next().Kind != engine.NeedNone {
			in, err := r.Input()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := r.Apply(in); err != nil {
				t.Fatal(err)
			}
			if _, err := twin.Apply(in); err != nil {
				t.Fatalf("twin rejects an input the game took: %v", err)
			}
			if r.Game.Hash() != twin.Hash() {
				t.Fatalf("hashes differ after step %d", r.Steps())
			}
		}
	}
}

func TestCloneIsIndependent(t *testing.T) {
	r := newReferee(t, 2, VariantStandard, 9, randomAgents(2, 9))
	r.runTo(t, func(n engine.Need) bool { return n.Kind == engine.NeedMove })
	c := r.Game.Clone()
	h := r.Game.Hash()
	if c.Hash() != h {
		t.Fatal("a clone hashes differently")
	}
	if _, err := r.Step(); err != nil {
		t.Fatal(err)
	}
	if c.Hash() != h {
		t.Fatal("stepping the game changed its clone")
	}
}

func TestSetup(t *testing.T) {
	cases := []struct {
		seats   int
		variant string
		ok      bool
	}{
		{2, "", true}, {3, VariantStandard, true}, {4, VariantStandard, true}, {1, VariantStandard, false}, {5, VariantStandard, false},
		{2, VariantFreeForAll, false}, {3, VariantFreeForAll, true}, {4, VariantTeam, true}, {3, VariantTeam, false},
		{2, VariantMaxDamage, true}, {2, "chess", false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.variant, c.seats), func(t *testing.T) {
			g, err := Spec.New(engine.Setup{Seats: c.seats, Variant: c.variant})
			if (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok = %v", err, c.ok)
			}
			if err != nil {
				return
			}
			ag := g.(*Game)
			for _, p := range ag.Planes() {
				want := F35Missiles
				if p.Kind == F22 {
					want = F22Missiles
				}
				if p.Missiles != want || p.Down {
					t.Fatalf("%s starts with %d missiles", p.Name(), p.Missiles)
				}
			}
			invariants(t, ag)
		})
	}
	if Spec.Variants[0] != VariantStandard || Spec.Rules != "air/1" || Spec.Name != "air" {
		t.Fatalf("spec %+v", Spec)
	}
}

// The fairness layer sends each chooser's opening together with its
// reveal ([engine.ChoiceOpener]), so what OpensAfter and OpenOf say before
// the choice must be exactly the NeedOpens the game asks after it, in
// every variant, round after round: an opening sent for the wrong slots
// would be refused, and its honest sender blamed.
func TestChoiceOpenerPredictsTheOpenings(t *testing.T) {
	for _, tc := range []struct {
		seats   int
		variant string
	}{{2, VariantStandard}, {3, VariantFreeForAll}, {4, VariantTeam}, {4, VariantMaxDamage}} {
		t.Run(fmt.Sprintf("%s/%d", tc.variant, tc.seats), func(t *testing.T) {
			for i := range 3 {
				seed := uint64(i*11 + tc.seats)
				r := newReferee(t, tc.seats, tc.variant, seed, randomAgents(tc.seats, seed))
				choices := 0
				for steps := 0; r.Game.Next().Kind != engine.NeedNone && steps < 200000; steps++ {
					need := r.Game.Next()
					if need.Kind != engine.NeedChoice {
						if _, err := r.Step(); err != nil {
							t.Fatal(err)
						}
						continue
					}
					in, err := r.Input()
					if err != nil {
						t.Fatal(err)
					}
					var want []engine.Need
					for _, s := range r.Game.OpensAfter(need) {
						k := slices.Index(need.Seats, s)
						n, err := r.Game.OpenOf(need, s, in.Choices[k])
						if err != nil {
							t.Fatalf("round of %s: %v", need.Name, err)
						}
						want = append(want, n)
					}
					if _, err := r.Apply(in); err != nil {
						t.Fatal(err)
					}
					choices++
					for _, w := range want {
						got := r.Game.Next()
						if got.Kind != engine.NeedOpen || got.Seat != w.Seat || !slices.Equal(got.Open, w.Open) || got.Prompt != w.Prompt {
							t.Fatalf("%s: the game asks %+v, OpenOf said %+v", need.Name, got, w)
						}
						if _, err := r.Step(); err != nil {
							t.Fatal(err)
						}
					}
					if got := r.Game.Next(); got.Kind == engine.NeedOpen {
						t.Fatalf("%s: the game asks an opening OpensAfter did not name: %+v", need.Name, got)
					}
				}
				if choices == 0 {
					t.Fatal("no choice in a whole game")
				}
			}
		})
	}
}
