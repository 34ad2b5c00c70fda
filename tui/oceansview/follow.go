package oceansview

import (
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
)

// A board only sees the match after each message, and one message may
// carry a whole turn: a draw, two plays, an attack, the reveals and the
// choices of a battle. To show those steps one by one, the board retraces
// them: it looks for inputs that lead from the state it showed last to the
// state it is shown now, trying each on a copy of the engine, and keeps a
// sequence whose end state has exactly the new state hash. Every input is
// public by then: an opened card stays known in the state, drawn leaves
// are the ones that left the draw pile, and the few decisions (a play, an
// attack, a battle choice) are tried among the engine's own legal moves.

// Limits of the retracing (house values of the board): past them the
// board shows the new state without the steps.
const (
	followDepth  = 24   // inputs in one gap
	followBudget = 6000 // inputs tried in one gap
)

// step is one retraced input.
type step struct {
	seat   engine.Seat // who gave it; NoSeat for a joint roll
	kind   engine.NeedKind
	move   *oceans.Move // the decision, for a NeedMove
	events []engine.Event
	before *oceans.Game
	after  *oceans.Game
}

// follow returns inputs that lead from prev to cur, or false. sec holds
// hidden values the viewer knows (for its own cards no state shows yet).
func follow(prev, cur *oceans.Game, sec engine.Secrets) ([]step, bool) {
	target := cur.Hash()
	if prev.Hash() == target {
		return nil, true
	}
	if !canReach(prev, cur) {
		return nil, false
	}
	f := &follower{cur: cur, sec: sec, target: target, budget: followBudget}
	if f.search(prev, 0) {
		return f.path, true
	}
	return nil, false
}

type follower struct {
	cur    *oceans.Game
	sec    engine.Secrets
	target engine.Digest
	budget int
	path   []step
}

func (f *follower) search(g *oceans.Game, depth int) bool {
	if g.Hash() == f.target {
		return true
	}
	if depth >= followDepth || f.budget <= 0 {
		return false
	}
	n := g.Next()
	for _, in := range f.candidates(g, n) {
		if f.budget <= 0 {
			return false
		}
		f.budget--
		c := g.Clone().(*oceans.Game)
		evs, err := c.Apply(in.input)
		if err != nil || !canReach(c, f.cur) {
			continue
		}
		f.path = append(f.path, step{seat: in.input.Seat, kind: n.Kind, move: in.move, events: evs, before: g, after: c})
		if f.search(c, depth+1) {
			return true
		}
		f.path = f.path[:len(f.path)-1]
	}
	return false
}

// candidate is one input worth trying.
type candidate struct {
	input engine.Input
	move  *oceans.Move
}

// candidates lists the inputs that could come next on the way to cur.
func (f *follower) candidates(g *oceans.Game, n engine.Need) []candidate {
	switch n.Kind {
	case engine.NeedRandom:
		return f.rolls(g, n)
	case engine.NeedOpen:
		opened, ok := f.open(n.Open)
		if !ok {
			return nil
		}
		return []candidate{{input: engine.Input{Kind: engine.NeedOpen, Seat: n.Seat, Opened: opened}}}
	case engine.NeedMove:
		return f.moves(g, n.Seat)
	}
	return nil // a commitment's root cannot be retraced
}

// value returns the card at slot as the target state shows it, or else as
// the viewer's secrets hold it.
func (f *follower) value(s engine.Slot) (oceans.Card, bool) {
	if c := f.cur.Known(s.Owner, s.Index); c != oceans.NoCard {
		return c, true
	}
	if f.sec != nil {
		if b, ok := f.sec.Value(s); ok {
			if c, err := oceans.DecodeCard(b); err == nil {
				return c, true
			}
		}
	}
	return oceans.NoCard, false
}

// open builds the openings of slots from the known values.
func (f *follower) open(slots []engine.Slot) ([]engine.Opened, bool) {
	out := make([]engine.Opened, len(slots))
	for i, s := range slots {
		c, ok := f.value(s)
		if !ok || f.cur.Known(s.Owner, s.Index) == oceans.NoCard {
			return nil, false // an opening leaves the card known in the state
		}
		out[i] = engine.Opened{Slot: s, Value: oceans.EncodeCard(c)}
	}
	return out, true
}

// rolls lists the values a joint roll may have had: the coin flip is the
// first player; a draw is the leaves that left the draw pile, in the order
// the hand shows them.
func (f *follower) rolls(g *oceans.Game, n engine.Need) []candidate {
	roll := func(v int) candidate {
		return candidate{input: engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{v}}}
	}
	if n.Name == "first" {
		if s := f.cur.First(); s != engine.NoSeat {
			return []candidate{roll(int(s))}
		}
		return nil
	}
	if !strings.HasPrefix(n.Name, "deal/") && !strings.HasPrefix(n.Name, "draw/") {
		return nil
	}
	s := n.Seat
	deck := drawPile(g, s)
	r := len(deck)
	k := 0
	for b := 1; b < n.Bound; k++ {
		if k >= r {
			return nil
		}
		b *= r - k
	}
	if k == 0 {
		return nil
	}
	later := drawPile(f.cur, s)
	var gone []int
	for _, l := range deck {
		if !slices.Contains(later, l) {
			gone = append(gone, l)
		}
	}
	if len(gone) < k {
		return nil
	}
	// The drawn leaves still in the hand keep their draw order there.
	hand := f.cur.Hand(s)
	var inHand, elsewhere []int
	for _, l := range hand {
		if slices.Contains(gone, l) {
			inHand = append(inHand, l)
		}
	}
	for _, l := range gone {
		if !slices.Contains(inHand, l) {
			elsewhere = append(elsewhere, l)
		}
	}
	var out []candidate
	for _, order := range orders(inHand, elsewhere, k) {
		if v, ok := drawValue(deck, order); ok {
			out = append(out, roll(v))
		}
	}
	return out
}

