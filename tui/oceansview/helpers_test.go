package oceansview

import (
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board/boardtest"
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
	return New(boardtest.Env(false))
}
