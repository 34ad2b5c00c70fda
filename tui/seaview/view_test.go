package seaview

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestStrengthKeys(t *testing.T) {
	tests := []struct {
		name string
		keys []any
		want []int // nil: no commitment
		msg  string
	}{
		{"enter commits the squadron in ascending order", []any{tcell.KeyEnter}, []int{2, 2, 3, 3, 3, 3, 4, 4}, ""},
		{"a fighter raised is refused", []any{tcell.KeyRight, tcell.KeyEnter}, nil, "two 2s, four 3s, two 4s; you have 1 2s, 5 3s"},
		{"a digit sets a strength", []any{"4", tcell.KeyEnter}, nil, "1 2s, 3 4s"},
		{"swap the first and last", []any{"4", tcell.KeyUp, "2", tcell.KeyEnter}, []int{4, 2, 3, 3, 3, 3, 4, 2}, ""},
		{"left wraps from 2 to 4", []any{tcell.KeyLeft, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, "-", "-", tcell.KeyEnter}, []int{4, 2, 3, 3, 3, 3, 2, 4}, ""},
		{"c sorts again", []any{"x", "c", tcell.KeyEnter}, []int{2, 2, 3, 3, 3, 3, 4, 4}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, 1)
			v := newView()
			req := d.ask(v)
			if v.mode != mStrengths {
				t.Fatalf("mode %d for %s", v.mode, req.Need.Name)
			}
			boardtest.Press(t, v, tc.keys...)
			dec, ok := req.Answer()
			if tc.want == nil {
				unanswered(t, v, req, tc.msg)
				return
			}
			if !ok {
				t.Fatalf("no commitment: %q", v.Prompt())
			}
			var got []int
			for _, l := range dec.Leaves {
				s, err := sea.DecodeStrength(l)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("strengths %v, want %v", got, tc.want)
			}
			d.answer(req)
		})
	}
}

func TestShuffledStrengthsAreAlwaysTheSquadron(t *testing.T) {
	for i := range 30 {
		d := newDriver(t, uint64(i))
		v := newView()
		req := d.ask(v)
		boardtest.Press(t, v, strings.Repeat("x", i%4+1), tcell.KeyEnter)
		if _, ok := req.Answer(); !ok {
			t.Fatalf("run %d: %q", i, v.Prompt())
		}
		d.answer(req) // the engine checks nothing yet; the final reveal would
		dec, _ := req.Answer()
		counts := map[int]int{}
		for _, l := range dec.Leaves {
			s, _ := sea.DecodeStrength(l)
			counts[s]++
		}
		if counts[2] != 2 || counts[3] != 4 || counts[4] != 2 {
			t.Fatalf("run %d: %v", i, counts)
		}
	}
}

func TestStrengthRowsTakeClicks(t *testing.T) {
	d := newDriver(t, 1)
	v := newView()
	req := d.ask(v)
	boardtest.Render(t, v, 71, 27)
	var row rowGeo
	for _, r := range v.geo.rows {
		if r.row == (paneRow{rowFighter, 3}) {
			row = r
		}
	}
	if row.W == 0 {
		t.Fatalf("no row for fighter 3: %+v", v.geo.rows)
	}
	boardtest.Mouse(v, tview.MouseLeftClick, row.X+2, row.Y) // 3 → 4
	boardtest.Mouse(v, tview.MouseRightClick, row.X+2, row.Y)
	boardtest.Mouse(v, tview.MouseRightClick, row.X+2, row.Y) // 4 → 3 → 2
	if v.str.sel != 3 || v.str.vals[3] != 2 {
		t.Fatalf("after the clicks: selected %d, strengths %v", v.str.sel, v.str.vals)
	}
	unanswered(t, v, req, "")
}

// placeFor plays the strong bots to seat 0's placement of piece.
func placeFor(t *testing.T, piece sea.Piece) *driver {
	return find(t, func(d *driver, n engine.Need) bool {
		_, p, ok := d.g.Placing()
		return isMove(n, sea.NeedPlace) && ok && p == piece
	})
}

