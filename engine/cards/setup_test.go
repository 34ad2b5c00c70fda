package cards

import (
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func TestNewRejectsBadSetup(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup engine.Setup
	}{
		{"three seats", engine.Setup{Seats: 3}},
		{"one seat", engine.Setup{Seats: 1}},
		{"unknown variant", engine.Setup{Seats: 2, Variant: "expert"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(tc.setup); err == nil {
				t.Fatal("New accepted a bad setup")
			}
		})
	}
	if _, err := Spec.New(engine.Setup{Seats: 2}); err != nil {
		t.Fatalf("Spec.New default: %v", err)
	}
	if Spec.Variants[0] != VariantStandard {
		t.Fatalf("default variant %q", Spec.Variants[0])
	}
}

func TestSetupNeeds(t *testing.T) {
	for _, tc := range []struct {
		variant string
		deck    int
	}{{VariantStandard, 26}, {VariantBeginner, 20}} {
		t.Run(tc.variant, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, 4))
			tb := newTable(t, tc.variant, 5, NewRandomBot(r), NewRandomBot(r))
			tb.Script = []int{1} // seat 1 starts
			want := []engine.Need{
				{Kind: engine.NeedCommit, Seat: 0, Name: CoordsName, Size: 12},
				{Kind: engine.NeedCommit, Seat: 1, Name: CoordsName, Size: 12},
				{Kind: engine.NeedCommit, Seat: 0, Name: "deck/1", Size: tc.deck},
				{Kind: engine.NeedCommit, Seat: 1, Name: "deck/1", Size: tc.deck},
				{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: "first", Count: 1, Bound: 2},
				{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: "deal", Count: 2, Bound: drawBound(tc.deck, 5)},
				{Kind: engine.NeedMove, Seat: 1},
			}
			for i, w := range want {
				n := tb.Game.Next()
				if n.Kind != w.Kind || n.Seat != w.Seat || n.Name != w.Name || n.Size != w.Size || n.Count != w.Count || n.Bound != w.Bound {
					t.Fatalf("need %d = %+v, want %+v", i, n, w)
				}
				if i < len(want)-1 {
					if _, err := tb.Step(); err != nil {
						t.Fatal(err)
					}
				}
			}
			for s := engine.Seat(0); s < 2; s++ {
				if got := len(tb.Game.Hand(s)); got != HandSize {
					t.Errorf("%s holds %d cards, want %d", s, got, HandSize)
				}
				if got := tb.Game.DrawPile(s); got != tc.deck-HandSize {
					t.Errorf("%s draw pile %d, want %d", s, got, tc.deck-HandSize)
				}
			}
			if tb.Game.First() != 1 || tb.Game.Turn() != 1 {
				t.Errorf("first %s turn %s, want seat 1", tb.Game.First(), tb.Game.Turn())
			}
		})
	}
}

func TestDeckAndGridLists(t *testing.T) {
	std, _ := DeckList(VariantStandard)
	beg, _ := DeckList(VariantBeginner)
	if len(std) != 26 || len(beg) != 20 {
		t.Fatalf("deck sizes %d and %d, want 26 and 20", len(std), len(beg))
	}
	count := func(fs []Face) map[Face]int {
		m := map[Face]int{}
		for _, f := range fs {
			m[f]++
		}
		return m
	}
	want := map[Face]int{White: 10, Red1: 6, Red2: 3, Red4: 1, ShieldCard: 2, DiscardPlay: 2, RepairDraw: 2}
	for f, n := range count(std) {
		if want[f] != n {
			t.Errorf("standard deck has %d %s, want %d", n, f, want[f])
		}
	}
	for f := range count(beg) {
		if f.IsPower() {
			t.Errorf("beginner deck holds a power card %s", f)
		}
	}
	grid := CoordList()
	if len(grid) != 12 {
		t.Fatalf("%d coordinate cards, want 12", len(grid))
	}
	ships := map[Ship]int{}
	for _, k := range grid {
		ships[k]++
	}
	if ships[NoShip] != 7 || len(ships) != 6 {
		t.Errorf("coordinate cards %v, want 5 ships and 7 misses", ships)
	}
	hits := map[Ship]int{Carrier: 5, Battleship: 4, Destroyer: 3, Submarine: 3, PTBoat: 2}
	for k, h := range hits {
		if k.Hits() != h {
			t.Errorf("%s sinks at %d hits, want %d", k, k.Hits(), h)
		}
	}
	if _, err := DeckList("bogus"); err == nil {
		t.Error("DeckList accepted an unknown variant")
	}
}

func TestDrawDecodingIsABijection(t *testing.T) {
	for _, tc := range []struct{ r, k int }{{5, 3}, {6, 6}, {7, 1}, {4, 2}} {
		rem := make([]int, tc.r)
		for i := range rem {
			rem[i] = 10 + i
		}
		seen := map[[8]int]bool{}
		for v := range drawBound(tc.r, tc.k) {
			got := decodeDraw(rem, tc.k, v)
			var key [8]int
			distinct := map[int]bool{}
			for i, l := range got {
				key[i] = l
				distinct[l] = true
			}
			if len(got) != tc.k || len(distinct) != tc.k {
				t.Fatalf("R=%d k=%d v=%d: draw %v is not %d distinct leaves", tc.r, tc.k, v, got, tc.k)
			}
			if seen[key] {
				t.Fatalf("R=%d k=%d: draw %v twice", tc.r, tc.k, got)
			}
			seen[key] = true
		}
		if len(seen) != drawBound(tc.r, tc.k) {
			t.Fatalf("R=%d k=%d: %d draws, want %d", tc.r, tc.k, len(seen), drawBound(tc.r, tc.k))
		}
	}
}

func TestDrawCountKeepsBoundsSmall(t *testing.T) {
	for _, tc := range []struct{ r, want, k int }{
		{26, 5, 5}, {26, 7, 6}, {3, 7, 3}, {0, 4, 0}, {20, 7, 7}, {25, 7, 6}, {8, 7, 7},
	} {
		if got := drawCount(tc.r, tc.want); got != tc.k {
			t.Errorf("drawCount(%d, %d) = %d, want %d", tc.r, tc.want, got, tc.k)
		}
		if b := drawBound(tc.r, drawCount(tc.r, tc.want)); b > maxDrawBound {
			t.Errorf("bound %d above %d", b, maxDrawBound)
		}
	}
}
