package fairness

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/salvo-game/salvo/engine"
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
		Value: append([]byte(nil), v.values[i]...),
		Salt:  v.salts[i],
		Path:  MerklePath(v.leaves, i),
	}, nil
}

// Opening reveals one committed value with what proves it: the salt and the
// Merkle path to the committed root.
type Opening struct {
	Slot  engine.Slot
	Value []byte
	Salt  Salt
	Path  []Digest
}

// Verify checks the opening against the vector's root and size.
func (o Opening) Verify(match Digest, root Digest, size int) error {
	c := LeafCommitment(match, o.Slot, o.Salt, o.Value)
	if err := VerifyPath(root, size, o.Slot.Index, c, o.Path); err != nil {
		return fmt.Errorf("opening of %s: %w", o.Slot, err)
	}
	return nil
}

type openingJSON struct {
	Slot  engine.Slot `json:"slot"`
	Value string      `json:"value"`
	Salt  string      `json:"salt"`
	Path  []string    `json:"path"`
}

// MarshalJSON encodes the opening with hex strings.
func (o Opening) MarshalJSON() ([]byte, error) {
	j := openingJSON{Slot: o.Slot, Value: hex.EncodeToString(o.Value), Salt: hex.EncodeToString(o.Salt[:]), Path: make([]string, len(o.Path))}
	for i, p := range o.Path {
		j.Path[i] = hex.EncodeToString(p[:])
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes an opening, rejecting malformed hex.
func (o *Opening) UnmarshalJSON(b []byte) error {
	var j openingJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return fmt.Errorf("opening: %w", err)
	}
	val, err := hex.DecodeString(j.Value)
	if err != nil {
		return fmt.Errorf("opening value: %w", err)
	}
	if len(val) > maxValue {
		return fmt.Errorf("opening value: %d bytes, limit %d", len(val), maxValue)
	}
	salt, err := decodeDigest(j.Salt)
	if err != nil {
		return fmt.Errorf("opening salt: %w", err)
	}
	if len(j.Path) > 64 {
		return fmt.Errorf("opening path: %d hashes is too long", len(j.Path))
	}
	path := make([]Digest, len(j.Path))
	for i, p := range j.Path {
		if path[i], err = decodeDigest(p); err != nil {
			return fmt.Errorf("opening path[%d]: %w", i, err)
		}
	}
	*o = Opening{Slot: j.Slot, Value: val, Salt: Salt(salt), Path: path}
	return nil
}

// maxValue bounds one committed value on the wire.
const maxValue = 4096

// Secrets is one seat's store of its own committed vectors. It implements
// [engine.Secrets] for that seat's agents.
type Secrets struct {
	seat    engine.Seat
	vectors map[string]*Vector
}

// NewSecrets returns an empty store for seat.
func NewSecrets(seat engine.Seat) *Secrets {
	return &Secrets{seat: seat, vectors: map[string]*Vector{}}
}

// Add stores a committed vector.
func (s *Secrets) Add(v *Vector) { s.vectors[v.name] = v }

// Vector returns the vector committed under name.
func (s *Secrets) Vector(name string) (*Vector, bool) {
	v, ok := s.vectors[name]
	return v, ok
}

// Value implements engine.Secrets.
func (s *Secrets) Value(slot engine.Slot) ([]byte, bool) {
	if s == nil || slot.Owner != s.seat {
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
