package fairness

import (
	"slices"
	"testing"
)

// recursivePath is the path as the tree's shape defines it, computed from
// the leaves alone (how MerklePath worked before the tree was kept).
func recursivePath(leaves []Digest, i int) []Digest {
	if len(leaves) <= 1 {
		return nil
	}
	k := splitPoint(len(leaves))
	if i < k {
		return append(recursivePath(leaves[:k], i), MerkleRoot(leaves[k:]))
	}
	return append(recursivePath(leaves[k:], i-k), MerkleRoot(leaves[:k]))
}

// A path read from the built tree is the path the shape defines, for
// every size and index, and the tree's root is MerkleRoot: the wire
// format of openings does not change.
func TestMerkleTreePathsAreTheDefinedPaths(t *testing.T) {
	for _, n := range append(slices.Collect(func(yield func(int) bool) {
		for n := 1; n <= 70; n++ {
			yield(n)
		}
	}), 127, 128, 129, 200) {
		leaves := make([]Digest, n)
		for i := range leaves {
			leaves[i] = newHasher("tree").int(n).int(i).sum()
		}
		tr := buildTree(leaves)
		if tr.root() != MerkleRoot(leaves) {
			t.Fatalf("n=%d: tree root differs from MerkleRoot", n)
		}
		for i := range n {
			if got, want := tr.path(i), recursivePath(leaves, i); !slices.Equal(got, want) {
				t.Fatalf("n=%d i=%d: path %v, want %v", n, i, got, want)
			}
		}
		if tr.path(-1) != nil || tr.path(n) != nil {
			t.Fatalf("n=%d: a path outside the tree", n)
		}
	}
}

// Opening a leaf of a committed vector reads its path from the tree built
// once, instead of hashing the whole vector again for every opening (a
// U-Build grid of 100 cells opened cell by cell hashed 100 trees). Counted
// in allocations, which every hash costs here: deterministic, not timed.
func TestVectorOpenDoesNotRehashTheTree(t *testing.T) {
	values := make([][]byte, 200)
	for i := range values {
		values[i] = []byte{byte(i)}
	}
	v, err := NewVector(Digest{1}, 0, "grid", values)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Open(0); err != nil { // builds the tree
		t.Fatal(err)
	}
	i := 0
	allocs := testing.AllocsPerRun(50, func() {
		o, err := v.Open(i % 200)
		if err != nil || o.Verify(Digest{1}, v.Root(), 200) != nil {
			t.Fatal("opening does not verify", err)
		}
		i++
	})
	// Verify hashes the leaf and one node per level (about 20 hashes);
	// rebuilding the siblings' subtrees would hash about 200 more.
	if allocs > 80 {
		t.Fatalf("an opening costs %.0f allocations: the tree is hashed again", allocs)
	}
}
