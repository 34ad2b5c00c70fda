package fairness

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
)

// SaltSize is the size of the random salt of every committed leaf.
const SaltSize = 32

// Salt is the secret randomness that hides a committed value.
type Salt [SaltSize]byte

// MarshalText encodes the salt as hex.
func (s Salt) MarshalText() ([]byte, error) { return Digest(s).MarshalText() }

// UnmarshalText decodes exactly 64 hex digits.
func (s *Salt) UnmarshalText(b []byte) error { return (*Digest)(s).UnmarshalText(b) }

// NewSalt returns a fresh salt from crypto/rand.
func NewSalt() (Salt, error) {
	var s Salt
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("draw salt: %w", err)
	}
	return s, nil
}

// ErrCommitment is wrapped by every error about an opening that does not
// match its commitment.
var ErrCommitment = errors.New("opening does not match commitment")

// LeafCommitment commits to one value: BLAKE2b-256 over a domain that names
// the match, the owner, the vector and the position, then the salt and the
// value. The domain means an opening proves one slot of one match and
// nothing else.
//
// A leaf of a short name and value, which every game's are, is put
// together on the stack and hashed at once (leafBytes): leaves are most of
// the hashes an audit makes at a final reveal, and a pooled hasher cost a
// third of each (issue 15). TestLeafCommitmentIsTheHashers checks the two
// ways agree byte for byte.
func LeafCommitment(match Digest, slot engine.Slot, salt Salt, value []byte) Digest {
	if len(slot.Name)+len(value) <= maxShortLeaf {
		var b [leafBuf]byte
		return blake2b.Sum256(leafBytes(b[:0], match, slot, salt, value))
	}
	return hashedLeaf(match, slot, salt, value)
}

// A short leaf's name and value take at most maxShortLeaf bytes, so that
// all its bytes fit leafBuf: the domain, the match, four varints of at
// most ten bytes and the salt take 13+32+40+32.
const (
	maxShortLeaf = 128
	leafBuf      = 256
)

// leafBytes appends the bytes the hasher hashes for a leaf (its domain and
// fields as str, digest, int and bytes write them) to b.
func leafBytes(b []byte, match Digest, slot engine.Slot, salt Salt, value []byte) []byte {
	const domain = "salvo/leaf/1"
	b = append(binary.AppendUvarint(b, uint64(len(domain))), domain...)
	b = append(b, match[:]...)
	b = binary.AppendVarint(b, int64(slot.Owner))
	b = append(binary.AppendUvarint(b, uint64(len(slot.Name))), slot.Name...)
	b = binary.AppendVarint(b, int64(slot.Index))
	b = append(binary.AppendUvarint(b, uint64(len(salt))), salt[:]...)
	return append(binary.AppendUvarint(b, uint64(len(value))), value...)
}

// hashedLeaf is LeafCommitment through the hasher, for any leaf.
func hashedLeaf(match Digest, slot engine.Slot, salt Salt, value []byte) Digest {
	return newHasher("salvo/leaf/1").
		digest(match).
		int(int(slot.Owner)).
		str(slot.Name).
		int(slot.Index).
		bytes(salt[:]).
		bytes(value).
		sum()
}
