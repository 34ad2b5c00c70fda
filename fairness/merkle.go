package fairness

import (
	"fmt"
	"math/bits"
	"slices"
)

// MaxLeaves bounds the size of a committed vector.
const MaxLeaves = 1 << 16

// The tree has the shape of RFC 6962 (Certificate Transparency): a tree of n
// leaves splits at the largest power of two below n. Leaf and inner nodes
// hash under different prefixes so neither can pose as the other.
func leafNode(c Digest) Digest { return newHasher("salvo/merkle/leaf/1").digest(c).sum() }

func innerNode(l, r Digest) Digest {
	return newHasher("salvo/merkle/node/1").digest(l).digest(r).sum()
}

// splitPoint returns the largest power of two strictly below n (n >= 2).
func splitPoint(n int) int {
	return 1 << (bits.Len(uint(n-1)) - 1)
}

// MerkleRoot returns the root over the given leaf commitments.
func MerkleRoot(leaves []Digest) Digest {
	switch len(leaves) {
	case 0:
		return newHasher("salvo/merkle/empty/1").sum()
	case 1:
		return leafNode(leaves[0])
	}
	k := splitPoint(len(leaves))
	return innerNode(MerkleRoot(leaves[:k]), MerkleRoot(leaves[k:]))
}

// MerklePath returns the audit path of leaf i: the sibling hashes from the
// leaf up to the root. An owner that opens several leaves of one vector
// builds its tree once instead (see merkleTree).
func MerklePath(leaves []Digest, i int) []Digest {
	if len(leaves) == 0 {
		return nil
	}
	return buildTree(leaves).path(i)
}

// merkleTree holds every node of a vector's tree, built once with 2n-1
// hashes, so that each path is read from it: computing a path from the
// leaves alone recomputes every subtree beside it, the whole tree's worth
// of hashes per opening, which was a tenth of a match's CPU at the final
// reveal (issue 15).
//
// The nodes are in pre-order: a subtree of n leaves is its root, then its
// left subtree (of splitPoint(n) leaves), then its right one; a subtree of
// n leaves takes 2n-1 places.
type merkleTree struct {
	n     int
	nodes []Digest
}

// buildTree builds the tree over leaves (at least one).
func buildTree(leaves []Digest) *merkleTree {
	t := &merkleTree{n: len(leaves), nodes: make([]Digest, 0, 2*len(leaves)-1)}
	t.build(leaves)
	return t
}

func (t *merkleTree) build(leaves []Digest) Digest {
	at := len(t.nodes)
	t.nodes = append(t.nodes, Digest{})
	if len(leaves) == 1 {
		t.nodes[at] = leafNode(leaves[0])
		return t.nodes[at]
	}
	k := splitPoint(len(leaves))
	left := t.build(leaves[:k])
	t.nodes[at] = innerNode(left, t.build(leaves[k:]))
	return t.nodes[at]
}

// root returns the tree's root, MerkleRoot of its leaves.
func (t *merkleTree) root() Digest { return t.nodes[0] }

// path returns the audit path of leaf i (nil outside the tree), as
// MerklePath defines it: siblings from the bottom up.
func (t *merkleTree) path(i int) []Digest {
	if i < 0 || i >= t.n {
		return nil
	}
	var top []Digest // siblings from the top down
	at, n := 0, t.n
	for n > 1 {
		k := splitPoint(n)
		left, right := at+1, at+2*k // the right subtree follows the left one's 2k-1 nodes
		if i < k {
			top = append(top, t.nodes[right])
			at, n = left, k
		} else {
			top = append(top, t.nodes[left])
			at, n, i = right, n-k, i-k
		}
	}
	slices.Reverse(top)
	return top
}

// VerifyPath checks that leaf commitment c sits at index i of a vector of n
// leaves with the given root.
func VerifyPath(root Digest, n, i int, c Digest, path []Digest) error {
	if n < 1 || n > MaxLeaves {
		return fmt.Errorf("%w: vector size %d out of range", ErrCommitment, n)
	}
	if i < 0 || i >= n {
		return fmt.Errorf("%w: index %d outside a vector of %d", ErrCommitment, i, n)
	}
	got, rest, err := climb(n, i, leafNode(c), path)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return fmt.Errorf("%w: path has %d extra hashes", ErrCommitment, len(rest))
	}
	if got != root {
		return fmt.Errorf("%w: path leads to root %s, committed root is %s", ErrCommitment, got.Short(), root.Short())
	}
	return nil
}

// climb recomputes the root of a subtree of n leaves holding node at index i,
// consuming path from its end (the path lists siblings from the bottom up, so
// the topmost sibling is last).
func climb(n, i int, node Digest, path []Digest) (Digest, []Digest, error) {
	if n == 1 {
		return node, path, nil
	}
	if len(path) == 0 {
		return Digest{}, nil, fmt.Errorf("%w: path too short", ErrCommitment)
	}
	sib := path[len(path)-1]
	below := path[:len(path)-1]
	k := splitPoint(n)
	if i < k {
		left, rest, err := climb(k, i, node, below)
		return innerNode(left, sib), rest, err
	}
	right, rest, err := climb(n-k, i-k, node, below)
	return innerNode(sib, right), rest, err
}
