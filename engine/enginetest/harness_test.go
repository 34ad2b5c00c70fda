package enginetest

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func toyHarness(seed uint64) (*Harness[*toy], *toyAgent, *toyAgent) {
	a0 := &toyAgent{values: []byte{5, 1, 7}, pick: 2, leaf: 0, seen: map[engine.NeedKind]engine.Secrets{}}
	a1 := &toyAgent{values: []byte{2, 9, 3}, pick: 1, leaf: 2, seen: map[engine.NeedKind]engine.Secrets{}}
	h := New(newToy(), []engine.Agent{a0, a1}, seed)
	toyDeck(h)
	return h, a0, a1
}

func TestPlayWholeMatch(t *testing.T) {
	h, a0, _ := toyHarness(1)
	h.Script = []int{1} // seat 1 moves first
	h.Shadow = newToy()
	h.RequireChange = true
	var seen []engine.NeedKind
	h.AfterApply(func(n engine.Need, in engine.Input, ev []engine.Event) error {
		if n.Kind != in.Kind || len(ev) != 1 {
			t.Errorf("after %s: input %s, %d events", n.Kind, in.Kind, len(ev))
		}
		seen = append(seen, n.Kind)
		return nil
	})
	out, err := h.Play(100)
	if err != nil {
		t.Fatal(err)
	}
	// Seat 1 plays leaf 2 (3), seat 0 answers its pick, leaf 2 (7), then
	// opens leaf 2 again: 7 against 3.
	if !out.Done || len(out.Winners) != 1 || out.Winners[0] != 0 {
		t.Fatalf("outcome %+v", out)
	}
	want := []engine.NeedKind{engine.NeedCommit, engine.NeedCommit, engine.NeedRandom, engine.NeedChoice,
		engine.NeedMove, engine.NeedMove, engine.NeedOpen, engine.NeedShuffle, engine.NeedDeal}
	if !slices.Equal(seen, want) {
		t.Fatalf("applied %v, want %v", seen, want)
	}
	if h.Steps() != len(want) || len(h.Inputs()) != len(want) {
		t.Fatalf("%d steps, %d inputs recorded", h.Steps(), len(h.Inputs()))
	}
	g := h.Game
	if g.first != 1 || g.picks != [2]int{2, 1} || g.opened[hand(1, 2)] != 3 || g.opened[hand(0, 2)] != 7 {
		t.Fatalf("state %+v", g)
	}
	if g.roots[0] != Root([][]byte{{5}, {1}, {7}}) || g.roots[0] == g.roots[1] {
		t.Fatal("commitment roots are not the stand-in roots of the leaves")
	}
	if v, ok := h.Secrets(0).Value(hand(0, 1)); !ok || v[0] != 1 {
		t.Fatalf("seat 0's secrets hold %v, %v", v, ok)
	}
	if _, ok := h.Secrets(0).Value(hand(1, 1)); ok {
		t.Fatal("seat 0 knows a leaf of seat 1")
	}
	if v, ok := h.Secrets(1).Value(engine.Slot{Owner: engine.NoSeat, Name: "deck"}); !ok || v[0] != 4 {
		t.Fatal("the dealt card is not among seat 1's secrets")
	}
	if a0.seen[engine.NeedChoice].(engine.Known)[hand(0, 0)][0] != 5 {
		t.Fatal("the agent was not shown its own secrets")
	}
	if h.Shadow.Hash() != g.Hash() {
		t.Fatal("the shadow engine is behind")
	}
}

func TestSameSeedSameMatch(t *testing.T) {
	var hashes [2]engine.Digest
	for i := range hashes {
		h, _, _ := toyHarness(42)
		if _, err := h.Play(100); err != nil {
			t.Fatal(err)
		}
		hashes[i] = h.Game.Hash()
	}
	if hashes[0] != hashes[1] {
		t.Fatal("two matches from the same seed differ")
	}
	firsts := map[engine.Seat]bool{}
	for seed := range uint64(20) {
		h, _, _ := toyHarness(seed)
		if err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedChoice }, 10); err != nil {
			t.Fatal(err)
		}
		firsts[h.Game.first] = true
	}
	if len(firsts) != 2 {
		t.Fatal("the joint roll never varies with the seed")
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name  string
		setup func(h *Harness[*toy], a0, a1 *toyAgent)
		want  string
	}{
		{"wrong number of leaves", func(h *Harness[*toy], a0, _ *toyAgent) { a0.values = a0.values[:2] }, "commits 2 leaves"},
		{"no agent", func(h *Harness[*toy], _, _ *toyAgent) { h.Agents[1] = nil }, "seat 1 has no agent"},
		{"too few agents", func(h *Harness[*toy], _, _ *toyAgent) { h.Agents = h.Agents[:1] }, "seat 1 has no agent"},
		{"agent fails", func(h *Harness[*toy], a0, _ *toyAgent) { a0.leaf = -1 }, "no secret for seat 0/hand[-1]"},
		{"no shuffle", func(h *Harness[*toy], _, _ *toyAgent) { h.Answers = nil }, "no answer for a shuffle need"},
		{"refused input", func(h *Harness[*toy], _, _ *toyAgent) { h.Script = []int{7} }, "bad roll [7]"},
		{"hook fails", func(h *Harness[*toy], _, _ *toyAgent) {
			h.AfterApply(func(n engine.Need, _ engine.Input, _ []engine.Event) error {
				if n.Kind == engine.NeedOpen {
					return errors.New("hook says no")
				}
				return nil
			})
		}, "hook says no"},
		{"shadow refuses", func(h *Harness[*toy], _, _ *toyAgent) { h.Shadow = &toy{step: 9} }, "shadow engine refused"},
		{"shadow differs", func(h *Harness[*toy], _, _ *toyAgent) {
			s := newToy()
			s.first = 1
			h.Shadow = s
		}, "shadow engine's hash differs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, a0, a1 := toyHarness(3)
			c.setup(h, a0, a1)
			_, err := h.Play(100)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
			if !strings.Contains(err.Error(), "step ") {
				t.Fatalf("error %q does not name the step", err)
			}
		})
	}
}