// orders lists the draw orders of k leaves worth trying: those still in
// the hand in hand order, those gone on in every order, and all of them when
// the hand cannot tell (a few leaves at most).
func orders(inHand, elsewhere []int, k int) [][]int {
	if len(inHand) == k && len(elsewhere) == 0 {
		return [][]int{inHand}
	}
	all := append(slices.Clone(inHand), elsewhere...)
	if len(all) > 4 {
		return nil
	}
	var out [][]int
	var pick func(prefix, rest []int)
	pick = func(prefix, rest []int) {
		if len(prefix) == k {
			out = append(out, slices.Clone(prefix))
			return
		}
		for i, l := range rest {
			r := append(slices.Clone(rest[:i]), rest[i+1:]...)
			pick(append(prefix, l), r)
		}
	}
	pick(nil, all)
	return out
}

// drawValue is the roll value that draws order from deck (ascending), read
// in mixed radix as the engine reads it.
func drawValue(deck, order []int) (int, bool) {
	rem := slices.Clone(deck)
	v, mult := 0, 1
	for _, l := range order {
		d := slices.Index(rem, l)
		if d < 0 {
			return 0, false
		}
		v += d * mult
		mult *= len(rem)
		rem = slices.Delete(rem, d, d+1)
	}
	return v, true
}

// drawPile returns the leaves of seat's draw pile, ascending: every leaf
// neither in the hand nor in a task force nor opened (discarded cards are
// all opened; a card is opened only once it has left the draw pile, or at
// the very end).
func drawPile(g *oceans.Game, s engine.Seat) []int {
	out := make([]int, 0, g.DeckLeft(s))
	used := map[int]bool{}
	for _, l := range g.Hand(s) {
		used[l] = true
	}
	for o := range oceans.Ocean(oceans.NumOceans) {
		for _, c := range g.TaskForce(s, o) {
			used[c.Leaf] = true
		}
	}
	for l := range oceans.DeckSize {
		if !used[l] && g.Known(s, l) == oceans.NoCard {
			out = append(out, l)
		}
	}
	if len(out) != g.DeckLeft(s) {
		return nil // the final reveal has opened the pile: nothing to draw
	}
	return out
}

// moves lists the decisions seat may have made, with the openings they
// need, leaving out those the target state rules out.
func (f *follower) moves(g *oceans.Game, seat engine.Seat) []candidate {
	var list []oceans.Move
	if g.Phase() == oceans.PhaseBattle {
		list, _ = g.Moves(seat, nil)
	} else {
		// The cards of the hand: as the target state or the viewer knows
		// them; any other card stays facedown, so only its placing
		// matters and any card that can join stands in for it.
		fake := engine.Known{}
		for _, l := range g.Hand(seat) {
			s := engine.Slot{Owner: seat, Name: oceans.FleetName, Index: l}
			c, ok := f.value(s)
			if !ok {
				c = oceans.Battleship
			}
			fake[s] = oceans.EncodeCard(c)
		}
		list, _ = g.Moves(seat, fake)
	}
	later := f.cur.Hand(seat)
	var out []candidate
	for _, m := range list {
		if m.Kind == oceans.Deploy || m.Kind == oceans.Place || m.Kind == oceans.Discard {
			if slices.Contains(later, m.Leaf) {
				continue // still in the hand: not played
			}
			if o, ok := forceOf(f.cur, seat, m.Leaf); ok && (m.Kind == oceans.Discard || o != m.Ocean) {
				continue // it lies in another task force
			}
		}
		in := engine.Input{Kind: engine.NeedMove, Seat: seat, Move: m.Encode()}
		slots, err := g.MustOpen(seat, in.Move)
		if err != nil {
			continue
		}
		opened, ok := f.open(slots)
		if !ok {
			continue
		}
		in.Opened = opened
		mv := m
		out = append(out, candidate{input: in, move: &mv})
	}
	return out
}

// forceOf returns the ocean of the task force holding seat's leaf.
func forceOf(g *oceans.Game, seat engine.Seat, leaf int) (oceans.Ocean, bool) {
	for o := range oceans.Ocean(oceans.NumOceans) {
		for _, c := range g.TaskForce(seat, o) {
			if c.Leaf == leaf {
				return o, true
			}
		}
	}
	return 0, false
}

// canReach reports whether the state b could still follow a: nothing that
// only grows has shrunk.
func canReach(a, b *oceans.Game) bool {
	if a.Phase() > b.Phase() && b.Phase() < oceans.PhaseDraw {
		return false
	}
	for s := range engine.Seat(2) {
		if a.DeckLeft(s) < b.DeckLeft(s) || len(a.Discards(s)) > len(b.Discards(s)) || a.Controlled(s) > b.Controlled(s) {
			return false
		}
		for l := range oceans.DeckSize {
			if a.Known(s, l) != oceans.NoCard && a.Known(s, l) != b.Known(s, l) {
				return false
			}
		}
	}
	return a.First() == engine.NoSeat || a.First() == b.First()
}
