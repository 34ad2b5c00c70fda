package sea

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// checkInvariants checks what must hold after every input.
func checkInvariants(g *Game) error {
	var count [NumCells]int
	b := g.board()
	mark := func(c Cell, what string) error {
		if !c.Valid() {
			return fmt.Errorf("%s off the board", what)
		}
		if b.shallow[c] {
			return fmt.Errorf("%s on a shallow at %s", what, c)
		}
		count[c]++
		if count[c] > 1 {
			return fmt.Errorf("two pieces on %s (%s)", c, what)
		}
		return nil
	}
	for s := range engine.Seat(2) {
		sd := &g.sides[s]
		for _, c := range g.carrierSpaces(s) {
			if err := mark(c, "carrier"); err != nil {
				return err
			}
		}
		for i, d := range sd.destroyers {
			if !d.placed || !d.alive {
				continue
			}
			if !Adjacent(d.bow, d.stern) {
				return fmt.Errorf("%s destroyer %d broken in two", s, i)
			}
			for _, c := range d.cells() {
				if err := mark(c, "destroyer"); err != nil {
					return err
				}
				if b.shipNear(c, Occupant{Kind: DestroyerPiece, Owner: s, Index: i}) {
					return fmt.Errorf("%s destroyer %d touches another ship at %s", s, i, c)
				}
			}
		}
		var known [MaxStrength + 1]int
		for i, f := range sd.fighters {
			switch f.state {
			case InFlight:
				if err := mark(f.cell, "fighter"); err != nil {
					return err
				}
			default:
				if f.cell != NoCell {
					return fmt.Errorf("%s fighter %d off the board at %s", s, i, f.cell)
				}
				if f.load >= 0 {
					return fmt.Errorf("%s fighter %d %s with a missile", s, i, f.state)
				}
			}
			if f.load >= 0 {
				l := g.loads[f.load]
				if l.owner != s || l.fighter != i || (l.opened && !g.decided) {
					return fmt.Errorf("%s fighter %d has a bad missile record %+v", s, i, l)
				}
			}
			if f.strength != 0 {
				known[f.strength]++
			}
		}
		for v := MinStrength; v <= MaxStrength; v++ {
			if known[v] > strengthCount(v) {
				return fmt.Errorf("%s has %d known fighters of strength %d", s, known[v], v)
			}
		}
	}
	for _, h := range g.harpoons {
		if err := mark(h.cell, "Harpoon"); err != nil {
			return err
		}
	}
	if c := g.clone(); c.Hash() != g.Hash() {
		return fmt.Errorf("clone hash differs")
	}
	return nil
}

// probeIllegal feeds inputs that must be refused to copies of the game and
// checks that each is refused without changing the state. honest is the
// input about to be applied.
func probeIllegal(t testing.TB, g *Game, n engine.Need, honest engine.Input, r *rand.Rand) {
	t.Helper()
	before := g.Hash()
	try := func(what string, in engine.Input, mustFail bool) {
		c := g.clone()
		_, err := c.Apply(in)
		if err == nil {
			if mustFail {
				t.Fatalf("%s accepted at need %s %q", what, n.Kind, n.Name)
			}
			return
		}
		if c.Hash() != before {
			t.Fatalf("refused %s changed the state (%v)", what, err)
		}
		if g.Hash() != before {
			t.Fatalf("probing a clone changed the game")
		}
	}
	wrong := honest
	wrong.Kind = n.Kind%7 + 1
	try("a wrong kind", wrong, true)
	switch n.Kind {
	case engine.NeedMove:
		bad := honest
		bad.Seat = 1 - n.Seat
		try("a move by the wrong seat", bad, true)
		bad = honest
		bad.Move = []byte(`{"kind":"nonsense"}`)
		try("a nonsense move", bad, true)
		bad = honest
		bad.Move = append([]byte(nil), honest.Move...)
		if len(bad.Move) > 0 {
			bad.Move[r.IntN(len(bad.Move))] ^= byte(1 + r.IntN(255))
		}
		try("a mutated move", bad, false)
		if len(honest.Opened) > 0 {
			bad = honest
			bad.Opened = nil
			try("a move without its openings", bad, true)
		}
	case engine.NeedRandom:
		bad := honest
		bad.Random = append([]int(nil), honest.Random...)
		bad.Random[0] = n.Bound
		try("an out-of-range roll", bad, true)
		bad.Random = append(honest.Random, 0)
		try("an extra die", bad, true)
	case engine.NeedOpen:
		bad := honest
		bad.Opened = append([]engine.Opened(nil), honest.Opened...)
		bad.Opened[0].Slot.Index += 100
		try("an opening of the wrong slot", bad, true)
	case engine.NeedCommit:
		bad := honest
		cm := *honest.Commitment
		cm.Name += "x"
		bad.Commitment = &cm
		try("a misnamed commitment", bad, true)
	}
}

