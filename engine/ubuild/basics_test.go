package ubuild

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func TestParseCell(t *testing.T) {
	good := []struct {
		in   string
		want Cell
	}{
		{"C-2", 21}, {"C2", 21}, {"c-2", 21}, {"c2", 21},
		{"A-1", 0}, {"A1", 0}, {"J-10", 99}, {"j10", 99}, {"A-10", 9}, {"J-1", 90},
	}
	for _, tc := range good {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseCell(tc.in)
			if err != nil || c != tc.want {
				t.Fatalf("ParseCell(%q) = %d, %v; want %d", tc.in, c, err, tc.want)
			}
		})
	}
	bad := []string{"", "C", "C-", "K-1", "A-0", "A-11", "A--1", "A-01", "A1-", "1-A", "AA",
		" A-1", "A-1 ", "A-100", "@-1", "A-1x", "A+1", "A-9a"}
	for _, in := range bad {
		t.Run("bad "+in, func(t *testing.T) {
			if c, err := ParseCell(in); err == nil || !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("ParseCell(%q) = %d, %v; want an illegal-input error", in, c, err)
			}
		})
	}
}

func TestCellString(t *testing.T) {
	for _, tc := range []struct {
		c    Cell
		want string
	}{{0, "A-1"}, {21, "C-2"}, {9, "A-10"}, {99, "J-10"}, {-1, "cell(-1)"}, {100, "cell(100)"}} {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.c.String(); got != tc.want {
				t.Fatalf("Cell(%d).String() = %q, want %q", tc.c, got, tc.want)
			}
		})
	}
	for c := range Cell(NumCells) {
		back, err := ParseCell(c.String())
		if err != nil || back != c {
			t.Fatalf("%d -> %q -> %d, %v", c, c, back, err)
		}
	}
}

func TestShips(t *testing.T) {
	for _, tc := range []struct {
		s           Ship
		key, name   string
		plate       int
		standardGun int
	}{
		{Battleship, "battleship", "Battleship", 5, 5},
		{Carrier, "carrier", "Aircraft Carrier", 4, 4},
		{Destroyer, "destroyer", "Destroyer", 3, 3},
		{Submarine, "submarine", "Submarine", 3, 3},
		{PTBoat, "ptboat", "PT Boat", 2, 2},
	} {
		t.Run(tc.key, func(t *testing.T) {
			if tc.s.Key() != tc.key || tc.s.Name() != tc.name || tc.s.Plate() != tc.plate {
				t.Fatalf("%d: %q %q %d", tc.s, tc.s.Key(), tc.s.Name(), tc.s.Plate())
			}
			if got, ok := ShipByKey(tc.key); !ok || got != tc.s {
				t.Fatalf("ShipByKey(%q) = %v, %v", tc.key, got, ok)
			}
			if StandardWeapons()[tc.s] != tc.standardGun {
				t.Fatalf("standard weapons %d", StandardWeapons()[tc.s])
			}
		})
	}
	if _, ok := ShipByKey("cruiser"); ok {
		t.Fatal("ShipByKey accepted cruiser")
	}
	if NoShip.Key() != "" || NoShip.Plate() != 0 || NoShip.Valid() {
		t.Fatal("NoShip is not empty")
	}
}

func TestLayoutValidate(t *testing.T) {
	ok := layout0(t)
	cases := []struct {
		name string
		edit func(*Layout)
		bad  bool
	}{
		{"legal", func(*Layout) {}, false},
		{"vertical legal", func(l *Layout) { l[Battleship] = Placement{Start: 5, Vertical: true} }, false},
		{"leaves the right edge", func(l *Layout) { l[Battleship] = Placement{Start: 6} }, true},
		{"leaves the bottom", func(l *Layout) { l[PTBoat] = Placement{Start: 95, Vertical: true} }, true},
		{"off the grid", func(l *Layout) { l[PTBoat] = Placement{Start: 100} }, true},
		{"overlap", func(l *Layout) { l[Carrier] = Placement{Start: 1, Vertical: true} }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := ok
			tc.edit(&l)
			if err := l.Validate(); (err != nil) != tc.bad {
				t.Fatalf("Validate() = %v, want bad=%v", err, tc.bad)
			}
		})
	}
}

