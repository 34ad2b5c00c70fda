package engine_test

import (
	"context"
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// closest is a whole game in a page, to show the engine contract: each
// seat commits a hidden number from 0 to 9, a joint roll draws a target,
// then each seat must open its number and the closer one wins.
//
// The engine holds no secret: it stores the commitment roots it is given
// and learns the numbers only when the referee hands it the openings,
// already checked against those roots. It asks for one thing at a time
// (Next) and takes exactly one input for it (Apply), refusing anything
// else without changing.
type closest struct {
	step    int // 0, 1 commits; 2 the roll; 3, 4 the openings; 5 over
	roots   [2]engine.Digest
	target  int
	numbers [2]int
}

func secret(seat engine.Seat) engine.Slot {
	return engine.Slot{Owner: seat, Name: "number", Index: 0}
}

func (g *closest) Next() engine.Need {
	switch g.step {
	case 0, 1:
		return engine.Need{Kind: engine.NeedCommit, Seat: engine.Seat(g.step), Name: "number", Size: 1}
	case 2:
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: []engine.Seat{0, 1}, Name: "target", Count: 1, Bound: 10}
	case 3, 4:
		s := engine.Seat(g.step - 3)
		return engine.Need{Kind: engine.NeedOpen, Seat: s, Open: []engine.Slot{secret(s)}}
	}
	return engine.Need{Kind: engine.NeedNone}
}

func (g *closest) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if err := engine.CheckKind(n, in); err != nil {
		return nil, err
	}
	switch n.Kind {
	case engine.NeedCommit:
		if in.Commitment == nil || in.Commitment.Size != 1 {
			return nil, engine.Illegal("commit exactly one number")
		}
		g.roots[n.Seat] = in.Commitment.Root
	case engine.NeedRandom:
		g.target = in.Random[0]
	case engine.NeedOpen:
		if len(in.Opened) != 1 || len(in.Opened[0].Value) != 1 || in.Opened[0].Value[0] > 9 {
			return nil, engine.Illegal("open one number from 0 to 9")
		}
		g.numbers[n.Seat] = int(in.Opened[0].Value[0])
	}
	g.step++
	return []engine.Event{{Seat: in.Seat, Kind: n.Kind.String(), Text: fmt.Sprintf("%s: %s", in.Seat, n.Kind)}}, nil
}

// MustOpen: no move of this game opens anything.
func (g *closest) MustOpen(engine.Seat, []byte) ([]engine.Slot, error) { return nil, nil }

func (g *closest) Hash() engine.Digest {
	return engine.NewHasher("closest").Int(g.step).Digest(g.roots[0]).Digest(g.roots[1]).Int(g.target).Ints(g.numbers[:]...).Sum()
}

func (g *closest) Outcome() engine.Outcome {
	if g.step < 5 {
		return engine.Outcome{}
	}
	d0, d1 := abs(g.numbers[0]-g.target), abs(g.numbers[1]-g.target)
	switch {
	case d0 < d1:
		return engine.Outcome{Done: true, Winners: []engine.Seat{0}, Reason: "closer to the target"}
	case d1 < d0:
		return engine.Outcome{Done: true, Winners: []engine.Seat{1}, Reason: "closer to the target"}
	}
	return engine.Outcome{Done: true, Draw: true, Reason: "as close as each other"}
}

func (g *closest) Clone() engine.Game { c := *g; return &c }

func abs(x int) int { return max(x, -x) }

// picker is an agent: it decides what only a player may decide (here, the
// number to commit), seeing the game and its own secrets.
type picker struct{ number byte }

func (p picker) Decide(_ context.Context, _ engine.Game, _ engine.Seat, _ engine.Secrets, n engine.Need) (engine.Decision, error) {
	return engine.Decision{Leaves: [][]byte{{p.number}}}, nil
}

// The referee's part (commitments, the joint roll, openings) is played
// here by enginetest's honest in-process harness; in a real match it is
// package fairness's Referee, with the cryptography.
func Example_engineContract() {
	h := enginetest.New(&closest{}, []engine.Agent{picker{3}, picker{8}}, 1)
	h.AfterApply(func(n engine.Need, in engine.Input, ev []engine.Event) error {
		fmt.Println(ev[0].Text)
		return nil
	})
	out, err := h.Play(10)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("target %d: %v won, %s\n", h.Game.target, out.Winners, out.Reason)
	// Output:
	// seat 0: commit
	// seat 1: commit
	// no seat: random
	// seat 0: open
	// seat 1: open
	// target 8: [seat 1] won, closer to the target
}
