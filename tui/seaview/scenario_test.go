package seaview

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
)

// find plays matches of the strong bots (seeds 1, 2, …) until seat 0 owes
// a decision for which ok holds, and returns the driver there. The dice
// and the bots are seeded, so the same seed always reaches the same
// position.
func find(t *testing.T, ok func(d *driver, n engine.Need) bool) *driver {
	t.Helper()
	return findWith(t, 1, nil, ok)
}

// findWith is find with seat 0 played by the agent mk makes (nil: the
// strong bot), trying the seed hint first (a seed known to get there
// quickly, to keep the tests fast; any seed that gets there will do).
func findWith(t *testing.T, hint uint64, mk func(seed uint64) engine.Agent, ok func(d *driver, n engine.Need) bool) *driver {
	t.Helper()
	for i := uint64(0); i <= 60; i++ {
		seed := i
		if i == 0 {
			seed = hint
		}
		d := newDriver(t, seed)
		if mk != nil {
			d.agents[0] = mk(seed)
		}
		if d.until(func(n engine.Need) bool { return n.Seat == 0 && ok(d, n) }, 20000) {
			return d
		}
	}
	t.Fatal("no match reached the position")
	return nil
}

// named reports whether n is a move need of that name.
func named(name string) func(*driver, engine.Need) bool {
	return func(_ *driver, n engine.Need) bool { return n.Kind == engine.NeedMove && n.Name == name }
}

// moveOf decodes the move a request was answered with.
func moveOf(t *testing.T, req *board.Request) sea.Move {
	t.Helper()
	dec, ok := req.Answer()
	if !ok {
		t.Fatalf("no answer to %s", req.Need.Name)
	}
	m, err := sea.DecodeMove(dec.Move)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// unanswered fails if req was answered, and checks the prompt says why.
func unanswered(t *testing.T, v *View, req *board.Request, why string) {
	t.Helper()
	if _, ok := req.Answer(); ok {
		t.Fatalf("answered, but %q was expected", why)
	}
	if p := v.Prompt(); !contains(p, why) {
		t.Fatalf("prompt %q lacks %q", p, why)
	}
}

// isMove reports whether n is a move need of that name (rolls share some
// names with moves).
func isMove(n engine.Need, name string) bool { return n.Kind == engine.NeedMove && n.Name == name }

// eager plays seat 0 like the strong bot, but loads a Sidewinder on every
// other fighter and launches every Harpoon as soon as it can, parking it
// in the water when no ship is in reach: positions with several Harpoons
// to move and with Sidewinders in dogfights come up quickly.
type eager struct {
	inner engine.Agent
	loads int
}

func newEager(seed uint64) engine.Agent {
	return &eager{inner: sea.NewStrongBot(rand.New(rand.NewPCG(seed, 9)))}
}

func (e *eager) Decide(ctx context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	g := eg.(*sea.Game)
	switch {
	case n.Kind == engine.NeedCommit && n.Name != sea.StrengthsName:
		e.loads++
		m := sea.Harpoon
		if e.loads%2 == 0 {
			m = sea.Sidewinder
		}
		return engine.Decision{Leaves: [][]byte{sea.EncodeMissile(m)}}, nil
	case isMove(n, sea.NeedLaunch):
		for _, f := range g.Fighters(seat, sec) {
			if f.State == sea.InFlight && f.Missile == sea.Harpoon {
				return engine.Decision{Move: sea.LaunchMove(f.Index).Encode()}, nil
			}
		}
	case isMove(n, sea.NeedLaunchPath):
		ds := g.HarpoonDestinations()
		for _, d := range ds {
			if d.Hit {
				return engine.Decision{Move: sea.PathMove(d.Path).Encode()}, nil
			}
		}
		if len(ds) > 0 {
			return engine.Decision{Move: sea.PathMove(ds[0].Path).Encode()}, nil
		}
	}
	return e.inner.Decide(ctx, eg, seat, sec, n)
}
