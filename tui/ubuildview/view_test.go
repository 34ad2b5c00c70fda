package ubuildview

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

func gridNeed(seat engine.Seat) engine.Need {
	return engine.Need{Kind: engine.NeedCommit, Seat: seat, Name: ubuild.GridName, Size: ubuild.NumCells}
}

func TestPlacementKeys(t *testing.T) {
	tests := []struct {
		name string
		keys []any
		want ubuild.Layout // zero: expect no commitment
		msg  string        // part of the prompt after the keys
	}{
		{
			name: "drop every ship down the left edge",
			keys: []any{tcell.KeyEnter, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter,
				tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter, tcell.KeyEnter},
			want: fixedLayout(),
		},
		{
			name: "a ship cannot be dropped on another",
			keys: []any{tcell.KeyEnter, tcell.KeyEnter},
			msg:  "overlap",
		},
		{
			name: "a turned ship stays turned for the next; the cursor keeps ships inside",
			keys: []any{"r", tcell.KeyEnter, tcell.KeyRight, tcell.KeyEnter, tcell.KeyRight, tcell.KeyEnter,
				tcell.KeyRight, tcell.KeyEnter, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyRight, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter, tcell.KeyEnter},
			want: func() ubuild.Layout {
				var l ubuild.Layout
				for s := range ubuild.Ship(ubuild.NumShips - 1) {
					l[s] = ubuild.Placement{Start: ubuild.CellAt(0, int(s)), Vertical: true}
				}
				l[ubuild.PTBoat] = ubuild.Placement{Start: ubuild.CellAt(8, 9), Vertical: true}
				return l
			}(),
		},
		{
			name: "enter before the fleet is complete drops, it does not commit",
			keys: []any{tcell.KeyEnter},
			msg:  "Place the Aircraft Carrier",
		},
		{
			name: "clear starts again",
			keys: []any{"x", "c"},
			msg:  "0 of 5 placed",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatch(t, ubuild.Standard, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{})
			v := newView()
			req := board.NewRequest(gridNeed(0), 0, m.g, nil)
			v.Ask(req)
			boardtest.Press(t, v, tc.keys...)
			d, ok := req.Answer()
			if tc.want == (ubuild.Layout{}) {
				if ok {
					t.Fatalf("committed unexpectedly")
				}
			} else {
				if !ok {
					t.Fatalf("no commitment; prompt %q", v.Prompt())
				}
				var cells [ubuild.NumCells]byte
				for i, l := range d.Leaves {
					cells[i] = l[0]
				}
				got, err := ubuild.LayoutFromCells(cells)
				if err != nil {
					t.Fatal(err)
				}
				if got != tc.want {
					t.Fatalf("layout\n%s\nwant\n%s", got, tc.want)
				}
			}
			if tc.msg != "" && !strings.Contains(v.Prompt(), tc.msg) {
				t.Fatalf("prompt %q lacks %q", v.Prompt(), tc.msg)
			}
		})
	}
}

