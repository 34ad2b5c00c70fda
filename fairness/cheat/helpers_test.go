package cheat

import (
	"context"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

var testMatch = fairness.Digest{1, 2, 3}

func vector(t *testing.T, name string, values ...string) *fairness.Vector {
	t.Helper()
	leaves := make([][]byte, len(values))
	for i, v := range values {
		leaves[i] = []byte(v)
	}
	v, err := fairness.NewVector(testMatch, 1, name, leaves)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func open(t *testing.T, v *fairness.Vector, i int) fairness.Opening {
	t.Helper()
	o, err := v.Open(i)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestWrongSalt(t *testing.T) {
	grid := vector(t, "grid", "a", "b", "c")
	t.Run("a single opening", func(t *testing.T) {
		in := fairness.WireInput{T: fairness.InOpen, Open: []fairness.Opening{open(t, grid, 1)}}
		if !wrongSalt(nil, nil, fairness.Step{}, &in) {
			t.Fatal("did not fire")
		}
		if in.Open[0].Verify(testMatch, grid.Root(), grid.Size()) == nil {
			t.Fatal("the spoiled opening still verifies")
		}
		if open(t, grid, 1).Verify(testMatch, grid.Root(), grid.Size()) != nil {
			t.Fatal("the seat's own secret was changed")
		}
	})
	t.Run("a whole vector", func(t *testing.T) {
		in := fairness.WireInput{T: fairness.InOpen, Full: []fairness.FullVector{grid.Full()}}
		if !wrongSalt(nil, nil, fairness.Step{}, &in) {
			t.Fatal("did not fire")
		}
		if in.Full[0].Verify(testMatch, 1, grid.Root(), grid.Size()) == nil {
			t.Fatal("the spoiled vector still verifies")
		}
		if grid.Full().Verify(testMatch, 1, grid.Root(), grid.Size()) != nil {
			t.Fatal("the seat's own secret was changed")
		}
	})
	t.Run("nothing opened", func(t *testing.T) {
		in := fairness.WireInput{T: fairness.InMove, Move: []byte(`{}`)}
		if wrongSalt(nil, nil, fairness.Step{}, &in) {
			t.Fatal("fired with nothing to spoil")
		}
	})
}

func TestWrongSlot(t *testing.T) {
	sec := fairness.NewSecrets(1)
	grid := vector(t, "grid", "a", "b", "c")
	load3, load5, lone := vector(t, "load/3", "S"), vector(t, "load/5", "H"), vector(t, "choice", "x")
	for _, v := range []*fairness.Vector{grid, load3, load5, lone} {
		sec.Add(v)
	}
	for _, tc := range []struct {
		name    string
		opening fairness.Opening
		want    engine.Slot
		of      *fairness.Vector // the vector the substitute belongs to
	}{
		{"the next leaf of the vector", open(t, grid, 2), engine.Slot{Owner: 1, Name: "grid", Index: 0}, grid},
		{"a sibling one-leaf vector", open(t, load5, 0), engine.Slot{Owner: 1, Name: "load/3", Index: 0}, load3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := fairness.WireInput{T: fairness.InMove, Open: []fairness.Opening{tc.opening}}
			if !wrongSlot(nil, sec, fairness.Step{}, &in) {
				t.Fatal("did not fire")
			}
			o := in.Open[0]
			if o.Slot != tc.want {
				t.Fatalf("opened %v, want %v", o.Slot, tc.want)
			}
			if err := o.Verify(testMatch, tc.of.Root(), tc.of.Size()); err != nil {
				t.Fatalf("the substitute is not a genuine opening: %v", err)
			}
		})
	}
	t.Run("a one-leaf vector with no sibling", func(t *testing.T) {
		in := fairness.WireInput{T: fairness.InReveal, Open: []fairness.Opening{open(t, lone, 0)}}
		if wrongSlot(nil, sec, fairness.Step{}, &in) {
			t.Fatal("fired with no other slot to open")
		}
	})
	t.Run("a whole vector gets two leaves swapped", func(t *testing.T) {
		in := fairness.WireInput{T: fairness.InOpen, Full: []fairness.FullVector{grid.Full()}}
		if !wrongSlot(nil, sec, fairness.Step{}, &in) {
			t.Fatal("did not fire")
		}
		if got := string(in.Full[0].Values[0]) + string(in.Full[0].Values[1]); got != "ba" {
			t.Fatalf("values now %q, want leaves 0 and 1 swapped", got)
		}
		if in.Full[0].Verify(testMatch, 1, grid.Root(), grid.Size()) == nil {
			t.Fatal("the swapped vector still verifies")
		}
	})
	t.Run("a whole vector of equal values", func(t *testing.T) {
		same := vector(t, "same", "z", "z")
		in := fairness.WireInput{T: fairness.InOpen, Full: []fairness.FullVector{same.Full()}}
		if wrongSlot(nil, sec, fairness.Step{}, &in) {
			t.Fatal("fired where no swap changes anything")
		}
	})
}

func TestSiblingVector(t *testing.T) {
	sec := fairness.NewSecrets(1)
	sec.Add(vector(t, "load/1", "S"))
	sec.Add(vector(t, "load/9", "S"))
	for _, tc := range []struct {
		name, want string
	}{
		{"load/2", "load/1"},
		{"load/8", "load/9"},
		{"load/40", "load/9"},
		{"load/x", ""},
		{"grid", ""},
		{"load/200", ""}, // farther than maxSibling from both
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := siblingVector(sec, tc.name)
			got := ""
			if ok {
				got = v.Full().Name
			}
			if got != tc.want {
				t.Fatalf("sibling of %q = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
}

// fixedAgent commits fixed leaves and answers every move need the same.
type fixedAgent struct{ leaves [][]byte }

func (a fixedAgent) Decide(context.Context, engine.Game, engine.Seat, engine.Secrets, engine.Need) (engine.Decision, error) {
	return engine.Decision{Leaves: a.leaves, Move: []byte(`{}`)}, nil
}

func TestRigCommitChangesOneLeafOfOneCommitment(t *testing.T) {
	inner := fixedAgent{leaves: [][]byte{{1}, {2}, {1}}}
	rig := rigCommit("deck", []byte{1}, []byte{9})
	d, err := rig(context.Background(), inner, nil, 1, nil, engine.Need{Kind: engine.NeedCommit, Name: "deck"})
	if err != nil {
		t.Fatal(err)
	}
	if got := []byte{d.Leaves[0][0], d.Leaves[1][0], d.Leaves[2][0]}; string(got) != string([]byte{9, 2, 1}) {
		t.Fatalf("leaves %v, want only the first 1 changed to 9", got)
	}
	if inner.leaves[0][0] != 1 {
		t.Fatal("the honest agent's leaves were changed in place")
	}
	d, _ = rig(context.Background(), inner, nil, 1, nil, engine.Need{Kind: engine.NeedCommit, Name: "other"})
	if d.Leaves[0][0] != 1 {
		t.Fatal("another commitment was rigged")
	}
}
