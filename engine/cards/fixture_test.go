package cards

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Fixtures for the rule tests: a table whose seats commit their cards in a
// known order (coordinate leaf i holds Ship(i+1) for i < 5, misses after;
// deck leaves in DeckList order), and white-box helpers that arrange hands
// and the board consistently with those leaves.

// fixedCommit commits coordinate cards as ships then misses, decks in list
// order, and reshuffles in face order.
func fixedCommit(tb *table) func(n engine.Need) [][]byte {
	return func(n engine.Need) [][]byte {
		var out [][]byte
		switch {
		case n.Name == CoordsName:
			for _, k := range []Ship{Carrier, Battleship, Destroyer, Submarine, PTBoat} {
				out = append(out, EncodeCoord(k))
			}
			for range Misses {
				out = append(out, EncodeCoord(NoShip))
			}
		case n.Name == DeckName(1):
			deck, _ := DeckList(tb.Game.Variant())
			for _, f := range deck {
				out = append(out, EncodeCard(f))
			}
		default:
			for _, f := range countsToFaces(tb.Game.Discard(n.Seat)) {
				out = append(out, EncodeCard(f))
			}
		}
		return out
	}
}

// newFixture returns a table right after the deal, with first to move.
// Both opening hands are the first five deck leaves (white peg cards).
func newFixture(t *testing.T, variant string, first engine.Seat) *table {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tb := newTable(t, variant, 9, NewRandomBot(r), NewRandomBot(r))
	tb.commit = fixedCommit(tb)
	tb.Script = []int{int(first), 0, 0}
	tb.settle(t)
	if tb.Game.Turn() != first || tb.Game.step != stPlay {
		t.Fatalf("fixture: turn %s step %d, want %s to play", tb.Game.Turn(), tb.Game.step, first)
	}
	return tb
}

// leafOf returns the leaf of seat s's current deck that holds face f and is
// still in the draw pile.
func (tb *table) leafOf(t *testing.T, s engine.Seat, f Face) CardRef {
	t.Helper()
	n := tb.Game.Deck(s)
	d := &tb.Game.players[s].decks[n-1]
	for i, drawn := range d.drawn {
		if drawn {
			continue
		}
		v := tb.leaf(engine.Slot{Owner: s, Name: DeckName(n), Index: i})
		if Face(v[0]) == f {
			return CardRef{Deck: n, Leaf: i}
		}
	}
	t.Fatalf("no %s card left in %s's draw pile", f, s)
	return CardRef{}
}

// setHand puts seat s's hand back in its draw pile and deals it the faces.
func (tb *table) setHand(t *testing.T, s engine.Seat, faces ...Face) []CardRef {
	t.Helper()
	p := &tb.Game.players[s]
	for _, c := range p.hand {
		p.decks[c.Deck-1].drawn[c.Leaf] = false
	}
	p.hand = nil
	var out []CardRef
	for _, f := range faces {
		c := tb.leafOf(t, s, f)
		p.decks[c.Deck-1].drawn[c.Leaf] = true
		p.hand = append(p.hand, c)
		out = append(out, c)
	}
	return out
}

// removeFromPile takes a face out of seat s's draw pile as played and opened
// (to put it in play or in the discard pile by hand).
func (tb *table) removeFromPile(t *testing.T, s engine.Seat, f Face) {
	t.Helper()
	c := tb.leafOf(t, s, f)
	d := &tb.Game.players[s].decks[c.Deck-1]
	d.drawn[c.Leaf], d.opened[c.Leaf] = true, true
	d.seen[f]++
}

