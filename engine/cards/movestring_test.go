package cards

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// fmtMoveString is Move.String as it was written with fmt: the reference
// the faster one must match byte for byte.
func fmtMoveString(m Move) string {
	var b strings.Builder
	b.WriteString(m.Action.String())
	if m.Action.playsCard() {
		fmt.Fprintf(&b, " %s %s", m.Face, fmt.Sprintf("%s[%d]", DeckName(m.Card.Deck), m.Card.Leaf))
	}
	pos := fmt.Sprintf("pos(%d)", m.Pos)
	if m.Pos >= 0 && m.Pos < GridSize {
		pos = fmt.Sprintf("%c%d", 'A'+m.Pos/GridCols, m.Pos%GridCols+1)
	}
	switch m.Action {
	case Tap:
		fmt.Fprintf(&b, " at %s", pos)
	case Attack, PlaceShield:
		fmt.Fprintf(&b, " on %s", m.Ship)
	case Repair, PTRepair:
		fmt.Fprintf(&b, " %s peg %d", m.Ship, m.Peg)
	case DiscardWhite:
		fmt.Fprintf(&b, " %v", m.Discard)
	}
	return b.String()
}

// TestMoveStringAsFmt checks, over random moves (values out of range
// too), that Move.String writes what fmt wrote for it.
func TestMoveStringAsFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	small := func() int { return r.IntN(40) - 5 }
	for range 20000 {
		m := Move{Action: Action(r.IntN(int(numActions) + 2)), Card: CardRef{Deck: small(), Leaf: small()},
			Face: Face(r.IntN(int(numFaces) + 2)), Pos: small(), Ship: Ship(r.IntN(int(numShips) + 2)), Peg: small()}
		if r.IntN(3) > 0 {
			m.Discard = make([]CardRef, r.IntN(4))
			for i := range m.Discard {
				m.Discard[i] = CardRef{Deck: small(), Leaf: small()}
			}
		}
		if got, want := m.String(), fmtMoveString(m); got != want {
			t.Fatalf("%#v: String %q, fmt wrote %q", m, got, want)
		}
	}
}

// TestDeckNameAsWritten holds DeckName, from its table or not, to the name
// it wrote for every number.
func TestDeckNameAsWritten(t *testing.T) {
	for n := -3; n < 40; n++ {
		if got, want := DeckName(n), fmt.Sprintf("deck/%d", n); got != want {
			t.Fatalf("DeckName(%d) = %q, want %q", n, got, want)
		}
	}
}