func TestPlacementKeys(t *testing.T) {
	tests := []struct {
		name  string
		piece sea.Piece
		keys  []any
		ok    bool
		msg   string
	}{
		{"a random legal carrier", sea.PieceCarrier, []any{"x", tcell.KeyEnter}, true, ""},
		{"the next legal carrier", sea.PieceCarrier, []any{"n", tcell.KeyEnter}, true, ""},
		{"a carrier on the enemy half is refused", sea.PieceCarrier, []any{tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter}, false, "not on your half"},
		{"a random legal destroyer", sea.PieceDestroyer, []any{"x", tcell.KeyEnter}, true, ""},
		{"a destroyer far from the carrier is refused", sea.PieceDestroyer, []any{"n", tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter}, false, "exactly 2 spaces from your carrier"},
		{"a random legal shallow", sea.PieceShallow, []any{"x", tcell.KeyEnter}, true, ""},
		{"a shallow has no facing", sea.PieceShallow, []any{"r"}, false, "a shallow has no facing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := placeFor(t, tc.piece)
			v := newView()
			req := d.ask(v)
			if v.mode != mPlace || v.pl.piece != tc.piece {
				t.Fatalf("mode %d piece %s", v.mode, v.pl.piece)
			}
			boardtest.Press(t, v, tc.keys...)
			if !tc.ok {
				unanswered(t, v, req, tc.msg)
				return
			}
			m := moveOf(t, req)
			if m.Kind != sea.KindPlace || m.Piece != tc.piece {
				t.Fatalf("move %+v", m)
			}
			d.answer(req)
		})
	}
}

func TestPlacementTurnsAndPreviews(t *testing.T) {
	d := placeFor(t, sea.PieceCarrier)
	v := newView()
	d.ask(v)
	if v.pl.facing != sea.South {
		t.Fatalf("seat 0's carrier starts facing %s", v.pl.facing)
	}
	boardtest.Press(t, v, "r")
	if v.pl.facing != sea.West {
		t.Fatalf("r turned the carrier to %s", v.pl.facing)
	}
	boardtest.Press(t, v, "R", "R")
	if v.pl.facing != sea.East {
		t.Fatalf("R R turned it to %s", v.pl.facing)
	}
	boardtest.Press(t, v, "n")
	scr := boardtest.Render(t, v, 71, 27)
	if g, _ := glyphAt(scr, v, v.cur); g != ownCarrierBow[sea.East] {
		t.Fatalf("the floating bow is drawn %q\n%s", g, boardtest.Text(scr))
	}
	if g, _ := glyphAt(scr, v, sea.Step(v.cur, sea.East)); g != gLaunch {
		t.Fatalf("the launch space is drawn %q", g)
	}
	v.cur = sea.At(5, 12) // the enemy half
	scr = boardtest.Render(t, v, 71, 27)
	if g, _ := glyphAt(scr, v, v.cur); g != gClash {
		t.Fatalf("an illegal placement is drawn %q, want %q", g, gClash)
	}
	if !contains(v.Prompt(), "not legal") {
		t.Fatalf("prompt %q", v.Prompt())
	}
}

// TestPlaceEveryPieceByMouse places both fleets with clicks alone: a right
// click turns the piece, a left click places it.
func TestPlaceEveryPieceByMouse(t *testing.T) {
	d := newDriver(t, 5)
	v := newView()
	for d.g.Next().Kind != engine.NeedNone && d.g.Turn() == 0 {
		n := d.g.Next()
		if n.Kind != engine.NeedMove {
			d.step()
			continue
		}
		req := d.ask(v)
		opt := d.g.PlacementOptions()[len(d.g.PlacementOptions())/2]
		boardtest.Render(t, v, 71, 27)
		for i := 0; opt.Facing != nil && v.pl.facing != *opt.Facing && i < 8; i++ {
			x, y := v.geo.screenOf(v.cur)
			boardtest.Mouse(v, tview.MouseRightClick, x, y)
		}
		clickCell(v, *opt.Cell)
		if m := moveOf(t, req); m.Cell == nil || *m.Cell != *opt.Cell {
			t.Fatalf("placed %+v, want %+v", m, opt)
		}
		d.answer(req)
	}
	if d.g.Turn() != 1 {
		t.Fatalf("the match did not start: %s", d.g.Next().Prompt)
	}
}

