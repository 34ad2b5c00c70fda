package ubuild

import (
	"errors"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

var noWeapons [NumShips]int

func TestNeedsInOrder(t *testing.T) {
	for _, tc := range []struct {
		variant string
		commits []string
	}{
		{Standard, []string{"seat 0 grid 100", "seat 1 grid 100"}},
		{Classic, []string{"seat 0 grid 100", "seat 1 grid 100"}},
		{Custom, []string{"seat 0 grid 100", "seat 0 weapons 5", "seat 1 grid 100", "seat 1 weapons 5"}},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			g, _ := New(engine.Setup{Seats: 2, Variant: tc.variant})
			for i, want := range tc.commits {
				n := g.Next()
				if got := n.Seat.String() + " " + n.Name + " " + itoa(n.Size); n.Kind != engine.NeedCommit || got != want {
					t.Fatalf("need %d = %s %q, want commit %q", i, n.Kind, got, want)
				}
				if _, err := g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat,
					Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}}); err != nil {
					t.Fatal(err)
				}
			}
			n := g.Next()
			if n.Kind != engine.NeedRandom || n.Name != FirstPlayerRoll || n.Count != 1 || n.Bound != 2 ||
				n.Seat != engine.NoSeat || len(n.Seats) != 2 || n.Seats[0] != 0 || n.Seats[1] != 1 {
				t.Fatalf("first-player need = %+v", n)
			}
			if _, err := g.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{1}}); err != nil {
				t.Fatal(err)
			}
			if n := g.Next(); n.Kind != engine.NeedMove || n.Seat != 1 || n.Auto || g.Attacker() != 1 || g.FirstPlayer() != 1 {
				t.Fatalf("after the flip: %+v", n)
			}
		})
	}
}

func itoa(n int) string {
	if n >= 10 {
		return itoa(n/10) + string(rune('0'+n%10))
	}
	return string(rune('0' + n))
}

func TestSetupRules(t *testing.T) {
	g, _ := New(engine.Setup{Seats: 2})
	m := scripted(t, g)
	commit := func(owner engine.Seat, name string, size int) engine.Input {
		return engine.Input{Kind: engine.NeedCommit, Seat: 0, Commitment: &engine.Commitment{Owner: owner, Name: name, Size: size}}
	}
	cases := []struct {
		name string
		in   engine.Input
		want string
	}{
		{"no commitment", engine.Input{Kind: engine.NeedCommit, Seat: 0}, "no commitment"},
		{"wrong name", commit(0, WeaponsName, 100), `want seat 0's "grid"`},
		{"wrong size", commit(0, GridName, 99), "of 99 leaves"},
		{"wrong owner", commit(1, GridName, 100), "seat 1's"},
		{"wrong seat", engine.Input{Kind: engine.NeedCommit, Seat: 1, Commitment: &engine.Commitment{Owner: 1, Name: GridName, Size: 100}}, "expected commit from seat 0"},
		{"wrong kind", engine.Input{Kind: engine.NeedMove, Seat: 0}, "expected a commit input"},
		{"with openings", engine.Input{Kind: engine.NeedCommit, Seat: 0, Commitment: &engine.Commitment{Owner: 0, Name: GridName, Size: 100},
			Opened: []engine.Opened{{Slot: GridSlot(0, 1), Value: []byte{0}}}}, "unexpected openings"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { m.reject(tc.in, tc.in.Seat, tc.want) })
	}
	m.apply(commit(0, GridName, 100))
	m.apply(engine.Input{Kind: engine.NeedCommit, Seat: 1, Commitment: &engine.Commitment{Owner: 1, Name: GridName, Size: 100}})
	for _, tc := range []struct {
		name string
		vals []int
		want string
	}{
		{"no value", nil, "0 values"},
		{"two values", []int{0, 1}, "2 values"},
		{"out of range", []int{2}, "out of [0, 2)"},
		{"negative", []int{-1}, "out of [0, 2)"},
	} {
		t.Run("flip "+tc.name, func(t *testing.T) {
			m.reject(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: tc.vals}, engine.NoSeat, tc.want)
		})
	}
}