func TestPropertyRandomGames(t *testing.T) {
	games := 10
	switch {
	case *long:
		games = 100
	case testing.Short():
		games = 3
	}
	for i := range games {
		seed := uint64(7000 + i)
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			t.Parallel()
			a0 := NewRandomBot(rand.New(rand.NewPCG(seed, 1)))
			a1 := NewRandomBot(rand.New(rand.NewPCG(seed, 2)))
			if i%3 == 2 {
				a0 = NewStrongBot(rand.New(rand.NewPCG(seed, 3)))
			}
			h := newHarness(t, seed, a0, a1)
			shadow, _ := New(engine.Setup{Seats: 2})
			h.Shadow = shadow
			probe := rand.New(rand.NewPCG(seed, 4))
			h.BeforeApply(func(n engine.Need, in engine.Input) {
				if probe.IntN(4) == 0 {
					probeIllegal(t, h.Game, n, in, probe)
				}
			})
			for h.Game.Next().Kind != engine.NeedNone {
				if _, err := h.Step(); err != nil {
					t.Fatal(err)
				}
				if err := checkInvariants(h.Game); err != nil {
					t.Fatalf("after input %d: %v", h.Steps(), err)
				}
			}
			o := h.Game.Outcome()
			if !o.Done || (o.Draw == (len(o.Winners) > 0)) {
				t.Fatalf("outcome %+v", o)
			}
			for s := range engine.Seat(2) {
				if err := checkSquadron(h.Game.sides[s].fighters); err != nil {
					t.Errorf("%s after the reveal: %v", s, err)
				}
			}
		})
	}
}

// Two engines fed the same inputs agree on every hash, and replaying the
// recorded inputs into a third gives the same final state.
func TestReplayAgrees(t *testing.T) {
	seed := uint64(99)
	h := newHarness(t, seed, NewStrongBot(rand.New(rand.NewPCG(seed, 1))), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
	var hashes []engine.Digest
	for h.Game.Next().Kind != engine.NeedNone {
		if _, err := h.Step(); err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, h.Game.Hash())
	}
	g, _ := New(engine.Setup{Seats: 2})
	for i, in := range h.Inputs() {
		if _, err := g.Apply(in); err != nil {
			t.Fatalf("replay input %d: %v", i, err)
		}
		if g.Hash() != hashes[i] {
			t.Fatalf("replay hash differs after input %d", i)
		}
	}
	if fmt.Sprint(g.Outcome()) != fmt.Sprint(h.Game.Outcome()) {
		t.Errorf("replay outcome %+v, played %+v", g.Outcome(), h.Game.Outcome())
	}
}

// A clone is independent of its original.
func TestCloneIndependent(t *testing.T) {
	seed := uint64(5)
	h := newHarness(t, seed, NewRandomBot(rand.New(rand.NewPCG(seed, 1))), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
	if err := h.RunUntil(func(engine.Need) bool { return h.Game.Turn() >= 6 }, maxSetup); err != nil {
		t.Fatal(err)
	}
	before := h.Game.Hash()
	c := h.Game.Clone().(*Game)
	for range 30 {
		n := c.Next()
		if n.Kind == engine.NeedNone {
			break
		}
		in, err := h.Fork(c).Input()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Apply(in); err != nil {
			t.Fatal(err)
		}
	}
	if h.Game.Hash() != before {
		t.Fatal("playing on a clone changed the original")
	}
}