func TestHarpoonPick(t *testing.T) {
	d := findWith(t, 1, newEager, named(sea.NeedHarpoonPick))
	v := newView()
	req := d.ask(v)
	ids := d.g.PendingHarpoons()
	boardtest.Press(t, v, tcell.KeyTab, tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindHarpoon || m.Harpoon != ids[1%len(ids)] {
		t.Fatalf("picked %+v of %v", m, ids)
	}
	d.answer(req)
}

func TestHarpoonPathIntoAShip(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		if !isMove(n, sea.NeedHarpoonPath) && !isMove(n, sea.NeedLaunchPath) {
			return false
		}
		return slices.ContainsFunc(d.g.HarpoonDestinations(), func(x sea.Destination) bool { return x.Hit })
	})
	v := newView()
	req := d.ask(v)
	if !contains(v.Prompt(), "in reach (◎)") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	scr := boardtest.Render(t, v, 71, 27)
	if g, _ := glyphAt(scr, v, v.cur); g != gTarget {
		t.Fatalf("the cursor's hit is drawn %q\n%s", g, boardtest.Text(scr))
	}
	want := v.path.dests[0]
	boardtest.Press(t, v, tcell.KeyEnter)
	if m := moveOf(t, req); !slices.Equal(m.Path, want.Path) || !want.Hit {
		t.Fatalf("path %v, want %v", m.Path, want.Path)
	}
	d.answer(req)
}

func TestHarpoonPathRefusesWhatItCannotReach(t *testing.T) {
	d := find(t, named(sea.NeedHarpoonPath))
	v := newView()
	req := d.ask(v)
	v.cur = sea.At(0, 0)
	if _, ok := v.path.at(v.cur); ok {
		v.cur = sea.At(sea.Cols-1, sea.Rows-1)
	}
	boardtest.Press(t, v, tcell.KeyEnter)
	unanswered(t, v, req, "cannot reach")
	boardtest.Press(t, v, "d")
	if m := moveOf(t, req); m.Kind != sea.KindPath || len(m.Path) != 0 {
		t.Fatalf("d sent %+v", m)
	}
	d.answer(req)
}

func TestLaunchPathByMouse(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		return isMove(n, sea.NeedLaunchPath) && len(d.g.HarpoonDestinations()) > 0
	})
	v := newView()
	req := d.ask(v)
	boardtest.Render(t, v, 71, 27)
	dest := d.g.HarpoonDestinations()[0]
	clickCell(v, dest.Cell)
	if m := moveOf(t, req); len(m.Path) == 0 || m.Path[len(m.Path)-1] != dest.Cell {
		t.Fatalf("path %v, want it to end at %s", m.Path, dest.Cell)
	}
	d.answer(req)
}

func TestReturnFighters(t *testing.T) {
	d := find(t, named(sea.NeedReturn))
	v := newView()
	req := d.ask(v)
	flying := v.flying()
	v.cur = sea.NoCell
	v.move(0, 0)
	for v.ownFighterAt(v.cur) >= 0 {
		v.move(1, 0)
	}
	boardtest.Press(t, v, " ")
	unanswered(t, v, req, "not on one of your fighters")
	boardtest.Press(t, v, tcell.KeyTab, " ", tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindReturn || len(m.Fighters) != 1 || !slices.Contains(flying, m.Fighters[0]) {
		t.Fatalf("returned %+v of %v", m, flying)
	}
	d.answer(req)
	if n := d.g.Next(); n.Kind != engine.NeedRandom || n.Count != sea.ScrambleDice-1 {
		t.Fatalf("after one return: %s %s of %d dice", n.Kind, n.Name, n.Count)
	}
}

func TestScrambleKeys(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		return isMove(n, sea.NeedScramble) && len(d.g.ScrambleRoll()) >= 3 && len(d.g.Admiral(0).Deck) >= 2
	})
	v := newView()
	req := d.ask(v)
	dice := d.g.ScrambleRoll()
	first := v.scr.fighter
	// n puts the cursor on the nearest place to the enemy; enter plans it.
	boardtest.Press(t, v, "n")
	dest := v.cur
	boardtest.Press(t, v, tcell.KeyEnter)
	if len(v.scr.flights) != 1 || v.scr.flights[0].Fighter != first {
		t.Fatalf("planned %+v", v.scr.flights)
	}
	// A second flight with the smallest die, then undone.
	small := slices.Index(dice, slices.Min(dice))
	boardtest.Press(t, v, string(rune('1'+small)), "n", tcell.KeyEnter, "u")
	if len(v.scr.flights) != 1 {
		t.Fatalf("after undo: %+v", v.scr.flights)
	}
	// A place out of reach is refused with the reason.
	v.cur = sea.At(0, sea.Rows-1)
	boardtest.Press(t, v, tcell.KeyEnter)
	unanswered(t, v, req, "cannot stop at")
	boardtest.Press(t, v, "f")
	m := moveOf(t, req)
	if m.Kind != sea.KindScramble || len(m.Flights) != 1 || m.Flights[0].Path[len(m.Flights[0].Path)-1] != dest {
		t.Fatalf("scrambled %+v, want one flight to %s", m, dest)
	}
	d.answer(req)
}