// reveal turns seat s's ship k faceup at pos, as a tap would.
func (tb *table) reveal(t *testing.T, s engine.Seat, k Ship, pos int) {
	t.Helper()
	p := &tb.Game.players[s]
	leaf := int(k) - 1 // fixedCommit order
	if p.grid[pos] >= 0 || p.coords.placed[leaf] {
		t.Fatalf("reveal %s at %s: already placed", k, PosName(pos))
	}
	p.grid[pos] = leaf
	c := &p.coords
	c.placed[leaf], c.opened[leaf], c.value[leaf] = true, true, k
	c.seen[k]++
	p.ships[k].revealed, p.ships[k].pos = true, pos
}

// peg puts a peg card of attacker (taken from its pile) on the defender's ship k.
func (tb *table) peg(t *testing.T, attacker engine.Seat, k Ship, f Face, onShield bool) {
	t.Helper()
	tb.removeFromPile(t, attacker, f)
	sh := &tb.Game.players[other(attacker)].ships[k]
	if onShield {
		sh.shieldPegs = append(sh.shieldPegs, f)
	} else {
		sh.pegs = append(sh.pegs, f)
	}
}

// shield puts a Shield of seat s (from its pile) on its ship k.
func (tb *table) shield(t *testing.T, s engine.Seat, k Ship) {
	t.Helper()
	tb.removeFromPile(t, s, ShieldCard)
	tb.Game.players[s].ships[k].shield = true
}

// sinkShip marks seat s's ship k as revealed and sunk (no cards involved).
func (tb *table) sinkShip(t *testing.T, s engine.Seat, k Ship, pos int) {
	t.Helper()
	tb.reveal(t, s, k, pos)
	tb.Game.players[s].ships[k].sunk = true
}

// setTurn makes it seat s's turn, before its first play.
func (tb *table) setTurn(s engine.Seat) {
	g := tb.Game
	g.turn, g.seat, g.step = s, s, stPlay
	g.playsLeft, g.reloaded, g.mustFrom, g.ptPending = 1, false, nil, false
	if g.ptRepairable(s) {
		g.ptPending = true
		g.step = stStart
	}
}

// flipTo queues the flip roll that picks the defender's leaf holding k.
func (tb *table) flipTo(def engine.Seat, k Ship) {
	c := &tb.Game.players[def].coords
	idx := 0
	for i := range GridSize {
		if c.placed[i] {
			continue
		}
		v := tb.leaf(engine.Slot{Owner: def, Name: CoordsName, Index: i})
		if Ship(v[0]) == k {
			tb.Script = append(tb.Script, idx)
			return
		}
		idx++
	}
	panic("flipTo: no such leaf left")
}

// tapTo plays a tap that (by the queued roll) finds k, and settles the flip.
func (tb *table) tapTo(t *testing.T, s engine.Seat, c CardRef, f Face, pos int, k Ship) []engine.Event {
	t.Helper()
	tb.flipTo(other(s), k)
	evs := tb.mustPlay(t, s, Move{Action: Tap, Card: c, Face: f, Pos: pos})
	for tb.Game.step == stFlipPick || tb.Game.step == stFlipOpen {
		in, err := tb.Input()
		if err != nil {
			t.Fatal(err)
		}
		e, err := tb.Apply(in)
		if err != nil {
			t.Fatalf("flip: %v", err)
		}
		evs = append(evs, e...)
	}
	return evs
}

// ship returns seat s's ship k as seen on the table.
func (tb *table) ship(s engine.Seat, k Ship) ShipView {
	return tb.Game.Fleet(s)[slices.Index(Ships[:], k)]
}

// hasEvent reports whether evs holds an event of the kind.
func hasEvent(evs []engine.Event, kind string) bool {
	return slices.ContainsFunc(evs, func(e engine.Event) bool { return e.Kind == kind })
}

// wantIllegal checks that err is a rules error and that the state is unchanged.
func wantIllegal(t *testing.T, tb *table, before engine.Digest, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("illegal input accepted")
	}
	if !isIllegal(err) {
		t.Fatalf("error %v does not wrap engine.ErrIllegal", err)
	}
	if tb.Game.Hash() != before {
		t.Fatal("rejected input changed the state")
	}
}
