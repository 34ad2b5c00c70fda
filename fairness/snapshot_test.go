package fairness

import (
	"bytes"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// A snapshot is built once and cloned: it still follows every change of
// the secrets (a vector added or committed again under its name, a card
// dealt), and what a caller writes into its copy reaches no other.
func TestSnapshotFollowsTheSecrets(t *testing.T) {
	id := newHasher("m").sum()
	vec := func(name string, vals ...string) *Vector {
		var bs [][]byte
		for _, v := range vals {
			bs = append(bs, []byte(v))
		}
		v, err := NewVector(id, 0, name, bs)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	s := NewSecrets(0)
	s.Add(vec("a", "x", "y"))
	get := func(slot engine.Slot) []byte {
		v, _ := s.Snapshot().(engine.Known)[slot]
		return v
	}
	a1 := engine.Slot{Owner: 0, Name: "a", Index: 1}
	if !bytes.Equal(get(a1), []byte("y")) {
		t.Fatalf("a[1] = %q", get(a1))
	}
	mine := s.Snapshot().(engine.Known)
	mine[a1] = []byte("changed by a caller")
	if !bytes.Equal(get(a1), []byte("y")) {
		t.Fatal("a caller's write reached the next snapshot")
	}
	s.Add(vec("a", "x", "z"))
	if !bytes.Equal(get(a1), []byte("z")) {
		t.Fatalf("after a again, a[1] = %q", get(a1))
	}
	card := engine.Slot{Owner: engine.NoSeat, Name: "nav", Index: 3}
	s.dealt[card] = []byte{7}
	if !bytes.Equal(get(card), []byte{7}) {
		t.Fatalf("dealt card %v", get(card))
	}
}
