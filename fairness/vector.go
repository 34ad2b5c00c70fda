package fairness

import (
	"encoding/hex"
	"fmt"
	"maps"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// Vector is a committed vector of hidden values as its owner holds it: the
// values, their salts and the tree.
type Vector struct {
	owner  engine.Seat
	name   string
	values [][]byte
	salts  []Salt
	leaves []Digest
	root   Digest
	tree   *merkleTree // built at the first opening
}

// NewVector salts and commits values as the vector name of owner in match.
func NewVector(match Digest, owner engine.Seat, name string, values [][]byte) (*Vector, error) {
	if len(values) < 1 || len(values) > MaxLeaves {
		return nil, fmt.Errorf("commit %s: %d values, want 1 to %d", name, len(values), MaxLeaves)
	}
	v := &Vector{owner: owner, name: name, values: make([][]byte, len(values)), salts: make([]Salt, len(values)), leaves: make([]Digest, len(values))}
	for i, val := range values {
		s, err := NewSalt()
		if err != nil {
			return nil, fmt.Errorf("commit %s: %w", name, err)
		}
		v.values[i] = append([]byte(nil), val...)
		v.salts[i] = s
		v.leaves[i] = LeafCommitment(match, engine.Slot{Owner: owner, Name: name, Index: i}, s, val)
	}
	v.root = MerkleRoot(v.leaves)
	return v, nil
}

// Root returns the vector's Merkle root, the public commitment.
func (v *Vector) Root() Digest { return v.root }

// Size returns the number of leaves.
func (v *Vector) Size() int { return len(v.values) }

// Open returns the opening of leaf i.
func (v *Vector) Open(i int) (Opening, error) {
	if i < 0 || i >= len(v.values) {
		return Opening{}, fmt.Errorf("open %s[%d]: vector has %d leaves", v.name, i, len(v.values))
	}
	return Opening{
		Slot:  engine.Slot{Owner: v.owner, Name: v.name, Index: i},
		Value: append(Hex(nil), v.values[i]...),
		Salt:  v.salts[i],
		Path:  v.merkle().path(i),
	}, nil
}

// merkle returns the vector's tree, building it once.
func (v *Vector) merkle() *merkleTree {
	if v.tree == nil {
		v.tree = buildTree(v.leaves)
	}
	return v.tree
}

// Opening reveals one committed value with what proves it: the salt and the
// Merkle path to the committed root. In JSON the value, salt and path are
// hex strings.
type Opening struct {
	Slot  engine.Slot `json:"slot"`
	Value Hex         `json:"value"`
	Salt  Salt        `json:"salt"`
	Path  []Digest    `json:"path"`
}

// Verify checks the opening against the vector's root and size.
func (o Opening) Verify(match Digest, root Digest, size int) error {
	c := LeafCommitment(match, o.Slot, o.Salt, o.Value)
	if err := VerifyPath(root, size, o.Slot.Index, c, o.Path); err != nil {
		return fmt.Errorf("opening of %s: %w", o.Slot, err)
	}
	return nil
}

// verifyAgainst checks the opening as Verify does, against the nodes of
// its vector that earlier openings proved (authNodes), with Verify's
// verdict and words.
func (o Opening) verifyAgainst(match Digest, root Digest, size int, a *authNodes) error {
	c := LeafCommitment(match, o.Slot, o.Salt, o.Value)
	if err := a.verify(root, size, o.Slot.Index, c, o.Path); err != nil {
		return fmt.Errorf("opening of %s: %w", o.Slot, err)
	}
	if i := o.Slot.Index; a != nil && a.root == root && a.n == size && a.opened[i] && a.leaves[i] == c {
		a.keep(i, o.Salt, o.Value)
	}
	return nil
}

// Hex is a byte string that JSON shows as hex, at most maxValue bytes.
type Hex []byte

// MarshalText encodes the bytes as hex.
func (h Hex) MarshalText() ([]byte, error) {
	out := make([]byte, hex.EncodedLen(len(h)))
	hex.Encode(out, h)
	return out, nil
}

// UnmarshalText decodes hex, refusing more than maxValue bytes.
func (h *Hex) UnmarshalText(b []byte) error {
	if len(b) > 2*maxValue {
		return fmt.Errorf("value of %d hex digits exceeds the %d-byte limit", len(b), maxValue)
	}
	out := make([]byte, hex.DecodedLen(len(b)))
	if _, err := hex.Decode(out, b); err != nil {
		return fmt.Errorf("value: %w", err)
	}
	*h = out
	return nil
}

// maxValue bounds one committed value on the wire.
const maxValue = 4096

// FullVector opens every leaf of a committed vector at once, with no paths:
// the receiver rebuilds the root from all the leaves. It is how a seat
// reveals what is left of a vector at the end of a match, at a fraction of
// the size of one opening per leaf.
type FullVector struct {
	Name   string `json:"name"`
	Values []Hex  `json:"values"`
	Salts  []Salt `json:"salts"`
}

// Full returns the opening of the whole vector.
func (v *Vector) Full() FullVector {
	f := FullVector{Name: v.name, Values: make([]Hex, len(v.values)), Salts: append([]Salt(nil), v.salts...)}
	for i, val := range v.values {
		f.Values[i] = append(Hex(nil), val...)
	}
	return f
}

// Verify checks that the full opening rebuilds the committed root.
func (f FullVector) Verify(match Digest, owner engine.Seat, root Digest, size int) error {
	if len(f.Values) != size || len(f.Salts) != size {
		return fmt.Errorf("%w: full opening of %s has %d values and %d salts, the vector has %d leaves", ErrCommitment, f.Name, len(f.Values), len(f.Salts), size)
	}
	if got := MerkleRoot(f.leaves(match, owner, nil)); got != root {
		return fmt.Errorf("%w: full opening of %s rebuilds root %s, committed root is %s", ErrCommitment, f.Name, got.Short(), root.Short())
	}
	return nil
}

// verifyAgainst checks the full opening as Verify does, with Verify's
// verdict and words, reusing the nodes of the vector that its openings
// leaf by leaf proved (authNodes): a board's final reveal repeats the
// leaves its shots opened.
func (f FullVector) verifyAgainst(match Digest, owner engine.Seat, root Digest, size int, a *authNodes) error {
	if a == nil || a.root != root || a.n != size || len(f.Values) != size || len(f.Salts) != size {
		return f.Verify(match, owner, root, size)
	}
	if a.rootOf(f.leaves(match, owner, a)) != root {
		return f.Verify(match, owner, root, size)
	}
	return nil
}

// leaves returns the leaf commitments of the full opening, those of
// leaves opened before taken from a's proof (nil for none).
func (f FullVector) leaves(match Digest, owner engine.Seat, a *authNodes) []Digest {
	leaves := make([]Digest, len(f.Values))
	for i := range leaves {
		leaves[i] = a.leaf(i, engine.Slot{Owner: owner, Name: f.Name, Index: i}, match, f.Salts[i], f.Values[i])
	}
	return leaves
}

// Secrets is one seat's store of its own committed vectors. It implements
// [engine.Secrets] for that seat's agents.
type Secrets struct {
	seat    engine.Seat
	vectors map[string]*Vector
	order   []string // names in the order committed
	// Shared decks: this seat's key share of each, and the values of the
	// cards dealt to it (slots with Owner NoSeat).
	deckKeys map[string]*deck.KeyShare
	dealt    map[engine.Slot][]byte
	// snap is the last snapshot's values and snapDealt the number of
	// dealt values it holds: vectors are replaced only through Add, which
	// drops it, and dealt values are only ever added, so while the count
	// holds it is what Snapshot would build again.
	snap      engine.Known
	snapDealt int
}

// NewSecrets returns an empty store for seat.
func NewSecrets(seat engine.Seat) *Secrets {
	return &Secrets{seat: seat, vectors: map[string]*Vector{}, deckKeys: map[string]*deck.KeyShare{}, dealt: map[engine.Slot][]byte{}}
}

// Add stores a committed vector.
func (s *Secrets) Add(v *Vector) {
	if _, ok := s.vectors[v.name]; !ok {
		s.order = append(s.order, v.name)
	}
	s.vectors[v.name] = v
	s.snap = nil
}

// Vector returns the vector committed under name.
func (s *Secrets) Vector(name string) (*Vector, bool) {
	v, ok := s.vectors[name]
	return v, ok
}

// Value implements engine.Secrets.
func (s *Secrets) Value(slot engine.Slot) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	if slot.Owner == engine.NoSeat {
		v, ok := s.dealt[slot]
		return append([]byte(nil), v...), ok
	}
	if slot.Owner != s.seat {
		return nil, false
	}
	v, ok := s.vectors[slot.Name]
	if !ok || slot.Index < 0 || slot.Index >= len(v.values) {
		return nil, false
	}
	return append([]byte(nil), v.values[slot.Index]...), true
}

