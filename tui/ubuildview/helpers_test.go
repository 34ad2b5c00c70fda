package ubuildview

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
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
		if variant == ubuild.Custom {
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
	out := make([]engine.Opened, len(slots))
	for i, s := range slots {
		v, ok := m.known.Value(s)
		if !ok {
			m.t.Fatalf("no value for %s", s)
		}
		out[i] = engine.Opened{Slot: s, Value: v}
	}
	return out
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
func (m *match) own(seat engine.Seat) board.Known {
	k := board.Known{}
	for s, v := range m.known {
		if s.Owner == seat {
			k[s] = v
		}
	}
	return k
}

func newView() *View {
	return New(board.Env{Theme: style.New(false), Rand: rand.New(rand.NewPCG(7, 7))})
}

// press sends keys to the view: a rune per character of s, or named keys.
func press(v *View, ks ...any) {
	h := v.InputHandler()
	for _, k := range ks {
		switch k := k.(type) {
		case string:
			for _, r := range k {
				h(tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone), func(tview.Primitive) {})
			}
		case tcell.Key:
			h(tcell.NewEventKey(k, 0, tcell.ModNone), func(tview.Primitive) {})
		}
	}
}

// render draws the view on a simulation screen of w×h and returns it.
func render(t *testing.T, v *View, w, h int) tcell.SimulationScreen {
	t.Helper()
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(w, h)
	v.SetRect(0, 0, w, h)
	v.Draw(scr)
	scr.Show()
	return scr
}

// screenText returns the screen as lines.
func screenText(scr tcell.SimulationScreen) string {
	cells, w, h := scr.GetContents()
	var b strings.Builder
	for y := range h {
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 || c.Runes[0] == 0 {
				b.WriteByte(' ')
			} else {
				b.WriteRune(c.Runes[0])
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
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

func mouse(v *View, action tview.MouseAction, x, y int) {
	ev := tcell.NewEventMouse(x, y, tcell.Button1, tcell.ModNone)
	v.MouseHandler()(action, ev, func(tview.Primitive) {})
}
