package fairness

import (
	"bytes"
	"fmt"
	"math/bits"
	"slices"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
)

// MaxLeaves bounds the size of a committed vector.
const MaxLeaves = 1 << 16

// The tree has the shape of RFC 6962 (Certificate Transparency): a tree of n
// leaves splits at the largest power of two below n. Leaf and inner nodes
// hash under different prefixes so neither can pose as the other.
//
// A node's bytes are the hasher's (its domain as str writes it, then the
// digests) put together on the stack and hashed at once: a tree's nodes
// are most of the hashes an audit makes at a final reveal, and taking a
// pooled hasher for each cost a third of the hash (issue 15).
// TestNodeHashesAreTheHashers checks them byte for byte.
func leafNode(c Digest) Digest {
	var b [len(leafDomain) + 1 + len(c)]byte
	b[0] = byte(len(leafDomain))
	copy(b[1:], leafDomain)
	copy(b[1+len(leafDomain):], c[:])
	return blake2b.Sum256(b[:])
}

func innerNode(l, r Digest) Digest {
	var b [len(nodeDomain) + 1 + len(l) + len(r)]byte
	b[0] = byte(len(nodeDomain))
	copy(b[1:], nodeDomain)
	copy(b[1+len(nodeDomain):], l[:])
	copy(b[1+len(nodeDomain)+len(l):], r[:])
	return blake2b.Sum256(b[:])
}

// The domains of the tree's nodes, each shorter than 128 bytes so that its
// length is the one byte of its varint.
const (
	leafDomain = "salvo/merkle/leaf/1"
	nodeDomain = "salvo/merkle/node/1"
)

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

// authNodes holds the nodes of one committed vector's tree that openings
// have already proved: the root, and every node an accepted path computed
// or named as a sibling. A match checks each opening of a vector against
// them, so that the openings of a board, which share the upper nodes of
// their paths, hash only up to the first node already proved instead of
// every path up to the root: paths were a fifth of a U-Build audit's CPU
// (issue 15).
//
// It proves exactly what VerifyPath proves. Every node it holds is on a
// path that climbed to the root, so a node's parent is the hash of the
// node and its sibling, all held: a path whose climb meets a held node
// with that node's value, and whose siblings above it (and any held below)
// are the held ones, climbs to the root as VerifyPath would recompute it.
// Any other path, and any path with a different shape, goes to VerifyPath
// itself, which gives the verdict and its words.
//
// The nodes are kept by their place in the tree's pre-order (merkleTree),
// in an array of the whole tree: a map's growth was a third of the
// check. A vector of more than maxAuthLeaves leaves keeps none (nil), and
// each of its openings is checked on its own, so that a commitment costs
// no more memory than its vector's share of the match.
type authNodes struct {
	root  Digest
	n     int
	nodes []Digest
	held  []bool
	// leaves holds the commitment of each leaf an accepted opening
	// opened (opened marks them), salts and values what it opened: a full
	// opening that repeats a leaf's salt and value need not hash the leaf
	// or its node again.
	leaves []Digest
	opened []bool
	salts  []Salt
	values [][]byte
}

// maxAuthLeaves bounds the vectors whose proved nodes a match keeps: 4,096
// leaves take 256 KiB; every game's vectors are far smaller.
const maxAuthLeaves = 1 << 12

// newAuthNodes returns the proved nodes of a vector of n leaves under
// root: only the root so far. It returns nil for a vector too large, and
// for one of a single leaf (a hidden choice's), whose one opening has no
// path to share: verify treats their openings one by one.
func newAuthNodes(root Digest, n int) *authNodes {
	if n < 2 || n > maxAuthLeaves {
		return nil
	}
	a := &authNodes{root: root, n: n, nodes: make([]Digest, 2*n-1), held: make([]bool, 2*n-1), leaves: make([]Digest, n), opened: make([]bool, n), salts: make([]Salt, n), values: make([][]byte, n)}
	a.nodes[0], a.held[0] = root, true
	return a
}

// node returns the proved node at place p, if it is held.
func (a *authNodes) node(p int) (Digest, bool) { return a.nodes[p], a.held[p] }