// frozen is a toy whose hash never changes.
type frozen struct{ *toy }

func (frozen) Hash() engine.Digest { return engine.Digest{} }

func TestRequireChange(t *testing.T) {
	h0, _, _ := toyHarness(4)
	h := New(frozen{h0.Game}, h0.Agents, 4)
	if _, err := h.Step(); err != nil {
		t.Fatalf("without RequireChange: %v", err)
	}
	h.RequireChange = true
	if _, err := h.Step(); err == nil || !strings.Contains(err.Error(), "a commit input was accepted but changed nothing") {
		t.Fatalf("got %v", err)
	}
}

// TestAutoNeedsAnAnswerer plays the toy through a wrapper that hides its
// Answer method.
func TestAutoNeedsAnAnswerer(t *testing.T) {
	h0, _, _ := toyHarness(5)
	h := New(engine.Game(struct{ engine.Game }{h0.Game}), h0.Agents, 5)
	err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedOpen }, 100)
	if err == nil || !strings.Contains(err.Error(), "no engine.Answerer") {
		t.Fatalf("got %v", err)
	}
}

func TestRunUntilAndLimits(t *testing.T) {
	h, _, _ := toyHarness(6)
	if err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedMove }, 100); err != nil {
		t.Fatal(err)
	}
	if h.Steps() != 4 || h.Game.Next().Kind != engine.NeedMove {
		t.Fatalf("stopped after %d steps at %s", h.Steps(), h.Game.Next().Kind)
	}
	if err := h.RunUntil(func(n engine.Need) bool { return false }, 2); err == nil || errors.Is(err, ErrOver) || !strings.Contains(err.Error(), "after 2 steps") {
		t.Fatalf("limit: got %v", err)
	}
	if err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedChoice }, 100); !errors.Is(err, ErrOver) {
		t.Fatalf("past the end: got %v", err)
	}
	if err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedNone }, 100); err != nil {
		t.Fatalf("stopping at the end: %v", err)
	}
	if _, err := New(newToy(), nil, 1).Play(0); err == nil {
		t.Fatal("Play ignored its limit")
	}
}

func TestInputByHand(t *testing.T) {
	h, _, _ := toyHarness(7)
	var before []engine.NeedKind
	h.BeforeApply(func(n engine.Need, in engine.Input) { before = append(before, in.Kind) })
	if _, err := h.Apply(engine.Input{Kind: engine.NeedMove}); err == nil {
		t.Fatal("a move was taken for a commitment")
	}
	if h.Steps() != 0 || len(before) != 1 {
		t.Fatalf("a refused input: %d steps recorded, %d seen before", h.Steps(), len(before))
	}
	in, err := h.Commit(h.Game.Next(), [][]byte{{1}, {2}, {3}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Apply(in); err != nil {
		t.Fatal(err)
	}
	if h.Secrets(0)[hand(0, 2)][0] != 3 || len(h.Inputs()) != 1 || h.Inputs()[0].Commitment != in.Commitment {
		t.Fatal("a commitment by hand was not kept")
	}
	if _, err := h.Open(0, []engine.Slot{hand(0, 1), hand(1, 1)}); err == nil || !strings.Contains(err.Error(), "seat 0 has no secret for seat 1/hand[1]") {
		t.Fatalf("opening another seat's leaf: %v", err)
	}
	op, err := h.Open(0, []engine.Slot{hand(0, 1)})
	if err != nil || len(op) != 1 || op[0].Value[0] != 2 {
		t.Fatalf("open: %v %v", op, err)
	}
	if _, err := h.MoveInput(0, []byte("{")); err == nil {
		t.Fatal("an undecodable move got openings")
	}
}

func TestFork(t *testing.T) {
	h, _, _ := toyHarness(8)
	if err := h.RunUntil(func(n engine.Need) bool { return n.Kind == engine.NeedMove }, 100); err != nil {
		t.Fatal(err)
	}
	before := h.Game.Hash()
	f := h.Fork(h.Game.clone())
	toyDeck(f)
	if _, err := f.Play(100); err != nil {
		t.Fatal(err)
	}
	if !f.Game.Outcome().Done || h.Game.Hash() != before || h.Game.Outcome().Done {
		t.Fatal("playing a fork changed the original")
	}
	if f.Steps() != 5 {
		t.Fatalf("the fork recorded %d steps, want its own 5", f.Steps())
	}
	if v, ok := f.Secrets(1).Value(engine.Slot{Owner: engine.NoSeat, Name: "deck"}); !ok || v[0] != 4 {
		t.Fatal("the fork's deal is not in the shared secrets")
	}
}

func TestRoot(t *testing.T) {
	a := Root([][]byte{{1, 2}, {3}})
	for _, other := range [][][]byte{{{1}, {2, 3}}, {{1, 2, 3}}, {{1, 2}, {3}, {}}, {{3}, {1, 2}}} {
		if Root(other) == a {
			t.Fatalf("%v and [[1 2] [3]] share a root", other)
		}
	}
	if Root([][]byte{{1, 2}, {3}}) != a {
		t.Fatal("the same leaves gave another root")
	}
}
