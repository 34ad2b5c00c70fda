package oceansview

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// table drives an ocean-card match as an honest referee would, for tests
// (see boardtest.Table): the strong bot decides for each seat unless a
// test plays a move itself.
type table struct {
	*boardtest.Table[*oceans.Game]
}

func newTable(t testing.TB, seed uint64) *table {
	t.Helper()
	g, err := oceans.New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{boardtest.NewTable(t, g, rand.New(rand.NewPCG(seed, 77)),
		oceans.NewStrongBot(rand.New(rand.NewPCG(seed, 0))), oceans.NewStrongBot(rand.New(rand.NewPCG(seed, 1))))}
	tb.Names = []string{"ann", "bot"}
	return tb
}

// moveOf reports whether seat must make a move now.
func moveOf(seat engine.Seat) func(*oceans.Game) bool {
	return func(g *oceans.Game) bool {
		n := g.Next()
		return n.Kind == engine.NeedMove && n.Seat == seat
	}
}

func newView() *View {
	return New(board.Env{Theme: style.New(false), Rand: rand.New(rand.NewPCG(7, 7))})
}

// render draws the view on a w×h simulation screen and returns it and its text.
func render(t testing.TB, v *View, w, h int) (tcell.SimulationScreen, string) {
	t.Helper()
	scr := boardtest.Render(t, v, w, h)
	return scr, boardtest.Text(scr)
}