func TestRandomLayoutKeyCommitsALegalLayout(t *testing.T) {
	for i := range 20 {
		m := newMatch(t, ubuild.Standard, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{})
		v := newView()
		req := board.NewRequest(gridNeed(1), 1, m.g, nil)
		v.Ask(req)
		boardtest.Press(t, v, "x", tcell.KeyEnter)
		d, ok := req.Answer()
		if !ok {
			t.Fatalf("run %d: no commitment: %q", i, v.Prompt())
		}
		var cells [ubuild.NumCells]byte
		for j, l := range d.Leaves {
			cells[j] = l[0]
		}
		if _, err := ubuild.LayoutFromCells(cells); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
}

func TestPlacementMouse(t *testing.T) {
	m := newMatch(t, ubuild.Standard, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{})
	v := newView()
	req := board.NewRequest(gridNeed(0), 0, m.g, nil)
	v.Ask(req)
	boardtest.Render(t, v, 60, 20)
	g := v.geo.own
	at := func(c ubuild.Cell) (int, int) { return g.x + 2*c.Col(), g.y + c.Row() }
	// Drop the Battleship at B-2 by clicking there.
	x, y := at(cell(t, "B-2"))
	boardtest.Mouse(v, tview.MouseLeftClick, x, y)
	if !v.place.placed[ubuild.Battleship] || v.place.pl[ubuild.Battleship].Start != cell(t, "B-2") {
		t.Fatalf("battleship not dropped at B-2: %+v", v.place)
	}
	// A right click turns the floating Carrier; a click drops it at D-1.
	boardtest.Mouse(v, tview.MouseRightClick, x, y)
	x, y = at(cell(t, "D-1"))
	boardtest.Mouse(v, tview.MouseLeftClick, x, y)
	if p := v.place.pl[ubuild.Carrier]; !v.place.placed[ubuild.Carrier] || !p.Vertical || p.Start != cell(t, "D-1") {
		t.Fatalf("carrier not dropped down from D-1: %+v", p)
	}
	// A click on a placed ship picks it up again.
	x, y = at(cell(t, "B-4"))
	boardtest.Mouse(v, tview.MouseLeftClick, x, y)
	if v.place.placed[ubuild.Battleship] || v.place.cur != ubuild.Battleship {
		t.Fatalf("battleship not picked up: %+v", v.place)
	}
}

func TestPlacementDrawsClash(t *testing.T) {
	m := newMatch(t, ubuild.Standard, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{})
	v := newView()
	v.Ask(board.NewRequest(gridNeed(0), 0, m.g, nil))
	boardtest.Press(t, v, tcell.KeyEnter) // Battleship on A-1..A-5; the Carrier floats on A-1..A-4
	scr := boardtest.Render(t, v, 60, 20)
	if g, _ := cellAt(scr, v.geo.own, cell(t, "A-2")); g != style.Clash {
		t.Fatalf("A-2 drawn %q, want the clash glyph %q", g, style.Clash)
	}
	if g, _ := cellAt(scr, v.geo.own, cell(t, "A-5")); g != style.Ship {
		t.Fatalf("A-5 drawn %q, want %q", g, style.Ship)
	}
	boardtest.Press(t, v, tcell.KeyDown)
	scr = boardtest.Render(t, v, 60, 20)
	if g, _ := cellAt(scr, v.geo.own, cell(t, "B-2")); g != style.Ghost {
		t.Fatalf("B-2 drawn %q, want the floating glyph %q", g, style.Ghost)
	}
}

// fireMatch is a standard match where seat 0 fires first.
func fireMatch(t *testing.T) *match {
	m := newMatch(t, ubuild.Standard, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{})
	m.setup(0)
	return m
}

func askFire(t *testing.T, m *match, v *View) *board.Request {
	t.Helper()
	seat := m.g.Attacker()
	return boardtest.Ask(v, m.g, seat, m.own(seat), "me", "them")
}

func TestAimAndFire(t *testing.T) {
	tests := []struct {
		name  string
		keys  []any
		ship  ubuild.Ship
		shots []string
		msg   string
	}{
		{"mark three and fire", []any{" ", tcell.KeyRight, " ", tcell.KeyRight, " ", tcell.KeyEnter}, ubuild.Battleship, []string{"A-1", "A-2", "A-3"}, ""},
		{"enter with nothing marked fires at the cursor", []any{tcell.KeyDown, tcell.KeyDown, tcell.KeyEnter}, ubuild.Battleship, []string{"C-1"}, ""},
		{"space again unmarks", []any{" ", " ", tcell.KeyRight, " ", tcell.KeyEnter}, ubuild.Battleship, []string{"A-2"}, ""},
		{"tab picks the next ship", []any{tcell.KeyTab, " ", tcell.KeyEnter}, ubuild.Carrier, []string{"A-1"}, ""},
		{"a number picks a ship, which fires no more than its weapons", []any{"5", " ", tcell.KeyRight, " ", tcell.KeyRight, " "}, ubuild.PTBoat, nil, "unmark one first"},
		{"the PT Boat fires two", []any{"5", " ", tcell.KeyRight, " ", tcell.KeyEnter}, ubuild.PTBoat, []string{"A-1", "A-2"}, ""},
		{"changing ship trims the marks", []any{" ", tcell.KeyRight, " ", tcell.KeyRight, " ", "5", tcell.KeyEnter}, ubuild.PTBoat, []string{"A-1", "A-2"}, ""},
		{"u clears the marks", []any{" ", tcell.KeyRight, " ", "u", tcell.KeyEnter}, ubuild.Battleship, []string{"A-2"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := fireMatch(t)
			v := newView()
			req := askFire(t, m, v)
			boardtest.Press(t, v, tc.keys...)
			d, ok := req.Answer()
			if tc.shots == nil {
				if ok {
					t.Fatalf("fired unexpectedly")
				}
				if !strings.Contains(v.Prompt(), tc.msg) {
					t.Fatalf("prompt %q lacks %q", v.Prompt(), tc.msg)
				}
				return
			}
			if !ok {
				t.Fatalf("did not fire: %q", v.Prompt())
			}
			ship, shots, err := ubuild.DecodeFire(d.Move)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range shots {
				got = append(got, c.String())
			}
			if ship != tc.ship || !slices.Equal(got, tc.shots) {
				t.Fatalf("fired %s at %v, want %s at %v", ship, got, tc.ship, tc.shots)
			}
		})
	}
}

func TestAimRefusesCalledCellsAndSunkShips(t *testing.T) {
	m := fireMatch(t)
	m.volley(ubuild.Battleship, "I-1", "I-2", "A-9") // sinks seat 1's PT Boat
	m.volley(ubuild.Battleship, "I-1", "I-2")        // seat 1 sinks seat 0's PT Boat
	v := newView()
	v.aim.row, v.aim.col = 8, 0
	req := askFire(t, m, v)
	boardtest.Press(t, v, " ")
	if !strings.Contains(v.Prompt(), "I-1 was already called") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	boardtest.Press(t, v, "5")
	if !strings.Contains(v.Prompt(), "cannot fire") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	if _, ok := req.Answer(); ok {
		t.Fatal("fired")
	}
}

func TestAimMouse(t *testing.T) {
	m := fireMatch(t)
	v := newView()
	req := askFire(t, m, v)
	boardtest.Render(t, v, 60, 20)
	g := v.geo.tgt
	boardtest.Mouse(v, tview.MouseLeftClick, g.x+2*3, g.y+1) // B-4
	boardtest.Mouse(v, tview.MouseLeftClick, g.x+2*4, g.y+1) // B-5
	boardtest.Mouse(v, tview.MouseLeftClick, g.x+2*4, g.y+1) // B-5 again: unmarked
	// Click the Destroyer in the fleet list, then right-click fires.
	r := v.geo.fleetRows[ubuild.Destroyer]
	boardtest.Mouse(v, tview.MouseLeftClick, r.X+3, r.Y)
	boardtest.Mouse(v, tview.MouseRightClick, g.x+2*5, g.y+1) // marks B-6 and fires
	d, ok := req.Answer()
	if !ok {
		t.Fatalf("did not fire: %q", v.Prompt())
	}
	ship, shots, _ := ubuild.DecodeFire(d.Move)
	if ship != ubuild.Destroyer || len(shots) != 2 || shots[0] != cell(t, "B-4") || shots[1] != cell(t, "B-6") {
		t.Fatalf("fired %s %v", ship, shots)
	}
}

func TestClassicFiresOneShotWithoutAShip(t *testing.T) {
	m := newMatch(t, ubuild.Classic, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{})
	m.setup(1)
	v := newView()
	req := askFire(t, m, v)
	boardtest.Press(t, v, " ", tcell.KeyRight, " ", tcell.KeyEnter)
	d, ok := req.Answer()
	if !ok {
		t.Fatalf("did not fire: %q", v.Prompt())
	}
	ship, shots, _ := ubuild.DecodeFire(d.Move)
	if ship != ubuild.NoShip || len(shots) != 1 || shots[0] != cell(t, "A-2") {
		t.Fatalf("fired %s %v", ship, shots)
	}
}

// TestArmament: the build starts from, and "c" returns to, the standard
// counts with the host's spares on the biggest ships, a build enter commits
// at every fleet total the host may set (17 to 20).
func TestArmament(t *testing.T) {
	need := engine.Need{Kind: engine.NeedCommit, Seat: 0, Name: ubuild.WeaponsName, Size: ubuild.NumShips}
	down, up, left, right := tcell.KeyDown, tcell.KeyUp, tcell.KeyLeft, tcell.KeyRight
	tests := []struct {
		name    string
		variant string
		keys    []any
		want    []int // nil: no commitment
		msg     string
	}{
		{"the standard counts commit, 20 a fleet", ubuild.Custom, []any{tcell.KeyEnter}, []int{6, 5, 4, 3, 2}, ""},
		{"the standard counts commit, 17 a fleet", "custom-17", []any{tcell.KeyEnter}, []int{5, 4, 3, 3, 2}, ""},
		{"c goes back to the standard counts, 17 a fleet", "custom-17", []any{"+", "2", "--", "c", tcell.KeyEnter}, []int{5, 4, 3, 3, 2}, ""},
		{"c goes back to the standard counts, 19 a fleet", "custom-19", []any{"x", "c", tcell.KeyEnter}, []int{6, 5, 3, 3, 2}, ""},
		{"the standard weapons moved around", "custom-17", []any{down, down, left, up, up, right, tcell.KeyEnter}, []int{6, 4, 2, 3, 2}, ""},
		{"one from the destroyer to the battleship", ubuild.Custom, []any{down, down, left, up, up, right, tcell.KeyEnter}, []int{7, 5, 3, 3, 2}, ""},
		{"plus and minus", ubuild.Custom, []any{down, "--", up, "++", tcell.KeyEnter}, []int{8, 3, 4, 3, 2}, ""},
		{"no more than 20 in all", ubuild.Custom, []any{right}, nil, "all 20 weapons are given"},
		{"no more than 17 in all", "custom-17", []any{right}, nil, "all 17 weapons are given"},
		{"no fewer than one a ship", ubuild.Custom, []any{"5", left, left, left, tcell.KeyEnter}, nil, "1 left to give"},
		{"no more than ten a ship", ubuild.Custom, []any{"1", left, left, left, left, left, "3", left, left, left, "2", right, right, right, right, right, right, right, right, right, right, tcell.KeyEnter}, nil, "more"},
		{"random build", ubuild.Custom, []any{"x", tcell.KeyEnter}, []int{}, ""},
		{"random build, 18 a fleet", "custom-18", []any{"x", tcell.KeyEnter}, []int{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatch(t, tc.variant, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{{4, 4, 4, 4, 4}, {4, 4, 4, 4, 4}})
			total := m.g.FleetWeapons()
			v := newView()
			req := board.NewRequest(need, 0, m.g, nil)
			v.Ask(req)
			boardtest.Press(t, v, tc.keys...)
			d, ok := req.Answer()
			if tc.want == nil {
				if ok {
					t.Fatalf("committed %v", d.Leaves)
				}
				if tc.msg != "more" && !strings.Contains(v.Prompt(), tc.msg) {
					t.Fatalf("prompt %q lacks %q", v.Prompt(), tc.msg)
				}
				if tc.msg == "more" && v.arm.w[ubuild.Carrier] != ubuild.MaxWeapons {
					t.Fatalf("carrier has %d weapons", v.arm.w[ubuild.Carrier])
				}
				return
			}
			if !ok {
				t.Fatalf("no commitment: %q", v.Prompt())
			}
			var got [ubuild.NumShips]int
			for i, l := range d.Leaves {
				got[i] = int(l[0])
			}
			if err := ubuild.ValidateWeapons(got, total); err != nil {
				t.Fatal(err)
			}
			if len(tc.want) > 0 && !slices.Equal(got[:], tc.want) {
				t.Fatalf("weapons %v, want %v", got, tc.want)
			}
		})
	}
}

func TestArmamentMouse(t *testing.T) {
	m := newMatch(t, ubuild.Custom, [2]ubuild.Layout{fixedLayout(), fixedLayout()}, [2][5]int{{4, 4, 4, 4, 4}, {4, 4, 4, 4, 4}})
	v := newView()
	m.g.Next()
	v.Ask(board.NewRequest(engine.Need{Kind: engine.NeedCommit, Seat: 0, Name: ubuild.WeaponsName, Size: ubuild.NumShips}, 0, m.g, nil))
	boardtest.Render(t, v, 60, 20)
	r := v.geo.armRows[ubuild.Submarine]
	boardtest.Mouse(v, tview.MouseLeftClick, v.geo.armBarX+1, r.Y) // the second square: 2 weapons
	if v.arm.sel != ubuild.Submarine || v.arm.w[ubuild.Submarine] != 2 {
		t.Fatalf("after the click: selected %s, weapons %v", v.arm.sel, v.arm.w)
	}
}

func TestDrawShowsEveryStateWithAGlyph(t *testing.T) {
	m := fireMatch(t)
	m.volley(ubuild.Battleship, "I-1", "I-2", "J-5") // sinks seat 1's PT Boat, one miss
	m.volley(ubuild.Battleship, "A-1", "B-1")        // seat 1 hits seat 0's Battleship, one miss
	v := newView()
	v.Show(board.Snapshot{Game: m.g.Copy(), Seat: 0, Secrets: m.own(0), Names: []string{"me", "them"}})
	scr := boardtest.Render(t, v, 60, 20)
	checks := []struct {
		grid  gridGeo
		cell  string
		glyph string
		st    tcell.Style
	}{
		{v.geo.own, "A-1", style.Hit, v.th.Hit},
		{v.geo.own, "A-2", style.Ship, v.th.Ship},
		{v.geo.own, "B-1", style.Miss, v.th.Miss},
		{v.geo.own, "B-2", style.Water, v.th.Dim},
		{v.geo.tgt, "I-1", style.Sunk, v.th.Sunk},
		{v.geo.tgt, "J-5", style.Miss, v.th.Miss},
		{v.geo.tgt, "A-1", style.Water, v.th.Dim}, // seat 1's hidden battleship stays hidden
	}
	for _, c := range checks {
		g, st := cellAt(scr, c.grid, cell(t, c.cell))
		if g != c.glyph || st != c.st {
			t.Errorf("%s drawn %q %v, want %q %v\n%s", c.cell, g, st, c.glyph, c.st, boardtest.Text(scr))
		}
	}
	text := boardtest.Text(scr)
	for _, want := range []string{"Your ocean", "Target · them", "PT Boat", "sunk", "Turn 2: them's Battleship fired A-1"} {
		if !strings.Contains(text, want) {
			t.Errorf("screen lacks %q\n%s", want, text)
		}
	}
}

func TestSpectatorShowsBothFleets(t *testing.T) {
	m := fireMatch(t)
	v := newView()
	v.Show(board.Snapshot{Game: m.g.Copy(), Seat: 0, Secrets: m.known, Names: []string{"ann", "bob"}, Spectator: true})
	scr := boardtest.Render(t, v, 60, 20)
	for _, g := range []gridGeo{v.geo.own, v.geo.tgt} {
		if glyph, _ := cellAt(scr, g, cell(t, "C-4")); glyph != style.Ship {
			t.Fatalf("C-4 drawn %q in a spectator grid\n%s", glyph, boardtest.Text(scr))
		}
	}
	if text := boardtest.Text(scr); !strings.Contains(text, "ann · seat 0") || !strings.Contains(text, "bob · seat 1") {
		t.Fatalf("titles missing\n%s", text)
	}
	if len(v.Bindings()) != 0 {
		t.Fatalf("a spectator board has keys: %v", v.Bindings())
	}
}

func TestMonochromeUsesNoColour(t *testing.T) {
	m := fireMatch(t)
	m.volley(ubuild.Battleship, "I-1", "I-2", "J-5")
	v := New(board.Env{Theme: style.New(true)})
	v.Show(board.Snapshot{Game: m.g.Copy(), Seat: 0, Secrets: m.own(0)})
	scr := boardtest.Render(t, v, 60, 20)
	boardtest.Mono(t, scr)
}

func TestNarrowBoardShowsTheGridThatMatters(t *testing.T) {
	m := fireMatch(t)
	v := newView()
	askFire(t, m, v)
	scr := boardtest.Render(t, v, 40, 20)
	if v.geo.own.ok || !v.geo.tgt.ok {
		t.Fatalf("aiming on a narrow board should show only the target\n%s", boardtest.Text(scr))
	}
}

func TestWithdrawStopsAsking(t *testing.T) {
	m := fireMatch(t)
	v := newView()
	req := askFire(t, m, v)
	v.Withdraw(req)
	// Only the legend key stays: it asks nothing.
	if bs := v.Bindings(); v.Prompt() != "" || len(bs) != 1 || bs[0].Label != "g" {
		t.Fatalf("still asking: %q", v.Prompt())
	}
}
