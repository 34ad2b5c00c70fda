package air

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// removalPoints are the needs at which the tests take a player off the
// table: every kind of need the match has, so that a departure lands in
// every phase (shuffle, deal, card choice, turning over, a plane's turn
// and each of its rolls).
var removalPoints = []engine.NeedKind{engine.NeedShuffle, engine.NeedDeal, engine.NeedChoice, engine.NeedOpen, engine.NeedMove, engine.NeedRandom}

// Issue 14 requirement 4: in a free-for-all of three or four (Maximum
// Damage beyond two players too) a player who leaves is taken off the
// table and the others play on to the game's own end, "the last player in
// the game wins". Random matches take the seat a need names (or, for a
// joint need, its first contributor) off the table at each kind of need;
// afterwards no need asks it for anything, its planes are off the board,
// every card is still accounted for, and the winner is never the leaver.
func TestRemovedSeatLeavesAndOthersPlayOn(t *testing.T) {
	for _, tc := range []struct {
		seats   int
		variant string
	}{{3, VariantFreeForAll}, {4, VariantFreeForAll}, {4, VariantMaxDamage}, {3, VariantStandard}} {
		for pi, kind := range removalPoints {
			t.Run(fmt.Sprintf("%s/%d/%s", tc.variant, tc.seats, kind), func(t *testing.T) {
				seed := uint64(pi*31 + tc.seats)
				r := newReferee(t, tc.seats, tc.variant, seed, randomAgents(tc.seats, seed))
				seen, want := 0, 3
				if kind == engine.NeedShuffle {
					want = 2 // the first reshuffle of the discard pile
				}
				r.runTo(t, func(n engine.Need) bool {
					if n.Kind == kind {
						seen++
					}
					return seen == want || n.Kind == engine.NeedNone
				})
				n := r.Game.Next()
				if n.Kind == engine.NeedNone {
					t.Skip("the match ended before the wanted need")
				}
				gone := n.Seat
				if gone == engine.NoSeat {
					gone = n.Seats[0]
				}
				if !r.Game.PlaysOn(gone) {
					t.Fatalf("%s cannot leave a running free-for-all", gone)
				}
				evs, err := r.Game.Remove(gone)
				if err != nil {
					t.Fatal(err)
				}
				if len(evs) == 0 || evs[0].Kind != "left" || !strings.Contains(evs[0].Text, "play goes on") {
					t.Fatalf("events %v: want the departure first", evs)
				}
				if !r.Game.Out(gone) || !r.Game.Gone(gone) || r.Game.PlaysOn(gone) {
					t.Fatalf("%s left but is not out of the game", gone)
				}
				if _, err := r.Game.Remove(gone); err == nil {
					t.Fatal("a seat was taken off the table twice")
				}
				invariants(t, r.Game)
				r.play(t, 200000, func() {
					invariants(t, r.Game)
					if slices.Contains(asked(r.Game.Next()), gone) {
						t.Fatalf("the departed %s is asked for %s", gone, r.Game.Next().Kind)
					}
				})
				o := r.Game.Outcome()
				if !o.Done || slices.Contains(o.Winners, gone) {
					t.Fatalf("outcome %+v with %s gone", o, gone)
				}
				if !o.Draw && tc.seats == 3 && o.Reason != "last player standing" {
					t.Fatalf("reason %q, want the last player standing", o.Reason)
				}
			})
		}
	}
}

// The team game and a two-player match do not play on: a departure there
// is a forfeit (the other team, or the other player, wins).
func TestRemoveOnlyInAFreeForAll(t *testing.T) {
	for _, tc := range []struct {
		seats   int
		variant string
	}{{4, VariantTeam}, {2, VariantStandard}, {2, VariantMaxDamage}} {
		g, err := New(engine.Setup{Seats: tc.seats, Variant: tc.variant})
		if err != nil {
			t.Fatal(err)
		}
		before := g.Hash()
		if g.PlaysOn(0) {
			t.Errorf("%s with %d: a departure plays on", tc.variant, tc.seats)
		}
		if _, err := g.Remove(0); err == nil || g.Hash() != before {
			t.Errorf("%s with %d: Remove took a seat off the table", tc.variant, tc.seats)
		}
	}
	g, _ := New(engine.Setup{Seats: 3, Variant: VariantFreeForAll})
	if g.PlaysOn(3) || g.PlaysOn(engine.NoSeat) {
		t.Error("a seat that is not at the table plays on")
	}
}
