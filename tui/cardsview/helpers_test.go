package cardsview

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// table drives a coordinate-card match as an honest referee would, for
// tests (see boardtest.Table): the strong bot decides for each seat unless
// a test plays a move itself.
type table struct {
	*boardtest.Table[*cards.Game]
}

func newTable(t *testing.T, variant string, seed uint64) *table {
	t.Helper()
	g, err := cards.New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{boardtest.NewTable(t, g, rand.New(rand.NewPCG(seed, 99)),
		cards.NewStrongBot(rand.New(rand.NewPCG(seed, 0))), cards.NewStrongBot(rand.New(rand.NewPCG(seed, 1))))}
	tb.Names = []string{"ann", "bot"}
	return tb
}

// play applies a move of the seat on move with honest openings.
func (tb *table) play(m cards.Move) {
	tb.T.Helper()
	tb.Play(tb.G.Next().Seat, m.Encode())
}

// fixed commits both seats' coordinate cards and decks in list order.
func (tb *table) fixed(variant string) {
	tb.T.Helper()
	for tb.G.Next().Kind == engine.NeedCommit {
		n := tb.G.Next()
		var leaves [][]byte
		if n.Name == cards.CoordsName {
			for _, k := range cards.CoordList() {
				leaves = append(leaves, cards.EncodeCoord(k))
			}
		} else {
			deck, err := cards.DeckList(variant)
			if err != nil {
				tb.T.Fatal(err)
			}
			for _, f := range deck {
				leaves = append(leaves, cards.EncodeCard(f))
			}
		}
		tb.Commit(leaves)
	}
}

// myTurn reports whether seat must play a card now.
func myTurn(seat engine.Seat) func(*cards.Game) bool {
	return func(g *cards.Game) bool {
		n := g.Next()
		return n.Kind == engine.NeedMove && n.Seat == seat && !isStartNeed(g, seat)
	}
}

func isStartNeed(g *cards.Game, seat engine.Seat) bool {
	return strings.Contains(g.Next().Prompt, "PT Boat")
}

func newView() *View {
	return New(boardtest.Env(false))
}