// Open returns the opening of one of this seat's slots.
func (s *Secrets) Open(slot engine.Slot) (Opening, error) {
	if slot.Owner != s.seat {
		return Opening{}, fmt.Errorf("open %s: not %s's secret", slot, s.seat)
	}
	v, ok := s.vectors[slot.Name]
	if !ok {
		return Opening{}, fmt.Errorf("open %s: nothing committed under %q", slot, slot.Name)
	}
	return v.Open(slot.Index)
}

// Snapshot returns a read-only copy of every value the seat knows, safe to
// read from another goroutine while the match goes on.
//
// The referee takes one for every question it puts to its agent, asked
// early too (early.go): rebuilding the map every time was a twentieth of
// a live match's CPU (issue 15, point 6), so the values are copied once
// and each snapshot is a clone of that map. A caller may add to or
// replace entries of its snapshot (an early question adds the answers
// before it); the values themselves are shared and read-only.
func (s *Secrets) Snapshot() engine.Secrets {
	if s.snap == nil || s.snapDealt != len(s.dealt) {
		out := engine.Known{}
		for name, v := range s.vectors {
			for i, val := range v.values {
				out[engine.Slot{Owner: s.seat, Name: name, Index: i}] = append([]byte(nil), val...)
			}
		}
		for slot, v := range s.dealt {
			out[slot] = append([]byte(nil), v...)
		}
		s.snap, s.snapDealt = out, len(s.dealt)
	}
	return maps.Clone(s.snap)
}