func TestScrambleByMouse(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		return isMove(n, sea.NeedScramble) && len(d.g.Admiral(0).Deck) >= 2
	})
	v := newView()
	req := d.ask(v)
	boardtest.Render(t, v, 71, 27)
	// Click the last fighter's token in the pane, then a place it can reach.
	var tok rowGeo
	for _, r := range v.geo.rows {
		if r.row.kind == rowFighter {
			tok = r
		}
	}
	boardtest.Mouse(v, tview.MouseLeftClick, tok.X, tok.Y)
	if v.scr.fighter != tok.row.index {
		t.Fatalf("selected %d, clicked %d", v.scr.fighter, tok.row.index)
	}
	ds := v.scr.dests(v)
	if len(ds) == 0 {
		t.Fatal("nowhere to go")
	}
	clickCell(v, ds[len(ds)-1].Cell)
	boardtest.Press(t, v, "f")
	m := moveOf(t, req)
	if len(m.Flights) != 1 || m.Flights[0].Fighter != tok.row.index {
		t.Fatalf("scrambled %+v", m)
	}
	d.answer(req)
}

func TestLoadMissile(t *testing.T) {
	for _, k := range []struct {
		key  string
		leaf string
	}{{"h", "H"}, {"s", "S"}} {
		d := find(t, func(_ *driver, n engine.Need) bool { return n.Kind == engine.NeedCommit && n.Name != sea.StrengthsName })
		v := newView()
		req := d.ask(v)
		if v.mode != mLoad || !contains(v.Prompt(), "Load fighter") {
			t.Fatalf("mode %d prompt %q", v.mode, v.Prompt())
		}
		boardtest.Press(t, v, k.key)
		dec, ok := req.Answer()
		if !ok || len(dec.Leaves) != 1 || string(dec.Leaves[0]) != k.leaf {
			t.Fatalf("%s loaded %q", k.key, dec.Leaves)
		}
		d.answer(req)
	}
}

func TestDestroyerFires(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		if !isMove(n, sea.NeedDestroyers) {
			return false
		}
		for _, dv := range d.g.Destroyers(0) {
			if dv.Afloat && !dv.Acted && len(d.g.FireTargets(0, dv.Index)) > 0 {
				return true
			}
		}
		return false
	})
	v := newView()
	req := d.ask(v)
	ts := d.g.FireTargets(0, v.ds.d)
	if len(ts) == 0 {
		t.Fatalf("destroyer %d selected, which has no target", v.ds.d)
	}
	scr := boardtest.Render(t, v, 71, 27)
	if !contains(boardtest.Text(scr), " away · ") {
		t.Fatalf("no target list\n%s", boardtest.Text(scr))
	}
	boardtest.Press(t, v, tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindFire || m.Destroyer != v.ds.d || *m.Target != ts[0].Target {
		t.Fatalf("fired %+v, want at %v", m, ts[0].Target)
	}
	d.answer(req)
	if f, ok := d.g.PendingFire(); !ok || f.Distance != ts[0].Distance {
		t.Fatalf("pending fire %+v", f)
	}
}

func TestDestroyerMoves(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		return isMove(n, sea.NeedDestroyers) && len(d.g.DestroyerMoves(0, 0)) > 1 && !d.g.Destroyers(0)[0].Acted
	})
	v := newView()
	req := d.ask(v)
	if v.ds.d != 0 {
		boardtest.Press(t, v, tcell.KeyTab)
	}
	boardtest.Press(t, v, "m")
	scr := boardtest.Render(t, v, 71, 27)
	bow := v.cur
	if g, _ := glyphAt(scr, v, bow); !slices.Contains(destroyerBow[:], g) {
		t.Fatalf("the moved destroyer's bow is drawn %q\n%s", g, boardtest.Text(scr))
	}
	boardtest.Press(t, v, tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindMove || m.Destroyer != 0 || m.Path[len(m.Path)-1] != bow {
		t.Fatalf("moved %+v, want the bow to %s", m, bow)
	}
	d.answer(req)
	if d.g.Destroyers(0)[0].Bow != bow {
		t.Fatalf("the destroyer's bow is at %s", d.g.Destroyers(0)[0].Bow)
	}
}

