package fairness

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// oldVerifyPath is the verdict of an opening's path checked on its own,
// as every opening was checked before the match kept its authenticated
// nodes: the reference the cached check must agree with, error for error.
func oldVerifyPath(root Digest, n, i int, c Digest, path []Digest) error {
	return VerifyPath(root, n, i, c, path)
}

func testDigest(s string) Digest { return newHasher("test").str(s).sum() }

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// TestAuthNodesAgreeWithVerifyPath opens random leaves of random vectors,
// honest and forged (a forged leaf, a wrong sibling at any height, a path
// to another root, a short or long path, a wrong or outside index, a
// sibling that contradicts one already authenticated), in random order and
// repeated, and checks that the match's cached check gives exactly the
// verdict and error of checking each path on its own.
func TestAuthNodesAgreeWithVerifyPath(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 4))
	for round := 0; round < 200; round++ {
		n := 1 + r.IntN(140)
		if round%50 == 0 {
			n = 1 + r.IntN(700)
		}
		leaves := make([]Digest, n)
		for i := range leaves {
			leaves[i] = testDigest(fmt.Sprint(round, i))
		}
		tree := buildTree(leaves)
		root := tree.root()
		other := testDigest(fmt.Sprint("other", round))
		auth := newAuthNodes(root, n)
		for step := 0; step < 4*n+10; step++ {
			i := r.IntN(n)
			c := leaves[i]
			path := tree.path(i)
			size := n
			switch r.IntN(12) {
			case 0: // a forged leaf
				c = testDigest(fmt.Sprint("forged", step))
			case 1: // a wrong sibling
				if len(path) > 0 {
					path[r.IntN(len(path))][r.IntN(32)] ^= 1 << r.IntN(8)
				}
			case 2: // the path of another leaf
				if n > 1 {
					i = (i + 1 + r.IntN(n-1)) % n
				}
			case 3: // a short path
				if len(path) > 0 {
					path = path[:len(path)-1-r.IntN(len(path))]
				}
			case 4: // a long path
				path = append(path, other)
			case 5: // an index outside the vector
				i = []int{-1, n, n + 7}[r.IntN(3)]
			case 6: // a path to another root: a whole different tree
				alt := append([]Digest(nil), leaves...)
				alt[r.IntN(n)] = other
				path = buildTree(alt).path(i)
				c = alt[i]
			case 7: // the claimed size of the vector is wrong
				size = n + 1 + r.IntN(3)
			}
			want := errText(oldVerifyPath(root, size, i, c, path))
			got := errText(auth.verify(root, size, i, c, path))
			if got != want {
				t.Fatalf("round %d step %d (n=%d i=%d): cached check says %q, the path alone %q", round, step, n, i, got, want)
			}
		}
	}
}

// TestNodeHashesAreTheHashers checks that the tree's nodes, hashed from
// bytes put together on the stack, are the hasher's hashes of their
// domain and digests, which every transcript's roots were made with.
func TestNodeHashesAreTheHashers(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 5))
	for range 200 {
		var a, b Digest
		for i := range a {
			a[i], b[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		if got, want := leafNode(a), newHasher("salvo/merkle/leaf/1").digest(a).sum(); got != want {
			t.Fatalf("leaf node of %x: %x, the hasher says %x", a, got, want)
		}
		if got, want := innerNode(a, b), newHasher("salvo/merkle/node/1").digest(a).digest(b).sum(); got != want {
			t.Fatalf("inner node of %x %x: %x, the hasher says %x", a, b, got, want)
		}
	}
}

// TestFullOpeningWithProvedNodesAgrees opens a random part of a vector
// leaf by leaf (honest openings and refused forgeries), then opens it
// whole, honestly or not (a forged value or salt, values swapped, a value
// or salt missing or one too many), and checks that the full opening
// checked against the proved nodes gives exactly the verdict and error of
// rebuilding the root from all the leaves.
func TestFullOpeningWithProvedNodesAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 6))
	match := testDigest("match")
	owner := engine.Seat(1)
	for round := 0; round < 300; round++ {
		n := 1 + r.IntN(130)
		values := make([][]byte, n)
		for i := range values {
			values[i] = []byte{byte(r.IntN(4))}
		}
		v, err := NewVector(match, owner, "grid", values)
		if err != nil {
			t.Fatal(err)
		}
		auth := newAuthNodes(v.Root(), n)
		for range r.IntN(2 * n) {
			o, err := v.Open(r.IntN(n))
			if err != nil {
				t.Fatal(err)
			}
			if r.IntN(5) == 0 { // a forgery, refused, which proves nothing
				o.Value = Hex{9}
			}
			want := errText(o.Verify(match, v.Root(), n))
			if got := errText(o.verifyAgainst(match, v.Root(), n, auth)); got != want {
				t.Fatalf("round %d: opening says %q, alone %q", round, got, want)
			}
		}
		f := v.Full()
		switch r.IntN(7) {
		case 0:
			f.Values[r.IntN(n)] = Hex{7}
		case 1:
			f.Salts[r.IntN(n)][r.IntN(len(Salt{}))] ^= 1
		case 2:
			i, j := r.IntN(n), r.IntN(n)
			f.Values[i], f.Values[j] = f.Values[j], f.Values[i]
			f.Salts[i], f.Salts[j] = f.Salts[j], f.Salts[i]
		case 3:
			f.Values = f.Values[:n-1]
		case 4:
			f.Salts = append(f.Salts, f.Salts[0])
			f.Values = append(f.Values, f.Values[0])
		}
		want := errText(f.Verify(match, owner, v.Root(), n))
		if got := errText(f.verifyAgainst(match, owner, v.Root(), n, auth)); got != want {
			t.Fatalf("round %d (n=%d): full opening says %q, rebuilt alone %q", round, n, got, want)
		}
	}
	if newAuthNodes(match, maxAuthLeaves+1) != nil {
		t.Fatal("a vector over maxAuthLeaves keeps its proved nodes")
	}
}