// hold keeps d as the proved node at place p.
func (a *authNodes) hold(p int, d Digest) { a.nodes[p], a.held[p] = d, true }

// maxDepth bounds a path in a vector of at most MaxLeaves leaves.
const maxDepth = 17

// verify checks that leaf commitment c sits at index i of the vector of n
// leaves with the given root, as VerifyPath does, with the same errors.
func (a *authNodes) verify(root Digest, n, i int, c Digest, path []Digest) error {
	if a == nil || root != a.root || n != a.n || !a.holds(i, c, path) {
		return VerifyPath(root, n, i, c, path)
	}
	a.leaves[i], a.opened[i] = c, true
	return nil
}

// keep records what the accepted opening of leaf i opened: its salt and
// (a copy of) its value, whose commitment verify kept.
func (a *authNodes) keep(i int, salt Salt, value []byte) {
	a.salts[i], a.values[i] = salt, append(a.values[i][:0], value...)
}

// leaf returns the commitment of leaf i of a full opening: the one an
// accepted opening of the same salt and value proved, without hashing.
func (a *authNodes) leaf(i int, slot engine.Slot, match Digest, salt Salt, value []byte) Digest {
	if a != nil && a.opened[i] && a.salts[i] == salt && bytes.Equal(a.values[i], value) {
		return a.leaves[i]
	}
	return LeafCommitment(match, slot, salt, value)
}

// holds reports whether the path of leaf i climbs to a held node with its
// value, along held siblings where they are held; it then holds the nodes
// the path proved.
func (a *authNodes) holds(i int, c Digest, path []Digest) bool {
	if i < 0 || i >= a.n {
		return false
	}
	// at[l] is the place of the node at depth l on the leaf's way to the
	// root (the root at depth 0), sib[l] that of its sibling.
	var at, sib [maxDepth + 1]int
	d, size := 0, a.n
	for size > 1 {
		k := splitPoint(size)
		left, right := at[d]+1, at[d]+2*k
		if i < k {
			at[d+1], sib[d+1], size = left, right, k
		} else {
			at[d+1], sib[d+1], size, i = right, left, size-k, i-k
		}
		d++
	}
	if len(path) != d {
		return false
	}
	// sibling l is path[d-l]: the path lists siblings from the bottom up.
	var node [maxDepth + 1]Digest
	node[d] = leafNode(c)
	l := d
	for {
		if held, ok := a.node(at[l]); ok {
			if held != node[l] {
				return false
			}
			break
		}
		s := path[d-l]
		if held, ok := a.node(sib[l]); ok && held != s {
			return false
		}
		if at[l] < sib[l] {
			node[l-1] = innerNode(node[l], s)
		} else {
			node[l-1] = innerNode(s, node[l])
		}
		l--
	}
	for up := l; up > 0; up-- {
		if held, ok := a.node(sib[up]); !ok || held != path[d-up] {
			return false
		}
	}
	for down := l + 1; down <= d; down++ {
		a.hold(at[down], node[down])
		a.hold(sib[down], path[d-down])
	}
	return true
}

// rootOf returns MerkleRoot of the leaf commitments cs, of a vector the
// size of a's: a leaf an accepted path opened with the same commitment,
// and a node both of whose children are proved, take their proved node
// instead of a hash. A proved node's parent, when proved, is the hash of
// its two proved children (holds proves and keeps them together), so the
// result is the root MerkleRoot computes.
func (a *authNodes) rootOf(cs []Digest) Digest {
	d, _ := a.subtree(0, 0, cs)
	return d
}

// subtree returns the root of the subtree at place p whose leaves, from
// index lo, are cs, and whether it is a proved node.
func (a *authNodes) subtree(p, lo int, cs []Digest) (Digest, bool) {
	if len(cs) == 1 {
		if a.opened[lo] && a.leaves[lo] == cs[0] {
			return a.nodes[p], true
		}
		return leafNode(cs[0]), false
	}
	k := splitPoint(len(cs))
	l, lok := a.subtree(p+1, lo, cs[:k])
	r, rok := a.subtree(p+2*k, lo+k, cs[k:])
	if d, ok := a.node(p); ok && lok && rok {
		return d, true
	}
	return innerNode(l, r), false
}
