package enginetest

import (
	"context"
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// toy is a small two-seat game that needs every kind of input once:
//
//  1. each seat commits three values ("hand");
//  2. a joint roll (Bound 2) picks the first seat;
//  3. both seats choose a leaf of their hand at once ("pick");
//  4. the first seat plays a move naming a leaf, which opens it;
//  5. the other seat answers (Auto) by opening the leaf it picked;
//  6. seat 0 opens its last leaf (NeedOpen);
//  7. a shared deck of four cards is shuffled and one card dealt to seat 1.
//
// The seat whose opened values sum higher wins.
type toy struct {
	step   int
	roots  [2]engine.Digest
	first  engine.Seat
	picks  [2]int
	opened map[engine.Slot]int
	dealt  []int
}

type toyMove struct {
	Leaf int `json:"leaf"`
}

func newToy() *toy { return &toy{opened: map[engine.Slot]int{}} }

func hand(seat engine.Seat, i int) engine.Slot {
	return engine.Slot{Owner: seat, Name: "hand", Index: i}
}

func (g *toy) Next() engine.Need {
	switch g.step {
	case 0, 1:
		return engine.Need{Kind: engine.NeedCommit, Seat: engine.Seat(g.step), Name: "hand", Size: 3}
	case 2:
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: []engine.Seat{0, 1}, Name: "first", Count: 1, Bound: 2}
	case 3:
		return engine.Need{Kind: engine.NeedChoice, Seats: []engine.Seat{0, 1}, Name: "pick"}
	case 4:
		return engine.Need{Kind: engine.NeedMove, Seat: g.first}
	case 5:
		o := 1 - g.first
		return engine.Need{Kind: engine.NeedMove, Seat: o, Auto: true, Open: []engine.Slot{hand(o, g.picks[o])}}
	case 6:
		return engine.Need{Kind: engine.NeedOpen, Seat: 0, Open: []engine.Slot{hand(0, 2)}}
	case 7:
		return engine.Need{Kind: engine.NeedShuffle, Seats: []engine.Seat{0, 1}, Name: "deck", Size: 4}
	case 8:
		return engine.Need{Kind: engine.NeedDeal, Seat: 1, Name: "deck", Count: 1}
	}
	return engine.Need{Kind: engine.NeedNone}
}

func (g *toy) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	var m toyMove
	if err := engine.DecodeMove(move, &m); err != nil {
		return nil, err
	}
	if n := g.Next(); n.Auto {
		return n.Open, nil
	}
	return []engine.Slot{hand(seat, m.Leaf)}, nil
}

func (g *toy) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if in.Kind != n.Kind || n.Kind == engine.NeedNone {
		return nil, engine.Illegal("want %s, got %s", n.Kind, in.Kind)
	}
	c := g.clone()
	if err := c.apply(n, in); err != nil {
		return nil, err
	}
	*g = *c
	g.step++
	return []engine.Event{{Seat: in.Seat, Kind: n.Kind.String()}}, nil
}

func (g *toy) apply(n engine.Need, in engine.Input) error {
	switch n.Kind {
	case engine.NeedCommit:
		if in.Commitment == nil || in.Commitment.Size != 3 {
			return engine.Illegal("bad commitment")
		}
		g.roots[n.Seat] = in.Commitment.Root
	case engine.NeedRandom:
		if len(in.Random) != 1 || in.Random[0] < 0 || in.Random[0] > 1 {
			return engine.Illegal("bad roll %v", in.Random)
		}
		g.first = engine.Seat(in.Random[0])
	case engine.NeedChoice:
		for i, ch := range in.Choices {
			if len(ch) != 1 || ch[0] > 2 {
				return &engine.Fault{Seat: engine.Seat(i), Err: engine.Illegal("bad pick")}
			}
			g.picks[i] = int(ch[0])
		}
	case engine.NeedMove, engine.NeedOpen:
		want := n.Open
		if n.Kind == engine.NeedMove && in.Seat != n.Seat {
			return engine.Illegal("not %s's move", in.Seat)
		}
		if n.Kind == engine.NeedMove {
			var err error
			if want, err = g.MustOpen(in.Seat, in.Move); err != nil {
				return engine.Illegal("%v", err)
			}
		}
		if len(in.Opened) != len(want) {
			return engine.Illegal("%d openings, want %d", len(in.Opened), len(want))
		}
		for i, o := range in.Opened {
			if o.Slot != want[i] || len(o.Value) != 1 {
				return engine.Illegal("bad opening of %s", o.Slot)
			}
			g.opened[o.Slot] = int(o.Value[0])
		}
	case engine.NeedShuffle:
	case engine.NeedDeal:
		if len(in.Cards) != 1 || in.Seat != 1 {
			return engine.Illegal("bad deal")
		}
		g.dealt = in.Cards
	}
	return nil
}

