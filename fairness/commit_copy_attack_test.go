package fairness

import (
	"errors"
	"testing"
)

// A set-up run lets every seat commit at once, so a seat may see another's
// root before sending its own. Copying it gains nothing: a leaf commits to
// its owner's seat (LeafCommitment), so the copier can open none of it,
// not with the other seat's openings relabelled as its own, nor with its
// full reveal: the copy is its own violation at its first opening.
func TestAttackCopiedCommitmentCannotBeOpened(t *testing.T) {
	match := Digest{7}
	values := [][]byte{{1}, {2}, {3}, {4}, {5}}
	v, err := NewVector(match, 0, "fleet", values)
	if err != nil {
		t.Fatal(err)
	}
	root := v.Root() // what seat 1 sends as its own commitment
	for i := range values {
		o, err := v.Open(i)
		if err != nil {
			t.Fatal(err)
		}
		if err := o.Verify(match, root, len(values)); err != nil {
			t.Fatalf("seat 0's own opening %d fails: %v", i, err)
		}
		o.Slot.Owner = 1 // seat 1 replays seat 0's opening as its own
		if err := o.Verify(match, root, len(values)); err == nil {
			t.Fatalf("seat 1 opens leaf %d of a root it copied from seat 0", i)
		}
	}
	full := v.Full()
	if err := full.Verify(match, 1, root, len(values)); !errors.Is(err, ErrCommitment) {
		t.Fatalf("seat 1's full reveal of a copied root: %v", err)
	}
}