// TestRulebookVolley is the rulebook's example: a battleship with 5 weapons
// fires C-2, C-4, C-6, E-3, E-5; C-4 hits the Aircraft Carrier (one weapon
// removed) and the rest are misses.
func TestRulebookVolley(t *testing.T) {
	m := standardMatch(t, Standard, noWeapons, noWeapons, 0)
	if got, _ := m.Game.ShotsAllowed(0, Battleship, m.Secrets(0)); got != 5 {
		t.Fatalf("battleship may fire %d shots, want 5", got)
	}
	m.fire(0, Battleship, "C-2", "C-4", "C-6", "E-3", "E-5")
	n := m.Game.Next()
	if n.Kind != engine.NeedMove || n.Seat != 1 || !n.Auto || len(n.Open) != 5 || n.Open[1] != GridSlot(1, 23) {
		t.Fatalf("answer need = %+v", n)
	}
	b, err := m.Game.Answer(1, n, m.Secrets(1))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"results":[{"cell":"C-2","result":"miss"},{"cell":"C-4","result":"hit","ship":"carrier"},` +
		`{"cell":"C-6","result":"miss"},{"cell":"E-3","result":"miss"},{"cell":"E-5","result":"miss"}]}`
	if string(b) != want {
		t.Fatalf("answer = %s\nwant     %s", b, want)
	}
	m.apply(m.moveIn(1, b))
	fl := m.Game.Fleet(1)
	if left, _ := fl[Carrier].WeaponsLeft(); fl[Carrier].Hits != 1 || left != 3 || fl[Carrier].Sunk {
		t.Fatalf("carrier after the volley: %+v", fl[Carrier])
	}
	for s := range Ship(NumShips) {
		if s != Carrier && fl[s].Hits != 0 {
			t.Fatalf("%s was hit", s)
		}
	}
	if got, _ := m.Game.ShotsAllowed(1, Carrier, m.Secrets(1)); got != 3 {
		t.Fatalf("the hit carrier may fire %d shots, want 3", got)
	}
	rec := m.Game.Received(1)
	if rec[23] != (Mark{Result: Hit, Ship: Carrier}) || rec[21] != (Mark{Result: Miss, Ship: NoShip}) || rec[0].Result != Unshot {
		t.Fatalf("marks: C-4 %+v C-2 %+v A-1 %+v", rec[23], rec[21], rec[0])
	}
	v, ok := m.Game.LastVolley()
	if !ok || v.Turn != 1 || v.Attacker != 0 || v.Ship != Battleship || len(v.Results) != 5 || v.Results[1].Ship != Carrier {
		t.Fatalf("last volley = %+v", v)
	}
	if m.Game.Attacker() != 1 || m.Game.Turn() != 1 || m.Game.Phase() != PhaseFire {
		t.Fatalf("after the answer: attacker %s turn %d phase %s", m.Game.Attacker(), m.Game.Turn(), m.Game.Phase())
	}
	// Seat 1's hit carrier fires its 3 remaining weapons; a fourth is refused.
	m.reject(m.moveIn(1, fireMove(Carrier, "A-6", "A-7", "A-8", "A-9")), 1, "has 3 weapons left")
	m.volley(1, Carrier, "A-6", "A-7", "A-8")
}

// TestRulebookMattsCarrier: Matt's carrier has 10 weapons (10 shots a turn),
// but its plate says 4, so 4 hits sink it.
func TestRulebookMattsCarrier(t *testing.T) {
	matt := [NumShips]int{4, 10, 2, 2, 2}
	m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, matt, 1)
	shots := []string{"B-1", "B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "B-8", "B-9", "B-10"}
	slots, err := m.Game.MustOpen(1, fireMove(Carrier, shots...))
	if err != nil || len(slots) != 1 || slots[0] != WeaponsSlot(1, Carrier) {
		t.Fatalf("MustOpen of the first carrier volley = %v, %v", slots, err)
	}
	// Without the weapons opened the volley is refused.
	m.reject(engine.Input{Kind: engine.NeedMove, Seat: 1, Move: fireMove(Carrier, shots...)}, 1, "weapons[1] must be opened")
	m.volley(1, Carrier, shots...)
	if w := m.Game.Fleet(1)[Carrier].Weapons; w != 10 {
		t.Fatalf("carrier weapons public = %d, want 10", w)
	}
	// Three hits on Matt's carrier: not sunk yet (plate 4).
	m.volley(0, Battleship, "C-4", "D-4", "E-4")
	if fl := m.Game.Fleet(1)[Carrier]; fl.Hits != 3 || fl.Sunk {
		t.Fatalf("after 3 hits: %+v", fl)
	}
	// The carrier now fires 7 shots, not 8, and opens nothing.
	if slots, _ := m.Game.MustOpen(1, fireMove(Carrier, "D-1")); len(slots) != 0 {
		t.Fatalf("second carrier volley opens %v", slots)
	}
	m.reject(m.moveIn(1, fireMove(Carrier, "D-1", "D-2", "D-3", "D-4", "D-5", "D-6", "D-7", "D-8")), 1, "has 7 weapons left")
	m.volley(1, Carrier, "D-1", "D-2", "D-3", "D-4", "D-5", "D-6", "D-7")
	// The fourth hit sinks it although 6 weapons are left; "hit" is refused.
	m.fire(0, Battleship, "F-4")
	m.reject(m.moveIn(1, answerMove("F-4 hit carrier")), 1, "sinks at 4 hits: the answer is sunk")
	ev := m.honest()
	if fl := m.Game.Fleet(1)[Carrier]; fl.Hits != 4 || !fl.Sunk {
		t.Fatalf("after 4 hits: %+v", fl)
	}
	if len(ev) == 0 || ev[0].Kind != "sunk" {
		t.Fatalf("events %+v", ev)
	}
	// A sunk ship cannot fire.
	m.reject(m.moveIn(1, fireMove(Carrier, "E-5")), 1, "is sunk")
}

// TestRulebookMargaretsBattleship: Margaret's battleship (plate 5) has 1
// weapon, so one hit sinks it; the sunk claim opens its weapon count.
func TestRulebookMargaretsBattleship(t *testing.T) {
	margaret := [NumShips]int{1, 4, 5, 5, 5}
	m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, margaret, 0)
	m.fire(0, Battleship, "J-6", "A-1")
	honest := answerMove("J-6 sunk battleship", "A-1 miss")
	slots, err := m.Game.MustOpen(1, honest)
	if err != nil || len(slots) != 3 || slots[2] != WeaponsSlot(1, Battleship) {
		t.Fatalf("MustOpen(sunk claim) = %v, %v", slots, err)
	}
	// "Sunk" without opening the weapons, or plain "hit" with them, is refused.
	in := m.moveIn(1, honest)
	in.Opened = in.Opened[:2]
	m.reject(in, 1, "weapons[0] must be opened")
	in = m.moveIn(1, answerMove("J-6 hit battleship", "A-1 miss"))
	in.Opened = append(in.Opened, engine.Opened{Slot: WeaponsSlot(1, Battleship), Value: []byte{1}})
	m.reject(in, 1, "was not asked for")
	m.apply(m.moveIn(1, honest))
	if fl := m.Game.Fleet(1)[Battleship]; fl.Hits != 1 || !fl.Sunk || fl.Weapons != 1 {
		t.Fatalf("Margaret's battleship: %+v", fl)
	}
	// Its other cells are still answered "hit", changing nothing.
	m.volley(1, Carrier, "B-1")
	m.fire(0, Battleship, "J-7")
	m.reject(m.moveIn(1, answerMove("J-7 miss")), 1, "not a miss")
	m.reject(m.moveIn(1, answerMove("J-7 sunk battleship")), 1, "already sunk: the answer is hit")
	before := m.Game.Fleet(1)
	m.honest()
	if after := m.Game.Fleet(1); after != before {
		t.Fatalf("a hit on a sunk ship changed the fleet: %+v -> %+v", before, after)
	}
	if mk := m.Game.Received(1)[CellAt(9, 6)]; mk != (Mark{Result: Hit, Ship: Battleship}) {
		t.Fatalf("J-7 mark %+v", mk)
	}
}

func TestFireRules(t *testing.T) {
	raw := func(s string) []byte { return []byte(s) }
	cases := []struct {
		name    string
		variant string
		move    []byte
		edit    func(*engine.Input)
		blame   engine.Seat
		want    string
	}{
		{"more shots than weapons", Standard, fireMove(PTBoat, "A-1", "A-2", "A-3"), nil, 0, "has 2 weapons left"},
		{"no shots", Standard, raw(`{"ship":"battleship","shots":[]}`), nil, 0, "no shots"},
		{"null shots", Standard, raw(`{"ship":"battleship"}`), nil, 0, "no shots"},
		{"unknown ship", Standard, raw(`{"ship":"cruiser","shots":["A-1"]}`), nil, 0, `unknown ship "cruiser"`},
		{"no ship named", Standard, raw(`{"shots":["A-1"]}`), nil, 0, "name the ship"},
		{"same cell twice", Standard, fireMove(Battleship, "A-1", "a1"), nil, 0, "A-1 called twice"},
		{"off the grid", Standard, fireMove(Battleship, "K-1"), nil, 0, `bad coordinate "K-1"`},
		{"eleven shots", Standard, fireMove(Battleship, "A-1", "A-2", "A-3", "A-4", "A-5", "A-6", "A-7", "A-8", "A-9", "A-10", "B-1"), nil, 0, "11 shots"},
		{"unknown field", Standard, raw(`{"ship":"battleship","shots":["A-1"],"power":9}`), nil, 0, "undecodable"},
		{"trailing data", Standard, raw(`{"ship":"battleship","shots":["A-1"]} {}`), nil, 0, "trailing data"},
		{"not json", Standard, raw(`fire!`), nil, 0, "undecodable"},
		{"wrong seat", Standard, fireMove(Battleship, "A-1"), func(in *engine.Input) { in.Seat = 1 }, 1, "expected move from seat 0"},
		{"wrong kind", Standard, fireMove(Battleship, "A-1"), func(in *engine.Input) { in.Kind = engine.NeedOpen }, 0, "expected a move input"},
		{"opening not asked for", Standard, fireMove(Battleship, "A-1"), func(in *engine.Input) {
			in.Opened = []engine.Opened{{Slot: GridSlot(0, 0), Value: []byte{1}}}
		}, 0, "not asked for"},
		{"classic names a ship", Classic, fireMove(Battleship, "A-1"), nil, 0, "names no ship"},
		{"classic fires two", Classic, fireMove(NoShip, "A-1", "A-2"), nil, 0, "2 shots, but the classic variant fires 1"},
		{"custom without weapons", Custom, fireMove(Battleship, "A-1"), func(in *engine.Input) { in.Opened = nil }, 0, "must be opened"},
		{"custom weapons twice", Custom, fireMove(Battleship, "A-1"), func(in *engine.Input) { in.Opened = append(in.Opened, in.Opened[0]) }, 0, "opened twice"},
		{"custom weapons out of range", Custom, fireMove(Battleship, "A-1"), func(in *engine.Input) {
			in.Opened[0].Value = []byte{11}
		}, 0, "has 11 weapons, not 1-10"},
		{"custom weapons two bytes", Custom, fireMove(Battleship, "A-1"), func(in *engine.Input) {
			in.Opened[0].Value = []byte{1, 2}
		}, 0, "2 bytes"},
		{"custom more shots than weapons", Custom, fireMove(PTBoat, "A-1", "A-2", "A-3", "A-4"), nil, 0, "has 3 weapons left"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := standardMatch(t, tc.variant, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{5, 4, 4, 4, 3}, 0)
			in := engine.Input{Kind: engine.NeedMove, Seat: 0, Move: tc.move}
			if slots, err := m.Game.MustOpen(0, tc.move); err == nil {
				in.Opened = m.open(0, slots)
			}
			if tc.edit != nil {
				tc.edit(&in)
			}
			m.reject(in, tc.blame, tc.want)
		})
	}
}

func TestFireLater(t *testing.T) {
	m := standardMatch(t, Standard, noWeapons, noWeapons, 0)
	m.volley(0, Battleship, "A-1", "A-2")
	// Seat 1 sinks seat 0's PT boat and hits its battleship twice.
	m.volley(1, Battleship, "I-1", "I-2", "A-1", "A-2", "B-1")
	t.Run("already called", func(t *testing.T) {
		m.reject(m.moveIn(0, fireMove(Battleship, "B-1", "A-2")), 0, "A-2 was already called")
	})
	t.Run("sunk ship fires", func(t *testing.T) {
		m.reject(m.moveIn(0, fireMove(PTBoat, "B-1")), 0, "PT Boat is sunk")
	})
	t.Run("hit ship fires fewer", func(t *testing.T) {
		m.reject(m.moveIn(0, fireMove(Battleship, "B-1", "B-2", "B-3", "B-4")), 0, "has 3 weapons left")
		if n, _ := m.Game.ShotsAllowed(0, Battleship, nil); n != 3 {
			t.Fatalf("ShotsAllowed = %d", n)
		}
	})
	if got := len(m.Game.Targets(0)); got != 98 {
		t.Fatalf("seat 0 has %d targets, want 98", got)
	}
	if m.Game.CanTarget(0, 0) || !m.Game.CanTarget(0, 2) || !m.Game.CanTarget(1, 99) || m.Game.CanTarget(1, 0) {
		t.Fatal("CanTarget disagrees with the shots called")
	}
	m.volley(0, Battleship, "B-1", "B-2", "B-3")
}

func TestAnswerRules(t *testing.T) {
	// Seat 0 fires at C-2 (water), C-4 (carrier) and E-9 (PT boat) of seat 1.
	honest := answerMove("C-2 miss", "C-4 hit carrier", "E-9 hit ptboat")
	raw := func(s string) []byte { return []byte(s) }
	cases := []struct {
		name string
		move []byte
		edit func(*engine.Input)
		want string
	}{
		{"miss on a ship", answerMove("C-2 miss", "C-4 miss", "E-9 hit ptboat"), nil, "a cell of the Aircraft Carrier, not a miss"},
		{"hit on water", answerMove("C-2 hit carrier", "C-4 hit carrier", "E-9 hit ptboat"), nil, "water, not a hit"},
		{"wrong ship", answerMove("C-2 miss", "C-4 hit destroyer", "E-9 hit ptboat"), nil, "not of the Destroyer"},
		{"missing result", answerMove("C-2 miss", "C-4 hit carrier"), nil, "2 results for 3 shots"},
		{"extra result", answerMove("C-2 miss", "C-4 hit carrier", "E-9 hit ptboat", "A-1 miss"), nil, "4 results for 3 shots"},
		{"cell differs", answerMove("C-4 hit carrier", "C-2 miss", "E-9 hit ptboat"), nil, "result 1 is for C-4, but shot 1 was C-2"},
		{"sunk too early", answerMove("C-2 miss", "C-4 hit carrier", "E-9 sunk ptboat"), nil, "sunk claimed too early"},
		{"miss names a ship", answerMove("C-2 miss carrier", "C-4 hit carrier", "E-9 hit ptboat"), nil, "a miss names ship"},
		{"hit names no ship", answerMove("C-2 miss", "C-4 hit", "E-9 hit ptboat"), nil, "must name a known ship"},
		{"unknown result", answerMove("C-2 splash", "C-4 hit carrier", "E-9 hit ptboat"), nil, `unknown result "splash"`},
		{"no results", raw(`{"results":[]}`), nil, "0 results"},
		{"unknown field", raw(`{"results":[{"cell":"C-2","result":"miss","depth":3}]}`), nil, "undecodable"},
		{"cell missing an opening", honest, func(in *engine.Input) { in.Opened = in.Opened[1:] }, "seat 1/grid[21] must be opened"},
		{"cell opened twice", honest, func(in *engine.Input) { in.Opened = append(in.Opened, in.Opened[0]) }, "opened twice"},
		{"cell not asked for", honest, func(in *engine.Input) {
			in.Opened = append(in.Opened, engine.Opened{Slot: GridSlot(1, 0), Value: []byte{0}})
		}, "not asked for"},
		{"cell of the attacker's grid", honest, func(in *engine.Input) { in.Opened[0].Slot.Owner = 0 }, "not asked for"},
		{"cell value too big", honest, func(in *engine.Input) { in.Opened[0].Value = []byte{6} }, "not a cell value"},
		{"cell value two bytes", honest, func(in *engine.Input) { in.Opened[0].Value = []byte{0, 0} }, "not a cell value"},
		{"cell value empty", honest, func(in *engine.Input) { in.Opened[0].Value = nil }, "not a cell value"},
		{"wrong seat", honest, func(in *engine.Input) { in.Seat = 0 }, "expected move from seat 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := standardMatch(t, Standard, noWeapons, noWeapons, 0)
			m.fire(0, Battleship, "C-2", "C-4", "E-9")
			in := engine.Input{Kind: engine.NeedMove, Seat: 1, Move: tc.move, Opened: m.open(1, m.Game.Next().Open)}
			if tc.edit != nil {
				tc.edit(&in)
			}
			m.reject(in, in.Seat, tc.want)
			m.apply(m.moveIn(1, honest))
		})
	}
	t.Run("not sunk at the plate", func(t *testing.T) {
		m := standardMatch(t, Standard, noWeapons, noWeapons, 0)
		m.volley(0, Battleship, "F-9")
		m.volley(1, Battleship, "A-1")
		m.fire(0, Battleship, "E-9")
		m.reject(m.moveIn(1, answerMove("E-9 hit ptboat")), 1, "PT Boat sinks at 2 hits: the answer is sunk")
		m.honest()
	})
	t.Run("answer when no volley waits", func(t *testing.T) {
		m := standardMatch(t, Standard, noWeapons, noWeapons, 0)
		if _, err := m.Game.MustOpen(1, honest); err == nil {
			t.Fatal("MustOpen accepted an answer out of turn")
		}
		if _, err := m.Game.Answer(1, m.Game.Next(), m.Secrets(1)); err == nil {
			t.Fatal("Answer answered with no volley")
		}
	})
}

// cheatGrid is layout1's cells with some cells changed.
func cheatGrid(t *testing.T, edit map[string]byte) [NumCells]byte {
	g := layout1(t).Cells()
	for s, v := range edit {
		c, err := ParseCell(s)
		if err != nil {
			t.Fatal(err)
		}
		g[c] = v
	}
	return g
}

func TestAnswerPlaceable(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  map[string]byte
		shots []string
		want  string
	}{
		{"bent carrier", map[string]byte{"F-4": 0, "E-5": 2}, []string{"C-4", "E-5"}, "Aircraft Carrier (2 of them) fit no straight placement of 4"},
		{"long PT boat", map[string]byte{"G-9": 5}, []string{"E-9", "G-9"}, "PT Boat (2 of them) fit no straight placement"},
		{"battleship boxed in by water", nil, []string{"J-5", "I-6", "I-7", "I-8", "I-9"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMatch(t, Standard, grids{cells: [2][NumCells]byte{layout0(t).Cells(), cheatGrid(t, tc.edit)}}, 0)
			m.fire(0, Battleship, tc.shots...)
			n := m.Game.Next()
			b, err := m.Game.Answer(1, n, m.Secrets(1))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				m.apply(m.moveIn(1, b))
				return
			}
			m.reject(m.moveIn(1, b), 1, tc.want)
		})
	}
}

// sinkSeat0 has seat 1 sink seat 0's whole fleet with its battleship (5 shots
// a turn) while seat 0 fires its PT boat at water cells of seat 1.
func sinkSeat0(m *match, answerLast bool) {
	volleys := [][]string{
		{"A-1", "A-2", "A-3", "A-4", "A-5"},
		{"C-1", "C-2", "C-3", "C-4", "E-1"},
		{"E-2", "E-3", "G-1", "G-2", "G-3"},
		{"I-1", "I-2"},
	}
	water := []string{"B-1", "B-2", "B-3", "B-4"}
	for i, v := range volleys {
		m.fire(1, Battleship, v...)
		if i < len(volleys)-1 || answerLast {
			m.honest()
		}
		if i < len(volleys)-1 {
			m.volley(0, PTBoat, water[i])
		}
	}
}

func TestFinalReveal(t *testing.T) {
	t.Run("honest", func(t *testing.T) {
		m := standardMatch(t, Standard, noWeapons, noWeapons, 1)
		sinkSeat0(m, true)
		if m.Game.Winner() != 1 || m.Game.Outcome().Done || m.Game.Phase() != PhaseReveal {
			t.Fatalf("before the reveal: winner %s outcome %+v", m.Game.Winner(), m.Game.Outcome())
		}
		n := m.Game.Next()
		if n.Kind != engine.NeedOpen || n.Seat != 0 || len(n.Open) != 100-17-0 {
			t.Fatalf("reveal need for seat 0: %s %s %d slots", n.Kind, n.Seat, len(n.Open))
		}
		in := engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, n.Open)}
		short := in
		short.Opened = in.Opened[1:]
		m.reject(short, 0, "must be opened")
		m.apply(in)
		n = m.Game.Next()
		if n.Kind != engine.NeedOpen || n.Seat != 1 || len(n.Open) != 100-3 {
			t.Fatalf("reveal need for seat 1: %s %s %d slots", n.Kind, n.Seat, len(n.Open))
		}
		ev := m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: m.open(1, n.Open)})
		out := m.Game.Outcome()
		if !out.Done || len(out.Winners) != 1 || out.Winners[0] != 1 || out.Reason != "sank the whole fleet" || out.Draw {
			t.Fatalf("outcome %+v", out)
		}
		if ev[len(ev)-1].Kind != "win" {
			t.Fatalf("events %+v", ev)
		}
		if n := m.Game.Next(); n.Kind != engine.NeedNone {
			t.Fatalf("need after the end: %+v", n)
		}
		m.reject(engine.Input{Kind: engine.NeedNone, Seat: engine.NoSeat}, engine.NoSeat, "the match is over")
	})
	t.Run("winner's bad layout", func(t *testing.T) {
		// Seat 1's destroyer has only 2 cells; it wins, and the reveal
		// convicts it.
		m := newMatch(t, Standard, grids{cells: [2][NumCells]byte{layout0(t).Cells(), cheatGrid(t, map[string]byte{"A-10": 0})}}, 1)
		sinkSeat0(m, true)
		m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, m.Game.Next().Open)})
		err := m.reject(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: m.open(1, m.Game.Next().Open)}, 1, "Destroyer occupies 2 cells")
		var f *engine.Fault
		if !errors.As(err, &f) || f.Seat != 1 {
			t.Fatalf("error %v is not a fault of seat 1", err)
		}
	})
	t.Run("loser's extra ship cell", func(t *testing.T) {
		m := newMatch(t, Standard, grids{cells: [2][NumCells]byte{cheatGridOf(t, layout0(t), map[string]byte{"J-10": 3}), layout1(t).Cells()}}, 1)
		sinkSeat0(m, true)
		m.reject(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, m.Game.Next().Open)}, 0, "Destroyer occupies 4 cells")
	})
}

func cheatGridOf(t *testing.T, l Layout, edit map[string]byte) [NumCells]byte {
	g := l.Cells()
	for s, v := range edit {
		c, _ := ParseCell(s)
		g[c] = v
	}
	return g
}

func TestCustomDeferredClaims(t *testing.T) {
	margaret := [NumShips]int{1, 4, 5, 5, 5}
	t.Run("settled when the ship fires", func(t *testing.T) {
		m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, margaret, 0)
		m.volley(0, Battleship, "A-1") // turn 1
		m.volley(1, Carrier, "B-1")    // turn 2
		// Turn 3: seat 1 claims its 1-weapon battleship hit but not sunk.
		m.fire(0, Battleship, "J-6")
		lie := answerMove("J-6 hit battleship")
		if slots, _ := m.Game.MustOpen(1, lie); len(slots) != 1 {
			t.Fatalf("a hit claim opens %v", slots)
		}
		m.apply(m.moveIn(1, lie))
		// Turn 4: the battleship fires; its weapon count exposes the lie.
		err := m.reject(m.moveIn(1, fireMove(Battleship, "B-2")), 1, "turn 3: seat 1 claimed its Battleship hit but not sunk after 1 hits, but it had 1 weapons")
		var f *engine.Fault
		if !errors.As(err, &f) || f.Seat != 1 {
			t.Fatalf("error %v is not a fault of seat 1", err)
		}
	})
	t.Run("settled by a sunk claim", func(t *testing.T) {
		m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{2, 4, 5, 5, 4}, 0)
		m.fire(0, Battleship, "J-6", "J-7")
		// Hit on the first, sunk on the second is right for 2 weapons.
		m.honest()
		if fl := m.Game.Fleet(1)[Battleship]; !fl.Sunk || fl.Hits != 2 {
			t.Fatalf("%+v", fl)
		}
		m2 := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{2, 4, 5, 5, 4}, 0)
		m2.volley(0, Battleship, "J-6")
		m2.volley(1, Carrier, "B-1")
		m2.volley(0, Battleship, "J-7", "J-8") // honest: sunk at J-7, then "hit"
		if fl := m2.Game.Fleet(1)[Battleship]; !fl.Sunk || fl.Hits != 2 || fl.Weapons != 2 {
			t.Fatalf("%+v", fl)
		}
		// A lie at turn 1 ("hit" on a 1-weapon ship) is caught by the
		// sunk claim of turn 3 that opens the count.
		m3 := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, margaret, 0)
		m3.fire(0, Battleship, "J-6")
		m3.apply(m3.moveIn(1, answerMove("J-6 hit battleship")))
		m3.volley(1, Carrier, "B-1")
		m3.fire(0, Battleship, "J-7")
		m3.reject(m3.moveIn(1, answerMove("J-7 sunk battleship")), 1, "turn 1: seat 1 claimed")
	})
	t.Run("hit at the plate must be sunk", func(t *testing.T) {
		m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{2, 4, 5, 5, 4}, 0)
		m.volley(0, Battleship, "E-9")
		m.volley(1, Carrier, "B-1")
		m.fire(0, Battleship, "F-9")
		m.reject(m.moveIn(1, answerMove("F-9 hit ptboat")), 1, "takes hit 2 of its plate's 2: the answer is sunk")
	})
	t.Run("settled at the final reveal", func(t *testing.T) {
		// Seat 1 lies about its 1-weapon battleship, wins, and the reveal
		// convicts it.
		m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, margaret, 0)
		m.fire(0, Carrier, "J-6")
		m.apply(m.moveIn(1, answerMove("J-6 hit battleship")))
		water := []string{"B-1", "B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "B-8", "B-9", "B-10"}
		targets := []string{"A-1", "A-2", "A-3", "A-4", "A-5", "C-1", "C-2", "C-3", "C-4", "E-1", "E-2", "E-3", "G-1", "G-2", "G-3", "I-1", "I-2"}
		for i := 0; len(targets) > 0; i++ {
			k := min(5, len(targets))
			m.fire(1, Destroyer, targets[:k]...)
			targets = targets[k:]
			m.honest()
			if len(targets) > 0 {
				m.volley(0, PTBoat, water[i])
			}
		}
		m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, m.Game.Next().Open)})
		n := m.Game.Next()
		// 96 cells (J-6, B-1, B-2, B-3 are open) and 4 weapon counts (the
		// destroyer's opened when it fired).
		if len(n.Open) != 96+4 {
			t.Fatalf("seat 1 reveals %d slots, want 100", len(n.Open))
		}
		m.reject(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: m.open(1, n.Open)}, 1, "turn 1: seat 1 claimed its Battleship")
	})
}

func TestCustomWeaponChecks(t *testing.T) {
	t.Run("counts that cannot total 20", func(t *testing.T) {
		m := standardMatch(t, Custom, [NumShips]int{10, 10, 10, 10, 10}, [NumShips]int{5, 4, 4, 4, 3}, 0)
		m.volley(0, Battleship, "B-1")
		m.volley(1, Battleship, "B-1")
		m.reject(m.moveIn(0, fireMove(Carrier, "B-2")), 0, "cannot total 20")
	})
	t.Run("wrong total at the reveal", func(t *testing.T) {
		m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{5, 4, 3, 3, 2}, 1)
		sinkSeat0(m, true)
		m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, m.Game.Next().Open)})
		m.reject(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: m.open(1, m.Game.Next().Open)}, 1, "17, not 20")
	})
	t.Run("weapons shown while hidden", func(t *testing.T) {
		m := standardMatch(t, Custom, [NumShips]int{5, 4, 4, 4, 3}, [NumShips]int{5, 4, 4, 4, 3}, 0)
		if fl := m.Game.Fleet(0)[Carrier]; fl.WeaponsKnown() {
			t.Fatalf("custom weapons public before firing: %+v", fl)
		}
		if _, ok := m.Game.Fleet(0)[Carrier].WeaponsLeft(); ok {
			t.Fatal("WeaponsLeft known")
		}
		if n, err := m.Game.ShotsAllowed(0, Carrier, m.Secrets(0)); err != nil || n != 4 {
			t.Fatalf("ShotsAllowed from secrets = %d, %v", n, err)
		}
		if _, err := m.Game.ShotsAllowed(0, Carrier, nil); err == nil {
			t.Fatal("ShotsAllowed without secrets")
		}
	})
}

// TestCustomFleetOfSeventeen: the rulebook asks only that "both players must
// have the same number of weapons per fleet". In "custom-17" both seats move
// the standard 17 weapons around (Margaret's one-weapon battleship, Matt's
// ten-weapon carrier fit 17 too), and a build of another total is refused at
// the first opening that shows it, or at the reveal.
func TestCustomFleetOfSeventeen(t *testing.T) {
	margaret := [NumShips]int{1, 4, 5, 5, 2}
	matt := [NumShips]int{2, 10, 2, 2, 1}
	t.Run("matt's carrier fires ten", func(t *testing.T) {
		m := standardMatch(t, "custom-17", margaret, matt, 1)
		m.volley(1, Carrier, "B-1", "B-2", "B-3", "B-4", "B-5", "B-6", "B-7", "B-8", "B-9", "B-10")
		if w := m.Game.Fleet(1)[Carrier].Weapons; w != 10 || m.Game.FleetWeapons() != 17 {
			t.Fatalf("carrier weapons %d, fleet %d", w, m.Game.FleetWeapons())
		}
	})
	t.Run("standard counts to the end", func(t *testing.T) {
		m := standardMatch(t, "custom-17", StandardWeapons(), StandardWeapons(), 1)
		sinkSeat0(m, true)
		m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, m.Game.Next().Open)})
		m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: m.open(1, m.Game.Next().Open)})
		if o := m.Game.Outcome(); !o.Done || len(o.Winners) != 1 || o.Winners[0] != 1 {
			t.Fatalf("outcome %+v", o)
		}
	})
	t.Run("twenty is refused at the reveal", func(t *testing.T) {
		m := standardMatch(t, "custom-17", StandardWeapons(), [NumShips]int{6, 5, 4, 3, 2}, 1)
		sinkSeat0(m, true)
		m.apply(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: m.open(0, m.Game.Next().Open)})
		m.reject(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: m.open(1, m.Game.Next().Open)}, 1, "20, not 17")
	})
	t.Run("counts that cannot total 17", func(t *testing.T) {
		m := standardMatch(t, "custom-17", [NumShips]int{10, 10, 10, 10, 10}, [NumShips]int{7, 4, 2, 2, 2}, 0)
		m.volley(0, Battleship, "B-1")
		m.volley(1, Battleship, "B-1")
		m.reject(m.moveIn(0, fireMove(Carrier, "B-2")), 0, "cannot total 17")
	})
}