// Answer opens the leaf the seat picked.
func (g *toy) Answer(seat engine.Seat, n engine.Need, _ engine.Secrets) ([]byte, error) {
	return engine.EncodeMove(toyMove{Leaf: g.picks[seat]})
}

func (g *toy) Hash() engine.Digest {
	h := engine.NewHasher("toy").Int(g.step).Digest(g.roots[0]).Digest(g.roots[1]).Int(int(g.first)).Ints(g.picks[:]...).Ints(g.dealt...)
	keys := make([]engine.Slot, 0, len(g.opened))
	for s := range g.opened {
		keys = append(keys, s)
	}
	slices.SortFunc(keys, func(a, b engine.Slot) int { return 3*int(a.Owner) + a.Index - 3*int(b.Owner) - b.Index })
	for _, s := range keys {
		h.String(s.String()).Int(g.opened[s])
	}
	return h.Sum()
}

func (g *toy) Outcome() engine.Outcome {
	if g.step < 9 {
		return engine.Outcome{}
	}
	var sum [2]int
	for s, v := range g.opened {
		sum[s.Owner] += v
	}
	switch {
	case sum[0] > sum[1]:
		return engine.Outcome{Done: true, Winners: []engine.Seat{0}}
	case sum[1] > sum[0]:
		return engine.Outcome{Done: true, Winners: []engine.Seat{1}}
	}
	return engine.Outcome{Done: true, Draw: true}
}

func (g *toy) clone() *toy {
	c := *g
	c.opened = make(map[engine.Slot]int, len(g.opened))
	for k, v := range g.opened {
		c.opened[k] = v
	}
	c.dealt = slices.Clone(g.dealt)
	return &c
}

func (g *toy) Clone() engine.Game { return g.clone() }

// toyAgent commits values, picks pick and plays leaf.
type toyAgent struct {
	values []byte
	pick   byte
	leaf   int
	// seen records the secrets the agent was shown for each need kind.
	seen map[engine.NeedKind]engine.Secrets
}

func (a *toyAgent) Decide(_ context.Context, g engine.Game, _ engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if a.seen != nil {
		a.seen[n.Kind] = sec
	}
	switch n.Kind {
	case engine.NeedCommit:
		var leaves [][]byte
		for _, v := range a.values {
			leaves = append(leaves, []byte{v})
		}
		return engine.Decision{Leaves: leaves}, nil
	case engine.NeedChoice:
		return engine.Decision{Choice: []byte{a.pick}}, nil
	case engine.NeedMove:
		b, err := engine.EncodeMove(toyMove{Leaf: a.leaf})
		return engine.Decision{Move: b}, err
	}
	return engine.Decision{}, fmt.Errorf("toy agent: nothing for %s", n.Kind)
}

// toyDeck answers the shuffle and deal of the toy's deck.
func toyDeck(h *Harness[*toy]) {
	h.Answers = map[engine.NeedKind]func(engine.Need) (engine.Input, error){
		engine.NeedShuffle: func(n engine.Need) (engine.Input, error) {
			return engine.Input{Kind: n.Kind, Seat: engine.NoSeat}, nil
		},
		engine.NeedDeal: func(n engine.Need) (engine.Input, error) {
			h.Secrets(n.Seat)[engine.Slot{Owner: engine.NoSeat, Name: n.Name, Index: 0}] = []byte{4}
			return engine.Input{Kind: n.Kind, Seat: n.Seat, Cards: []int{0}}, nil
		},
	}
}