func TestDestroyerRefusalsSayWhy(t *testing.T) {
	d := find(t, named(sea.NeedDestroyers))
	v := newView()
	req := d.ask(v)
	// The enemy carrier's farthest space is out of range.
	dv := d.g.Destroyers(0)[v.ds.d]
	far := sea.NoCell
	for _, c := range d.g.Carrier(1).Cells {
		if sea.MinDist([]sea.Cell{dv.Bow, dv.Stern}, []sea.Cell{c}) > sea.FireRange {
			far = c
		}
	}
	if far != sea.NoCell {
		v.cur = far
		boardtest.Press(t, v, tcell.KeyEnter)
		unanswered(t, v, req, "out of range")
	}
	v.cur = dv.Stern // backwards
	boardtest.Press(t, v, tcell.KeyEnter)
	if _, ok := req.Answer(); ok {
		t.Fatal("answered at the stern")
	}
	boardtest.Press(t, v, "d")
	if m := moveOf(t, req); m.Kind != sea.KindDone {
		t.Fatalf("d sent %+v", m)
	}
	d.answer(req)
}

func TestDefensiveFire(t *testing.T) {
	d := find(t, named(sea.NeedDefense))
	v := newView()
	req := d.ask(v)
	if !v.ds.defense || !contains(v.Prompt(), "Defensive fire") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	for _, b := range v.Bindings() {
		if b.Label == "m" {
			t.Fatal("defensive fire offers moves")
		}
	}
	ts := d.g.FireTargets(0, v.ds.d)
	boardtest.Press(t, v, tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindFire || *m.Target != ts[0].Target {
		t.Fatalf("fired %+v", m)
	}
	d.answer(req)
}

func TestDeckLosses(t *testing.T) {
	d := findWith(t, 25, nil, named(sea.NeedDamage))
	v := newView()
	req := d.ask(v)
	_, count, _ := d.g.PendingDamage()
	boardtest.Press(t, v, tcell.KeyEnter)
	unanswered(t, v, req, "mark exactly")
	boardtest.Press(t, v, "x", tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindRemove || len(m.Fighters) != count {
		t.Fatalf("removed %+v, want %d", m, count)
	}
	fs := d.g.Fighters(0, d.own(0))
	for _, f := range d.g.Admiral(0).Deck {
		if !slices.Contains(m.Fighters, f) {
			for _, r := range m.Fighters {
				if fs[r].Strength > fs[f].Strength {
					t.Fatalf("x removed fighter %d (%d) and kept %d (%d)", r, fs[r].Strength, f, fs[f].Strength)
				}
			}
		}
	}
	d.answer(req)
}

func TestDogfighterChoice(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		return isMove(n, sea.NeedDefender) || isMove(n, sea.NeedAttacker)
	})
	v := newView()
	req := d.ask(v)
	cands := d.g.DogfightCandidates()
	v.cur = sea.NoCell
	v.move(0, 0)
	for slices.Contains(cands, v.ownFighterAt(v.cur)) {
		v.move(1, 0)
	}
	boardtest.Press(t, v, tcell.KeyEnter)
	unanswered(t, v, req, "tab puts it on one")
	boardtest.Press(t, v, tcell.KeyTab, tcell.KeyEnter)
	m := moveOf(t, req)
	if m.Kind != sea.KindFighter || !slices.Contains(cands, m.Fighter) {
		t.Fatalf("chose %+v of %v", m, cands)
	}
	d.answer(req)
}

func TestSidewinder(t *testing.T) {
	for _, tc := range []struct {
		missile sea.Missile
		hint    uint64
	}{{sea.Sidewinder, 10}, {sea.Harpoon, 16}} {
		missile := tc.missile
		t.Run(missile.String(), func(t *testing.T) {
			d := findWith(t, tc.hint, newEager, func(d *driver, n engine.Need) bool {
				if !isMove(n, sea.NeedSidewinder) {
					return false
				}
				df, _ := d.g.Dogfight()
				return d.g.Fighters(0, d.own(0))[df.Fighters[df.Rolling]].Missile == missile
			})
			v := newView()
			req := d.ask(v)
			if missile == sea.Harpoon {
				boardtest.Press(t, v, "+")
				unanswered(t, v, req, "no Sidewinder")
				boardtest.Press(t, v, tcell.KeyEnter)
				if m := moveOf(t, req); m.Kind != sea.KindDone {
					t.Fatalf("sent %+v", m)
				}
				d.answer(req)
				return
			}
			if !contains(v.Prompt(), "Sidewinder: + adds one") {
				t.Fatalf("prompt %q", v.Prompt())
			}
			boardtest.Press(t, v, "2")
			m := moveOf(t, req)
			if m.Kind != sea.KindSidewinder || m.Use != sea.UseReroll || m.Die != 1 {
				t.Fatalf("sent %+v", m)
			}
			d.answer(req)
			if n := d.g.Next(); n.Kind != engine.NeedRandom || n.Name != "reroll" {
				t.Fatalf("after the re-roll: %s %s", n.Kind, n.Name)
			}
		})
	}
}

