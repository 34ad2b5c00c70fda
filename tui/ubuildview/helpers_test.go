package ubuildview

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// match drives a U-Build game as an honest referee would, for tests: it
// keeps both seats' values and answers volleys from them.
type match struct {
	t     *testing.T
	g     *ubuild.Game
	known board.Known
}

// fixedLayout puts ship s on row 2s from column 0, across: A Battleship,
// C Carrier, E Destroyer, G Submarine, I PT Boat.
func fixedLayout() ubuild.Layout {
	var l ubuild.Layout
	for s := range ubuild.Ship(ubuild.NumShips) {
		l[s] = ubuild.Placement{Start: ubuild.CellAt(2*int(s), 0)}
	}
	return l
}

func newMatch(t *testing.T, variant string, layouts [2]ubuild.Layout, weapons [2][ubuild.NumShips]int) *match {
	t.Helper()
	g, err := ubuild.New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	m := &match{t: t, g: g, known: board.Known{}}
	for seat := range engine.Seat(2) {
		m.known.Add(seat, ubuild.GridName, layouts[seat].Leaves())
		if _, custom := ubuild.FleetTotal(variant); custom {
			m.known.Add(seat, ubuild.WeaponsName, ubuild.WeaponLeaves(weapons[seat]))
		}
	}
	return m
}

// setup commits both fleets and flips the coin to first.
func (m *match) setup(first engine.Seat) {
	m.t.Helper()
	for m.g.Next().Kind == engine.NeedCommit {
		n := m.g.Next()
		m.apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}})
	}
	m.apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{int(first)}})
}

func (m *match) apply(in engine.Input) {
	m.t.Helper()
	if _, err := m.g.Apply(in); err != nil {
		m.t.Fatalf("apply %v: %v", in.Kind, err)
	}
}

// opened opens slots from the known values.
func (m *match) opened(slots []engine.Slot) []engine.Opened {
	return boardtest.Open(m.t, m.known, slots)
}

// volley fires ship's shots for the attacker and answers honestly.
func (m *match) volley(ship ubuild.Ship, cells ...string) {
	m.t.Helper()
	var cs []ubuild.Cell
	for _, c := range cells {
		x, err := ubuild.ParseCell(c)
		if err != nil {
			m.t.Fatal(err)
		}
		cs = append(cs, x)
	}
	a := m.g.Attacker()
	mv, err := ubuild.EncodeFire(ship, cs)
	if err != nil {
		m.t.Fatal(err)
	}
	slots, err := m.g.MustOpen(a, mv)
	if err != nil {
		m.t.Fatal(err)
	}
	m.apply(engine.Input{Kind: engine.NeedMove, Seat: a, Move: mv, Opened: m.opened(slots)})
	n := m.g.Next()
	ans, err := m.g.Answer(n.Seat, n, m.known)
	if err != nil {
		m.t.Fatal(err)
	}
	slots, err = m.g.MustOpen(n.Seat, ans)
	if err != nil {
		m.t.Fatal(err)
	}
	m.apply(engine.Input{Kind: engine.NeedMove, Seat: n.Seat, Move: ans, Opened: m.opened(slots)})
}

// own returns seat's own known values.
func (m *match) own(seat engine.Seat) board.Known { return boardtest.Own(m.known, seat) }

func newView() *View {
	return New(boardtest.Env(false))
}

// cellAt returns the glyph and style drawn for cell c of a grid.
func cellAt(scr tcell.SimulationScreen, g gridGeo, c ubuild.Cell) (string, tcell.Style) {
	cells, w, _ := scr.GetContents()
	sc := cells[(g.y+c.Row())*w+g.x+2*c.Col()]
	return string(sc.Runes), sc.Style
}

func cell(t *testing.T, s string) ubuild.Cell {
	t.Helper()
	c, err := ubuild.ParseCell(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