// TestLeafCommitmentIsTheHashers checks that a leaf hashed from bytes put
// together on the stack is the hasher's hash of its fields, for owners,
// indexes, names and values of every size around the short-leaf bound.
func TestLeafCommitmentIsTheHashers(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 7))
	for range 2000 {
		var match Digest
		var salt Salt
		for i := range match {
			match[i], salt[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		name := make([]byte, r.IntN(maxShortLeaf+20))
		for i := range name {
			name[i] = 'a' + byte(r.IntN(26))
		}
		value := make([]byte, r.IntN(maxShortLeaf+20))
		for i := range value {
			value[i] = byte(r.Uint32())
		}
		owner, index := engine.Seat(r.IntN(300)-150), r.IntN(1<<20)-100
		if r.IntN(10) == 0 {
			index = MaxLeaves<<20 + r.IntN(1<<30)
		}
		slot := engine.Slot{Owner: owner, Name: string(name), Index: index}
		if got, want := LeafCommitment(match, slot, salt, value), hashedLeaf(match, slot, salt, value); got != want {
			t.Fatalf("leaf %v of %d-byte value: %x, the hasher says %x", slot, len(value), got, want)
		}
	}
}

// oldFullWithinRules is the check as it was, over a map of wanted slots:
// the reference fullWithinRules must agree with.
func oldFullWithinRules(m *Match, from engine.Seat, want []engine.Slot, fullVals map[string][]Hex) error {
	wanted := map[engine.Slot]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	for name := range fullVals {
		key := commitKey{from, name}
		for i := 0; i < m.commits[key].size; i++ {
			if s := (engine.Slot{Owner: from, Name: name, Index: i}); !m.isOpen(key, i) && !wanted[s] {
				return fmt.Errorf("full opening of %q reveals %s, which the rules keep hidden", name, s)
			}
		}
	}
	return nil
}

// TestFullWithinRulesAgrees checks the full opening's reach against the
// old check: random vectors partly open, fully opened while the rules
// call for random slots, some of them the same name of the other seat,
// other names, or indexes outside the vector.
func TestFullWithinRulesAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 9))
	names := []string{"grid", "hand"}
	refused := 0
	for round := 0; round < 2000; round++ {
		m := &Match{commits: map[commitKey]commitRec{}, opened: map[commitKey][]bool{}}
		from := engine.Seat(r.IntN(2))
		full := map[string][]Hex{}
		var want []engine.Slot
		for _, name := range names {
			for seat := engine.Seat(0); seat < 2; seat++ {
				size := 1 + r.IntN(12)
				key := commitKey{seat, name}
				m.commits[key] = commitRec{size: size}
				open := make([]bool, size)
				for i := range open {
					open[i] = r.IntN(3) == 0
				}
				m.opened[key] = open
				for i := range size {
					if r.IntN(4) != 0 {
						want = append(want, engine.Slot{Owner: seat, Name: name, Index: i})
					}
				}
			}
			if r.IntN(2) == 0 {
				full[name] = nil
			}
		}
		want = append(want, engine.Slot{Owner: from, Name: "grid", Index: -1}, engine.Slot{Owner: from, Name: "hand", Index: 99})
		r.Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		want = want[:r.IntN(len(want)+1)]
		if len(full) > 1 { // one vector: the old check's order over several is a map's
			delete(full, "hand")
		}
		got, exp := errText(m.fullWithinRules(from, want, full)), errText(oldFullWithinRules(m, from, want, full))
		if got != exp {
			t.Fatalf("round %d: %q, the old check %q", round, got, exp)
		}
		if exp != "<nil>" {
			refused++
		}
	}
	if refused < 200 || refused > 1800 {
		t.Fatalf("one-sided cases: %d of 2000 refused", refused)
	}
}