func TestLaunch(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		if !isMove(n, sea.NeedLaunch) {
			return false
		}
		for _, f := range d.g.Fighters(0, d.own(0)) {
			if f.State == sea.InFlight && f.Missile == sea.Harpoon {
				return true
			}
		}
		return false
	})
	v := newView()
	req := d.ask(v)
	f := v.pick.items[0]
	boardtest.Render(t, v, 71, 27)
	clickCell(v, d.g.Fighters(0, nil)[f].Cell)
	m := moveOf(t, req)
	if m.Kind != sea.KindLaunch || m.Fighter != f {
		t.Fatalf("launched %+v, want fighter %d", m, f)
	}
	d.answer(req)
	if n := d.g.Next(); n.Name != "launch" || n.Kind != engine.NeedRandom {
		t.Fatalf("after the launch: %s %s", n.Kind, n.Name)
	}
}

func TestLaunchDoneEndsTheTurn(t *testing.T) {
	d := find(t, named(sea.NeedLaunch))
	v := newView()
	req := d.ask(v)
	turn := d.g.Turn()
	boardtest.Press(t, v, "d")
	d.answer(req)
	if d.g.Turn() != turn+1 {
		t.Fatalf("turn %d after d, was %d", d.g.Turn(), turn)
	}
}

func TestWithdrawStopsAsking(t *testing.T) {
	d := find(t, named(sea.NeedScramble))
	v := newView()
	req := d.ask(v)
	v.Withdraw(req)
	if v.Prompt() != "" || v.mode != idle {
		t.Fatalf("still asking: %q", v.Prompt())
	}
	boardtest.Press(t, v, "f")
	if _, ok := req.Answer(); ok {
		t.Fatal("a withdrawn request was answered")
	}
}

// TestBindingsHaveHelp checks that every visible key hint has a sentence
// in the help, in every mode a match goes through.
func TestBindingsHaveHelp(t *testing.T) {
	d := newDriver(t, 4)
	v := newView()
	seen := map[mode]bool{}
	for d.g.Next().Kind != engine.NeedNone {
		n := d.g.Next()
		if n.Seat == 0 && (n.Kind == engine.NeedMove || n.Kind == engine.NeedCommit) {
			req := board.NewRequest(n, 0, d.g.Clone(), d.own(0))
			v.Ask(req)
			seen[v.mode] = true
			for _, b := range v.Bindings() {
				if !b.Hidden && (b.Help == "" || b.Hint == "") {
					t.Fatalf("mode %d: binding %q without help", v.mode, b.Label)
				}
			}
			v.Withdraw(req)
		}
		d.step()
	}
	if len(seen) < 8 {
		t.Fatalf("only %d modes seen", len(seen))
	}
}

// TestShowWhileAskedDrawsTheNewestGame pins board.Pending's rule on this
// board: a snapshot shown while a request is pending is drawn (the board
// used to hold the request's game), the request's own game still checks
// the answer, and the decision under way stays.
func TestShowWhileAskedDrawsTheNewestGame(t *testing.T) {
	d := newDriver(t, 1)
	v := newView()
	req := d.ask(v)
	asked := req.Game.Hash()
	d.step() // the state moves on, as a note from the referee would say
	d.show(v, 0)
	if v.g == nil || v.g.Hash() != d.g.Hash() || v.g.Hash() == asked {
		t.Fatal("the board does not draw the newest snapshot shown")
	}
	if v.life.Req != req || v.mode != mStrengths {
		t.Fatalf("the pending decision was dropped: mode %d", v.mode)
	}
	if g, _ := v.life.Decide(); g.Hash() != asked {
		t.Fatal("the answer is not checked against the request's game")
	}
}
