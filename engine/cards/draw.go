package cards

import (
	"github.com/salvo-game/salvo/engine"
)

// Drawing from an own deck: nobody, the owner included, knows the order of a
// deck. Each draw is a joint roll over the leaves still in the draw pile; a
// k-card draw is one roll with Bound R·(R−1)·…·(R−k+1) (R leaves left),
// decoded in mixed radix into an ordered choice of k distinct leaves.

// drawBound returns R·(R−1)·…·(R−k+1), the number of ordered k-draws from r leaves.
func drawBound(r, k int) int {
	b := 1
	for i := range k {
		b *= r - i
	}
	return b
}

// drawCount returns how many of want cards one roll draws from a pile of r:
// as many as are wanted and left, but no more than keep the bound within
// maxDrawBound.
func drawCount(r, want int) int {
	k := min(r, want)
	for k > 1 && drawBound(r, k) > maxDrawBound {
		k--
	}
	return k
}

// decodeDraw maps a roll value v in [0, drawBound(len(remaining), k)) to k
// distinct leaves of remaining (in draw order): the first digit of v in base
// R picks the first leaf, the next digit in base R−1 the second, and so on.
func decodeDraw(remaining []int, k, v int) []int {
	rem := append([]int(nil), remaining...)
	out := make([]int, 0, k)
	for range k {
		r := len(rem)
		d := v % r
		v /= r
		out = append(out, rem[d])
		rem = append(rem[:d], rem[d+1:]...)
	}
	return out
}

// remainingLeaves lists the undrawn leaves of seat's current deck, ascending.
func (g *Game) remainingLeaves(s engine.Seat) []int {
	p := &g.players[s]
	d := &p.decks[len(p.decks)-1]
	var out []int
	for i, dr := range d.drawn {
		if !dr {
			out = append(out, i)
		}
	}
	return out
}

// drawLeaves moves the leaves picked by roll value v from seat's draw pile to
// its hand and returns the cards drawn.
func (g *Game) drawLeaves(s engine.Seat, k, v int) []CardRef {
	p := &g.players[s]
	n := len(p.decks)
	d := &p.decks[n-1]
	leaves := decodeDraw(g.remainingLeaves(s), k, v)
	out := make([]CardRef, 0, k)
	for _, l := range leaves {
		d.drawn[l] = true
		c := CardRef{Deck: n, Leaf: l}
		p.hand = append(p.hand, c)
		out = append(out, c)
	}
	return out
}

// startDraw begins drawing k cards for seat.
func (g *Game) startDraw(s engine.Seat, k int, why drawPurpose) {
	g.draw = drawState{purpose: why, seat: s, left: k, got: []CardRef{}}
}

// addDeck records a new committed deck of seat holding the multiset expect.
func (p *player) addDeck(expect [NumFaces]int) {
	n := countTotal(expect)
	p.decks = append(p.decks, deckTree{expect: expect, drawn: make([]bool, n), opened: make([]bool, n)})
}