func TestLayoutFromCells(t *testing.T) {
	base := layout1(t).Cells()
	cases := []struct {
		name string
		edit func(*[NumCells]byte)
		bad  string
	}{
		{"legal", func(*[NumCells]byte) {}, ""},
		{"value out of range", func(g *[NumCells]byte) { g[50] = 6 }, "not a ship"},
		{"ship too short", func(g *[NumCells]byte) { g[9] = 0 }, "Destroyer occupies 2 cells"},
		{"ship too long", func(g *[NumCells]byte) { g[6] = 3 }, "Destroyer occupies 4 cells"},
		{"bent ship", func(g *[NumCells]byte) { g[9], g[17] = 0, 3 }, "not 3 in one straight line"},
		{"gap", func(g *[NumCells]byte) { g[8], g[6] = 0, 3 }, "not 3 in one straight line"},
		{"missing ship", func(g *[NumCells]byte) { g[48], g[58] = 0, 0 }, "PT Boat is missing"},
		{"wraps a row", func(g *[NumCells]byte) { g[7], g[8], g[9], g[10] = 3, 3, 0, 3 }, "straight line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := base
			tc.edit(&g)
			l, err := LayoutFromCells(g)
			if tc.bad == "" {
				if err != nil || l != layout1(t) {
					t.Fatalf("got %v, %v", l, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Fatalf("LayoutFromCells: %v, want %q", err, tc.bad)
			}
		})
	}
}

func TestRandomLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var seenVertical, seenHorizontal [NumShips]bool
	var cover [NumCells]int
	const n = 4000
	for range n {
		l := RandomLayout(r)
		if err := l.Validate(); err != nil {
			t.Fatal(err)
		}
		back, err := LayoutFromCells(l.Cells())
		if err != nil || back != l {
			t.Fatalf("round trip: %v %v", back, err)
		}
		for s, p := range l {
			seenVertical[s] = seenVertical[s] || p.Vertical
			seenHorizontal[s] = seenHorizontal[s] || !p.Vertical
		}
		for c, v := range l.Cells() {
			if v != 0 {
				cover[c]++
			}
		}
	}
	for s := range NumShips {
		if !seenVertical[s] || !seenHorizontal[s] {
			t.Errorf("ship %d never drawn in both directions", s)
		}
	}
	// Uniform layouts put ships in the middle more often than in corners,
	// but every cell is used: 17 of 100 cells on average.
	if cover[0] == 0 || cover[0] >= cover[44] {
		t.Errorf("corner covered %d times, centre %d", cover[0], cover[44])
	}
}

func TestWeapons(t *testing.T) {
	cases := []struct {
		name  string
		w     [NumShips]int
		total int
		bad   string
	}{
		{"standard is short of 20", StandardWeapons(), 20, "17, not 20"},
		{"standard moved around, 17 a fleet", [NumShips]int{7, 4, 2, 2, 2}, 17, ""},
		{"standard counts, 17 a fleet", StandardWeapons(), 17, ""},
		{"20 is too many for 17", [NumShips]int{6, 5, 4, 3, 2}, 17, "20, not 17"},
		{"matt's carrier", [NumShips]int{4, 10, 2, 2, 2}, 20, ""},
		{"margaret's battleship", [NumShips]int{1, 4, 5, 5, 5}, 20, ""},
		{"zero weapons", [NumShips]int{0, 10, 5, 3, 2}, 20, "Battleship has 0 weapons"},
		{"eleven weapons", [NumShips]int{11, 3, 2, 2, 2}, 20, "Battleship has 11 weapons"},
		{"too many", [NumShips]int{10, 10, 1, 1, 1}, 20, "23, not 20"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ValidateWeapons(tc.w, tc.total)
			if (err == nil) != (tc.bad == "") || err != nil && !strings.Contains(err.Error(), tc.bad) {
				t.Fatalf("ValidateWeapons(%v) = %v, want %q", tc.w, err, tc.bad)
			}
		})
	}
	r := rand.New(rand.NewPCG(3, 4))
	var lo, hi [NumShips]int
	for i := range lo {
		lo[i] = MaxWeapons
	}
	for range 5000 {
		w := RandomWeapons(r, MaxFleetWeapons)
		if err := ValidateWeapons(w, MaxFleetWeapons); err != nil {
			t.Fatal(err)
		}
		for i, n := range w {
			lo[i], hi[i] = min(lo[i], n), max(hi[i], n)
		}
	}
	for i := range lo {
		if lo[i] != MinWeapons || hi[i] < 9 {
			t.Errorf("ship %d drew only %d..%d weapons", i, lo[i], hi[i])
		}
	}
}

