package fairness

import (
	"crypto/rand"
	"errors"
	"fmt"

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
func LeafCommitment(match Digest, slot engine.Slot, salt Salt, value []byte) Digest {
	return newHasher("salvo/leaf/1").
		digest(match).
		int(int(slot.Owner)).
		str(slot.Name).
		int(slot.Index).
		bytes(salt[:]).
		bytes(value).
		sum()
}