func TestNew(t *testing.T) {
	cases := []struct {
		name  string
		setup engine.Setup
		want  string
		bad   bool
	}{
		{"default is standard", engine.Setup{Seats: 2}, Standard, false},
		{"custom", engine.Setup{Seats: 2, Variant: Custom}, Custom, false},
		{"custom, 17 a fleet", engine.Setup{Seats: 2, Variant: "custom-17"}, "custom-17", false},
		{"custom, 19 a fleet", engine.Setup{Seats: 2, Variant: "custom-19"}, "custom-19", false},
		{"custom, 16 a fleet", engine.Setup{Seats: 2, Variant: "custom-16"}, "", true},
		{"custom, 21 a fleet", engine.Setup{Seats: 2, Variant: "custom-21"}, "", true},
		{"custom-20 is spelled custom", engine.Setup{Seats: 2, Variant: "custom-20"}, "", true},
		{"custom-017", engine.Setup{Seats: 2, Variant: "custom-017"}, "", true},
		{"classic", engine.Setup{Seats: 2, Variant: Classic}, Classic, false},
		{"unknown variant", engine.Setup{Seats: 2, Variant: "salvo"}, "", true},
		{"three seats", engine.Setup{Seats: 3}, "", true},
		{"one seat", engine.Setup{Seats: 1}, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := New(tc.setup)
			if tc.bad {
				if err == nil || !errors.Is(err, engine.ErrIllegal) {
					t.Fatalf("New(%+v) = %v", tc.setup, err)
				}
				if sg, err := Spec.New(tc.setup); err == nil || sg != nil {
					t.Fatalf("Spec.New(%+v) = %v, %v", tc.setup, sg, err)
				}
				return
			}
			if err != nil || g.Variant() != tc.want {
				t.Fatalf("New(%+v) = %v, %v", tc.setup, g, err)
			}
		})
	}
	if Spec.Name != "ubuild" || Spec.Title != "Battleship U-Build" || Spec.Rules != "ubuild/1" ||
		Spec.MinSeats != 2 || Spec.MaxSeats != 2 || Spec.Variants[0] != Standard || len(Spec.Variants) != 6 {
		t.Fatalf("Spec = %+v", Spec)
	}
}

// TestFleetTotals: the host sets a custom fleet's total from the standard 17
// to the box's 20, one variant name each; the build a fleet starts from
// (the build screen's "standard counts") is legal at every total.
func TestFleetTotals(t *testing.T) {
	if got := StandardWeapons(); got[0]+got[1]+got[2]+got[3]+got[4] != MinFleetWeapons {
		t.Fatalf("the standard fleet %v does not total MinFleetWeapons %d", got, MinFleetWeapons)
	}
	cases := []struct {
		variant string
		total   int
		custom  bool
		build   [NumShips]int
	}{
		{"custom-17", 17, true, [NumShips]int{5, 4, 3, 3, 2}},
		{"custom-18", 18, true, [NumShips]int{6, 4, 3, 3, 2}},
		{"custom-19", 19, true, [NumShips]int{6, 5, 3, 3, 2}},
		{Custom, 20, true, [NumShips]int{6, 5, 4, 3, 2}},
		{Standard, 0, false, [NumShips]int{}},
		{Classic, 0, false, [NumShips]int{}},
		{"custom-20", 0, false, [NumShips]int{}},
		{"custom-5", 0, false, [NumShips]int{}},
		{"custom-+18", 0, false, [NumShips]int{}},
	}
	for _, tc := range cases {
		t.Run(tc.variant, func(t *testing.T) {
			n, ok := FleetTotal(tc.variant)
			if ok != tc.custom || n != tc.total {
				t.Fatalf("FleetTotal(%q) = %d, %v; want %d, %v", tc.variant, n, ok, tc.total, tc.custom)
			}
			if !ok {
				return
			}
			if CustomVariant(n) != tc.variant {
				t.Fatalf("CustomVariant(%d) = %q", n, CustomVariant(n))
			}
			b := StandardBuild(n)
			if b != tc.build {
				t.Fatalf("StandardBuild(%d) = %v, want %v", n, b, tc.build)
			}
			if err := ValidateWeapons(b, n); err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(uint64(n), 1))
			for range 200 {
				if w := RandomWeapons(r, n); ValidateWeapons(w, n) != nil {
					t.Fatalf("RandomWeapons(%d) = %v", n, w)
				}
			}
			if w := NewHunterBot(r).weapons(n); ValidateWeapons(w, n) != nil {
				t.Fatalf("hunter build for %d: %v", n, w)
			}
		})
	}
}
