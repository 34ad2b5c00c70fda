package engine

import (
	"encoding/binary"
	"hash"

	"golang.org/x/crypto/blake2b"
)

// Hasher builds a [Digest] of a game state from a deterministic sequence of
// fields. Every field is written with its length or a fixed width, so two
// different sequences never give the same bytes. Games use it for Hash.
type Hasher struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

// NewHasher starts a digest in the given domain (such as "salvo/ubuild/state/1"),
// so that states of different games never share a hash.
func NewHasher(domain string) *Hasher {
	h, err := blake2b.New256(nil)
	if err != nil {
		panic("blake2b: " + err.Error()) // only fails for an over-long key
	}
	hs := &Hasher{h: h}
	hs.String(domain)
	return hs
}

// Int writes a signed integer.
func (hs *Hasher) Int(v int) *Hasher {
	n := binary.PutVarint(hs.buf[:], int64(v))
	hs.h.Write(hs.buf[:n])
	return hs
}

// Ints writes a length and then each integer.
func (hs *Hasher) Ints(vs ...int) *Hasher {
	hs.Int(len(vs))
	for _, v := range vs {
		hs.Int(v)
	}
	return hs
}

// Bool writes a boolean.
func (hs *Hasher) Bool(b bool) *Hasher {
	if b {
		return hs.Int(1)
	}
	return hs.Int(0)
}

// Bytes writes a length-prefixed byte string.
func (hs *Hasher) Bytes(b []byte) *Hasher {
	hs.Int(len(b))
	hs.h.Write(b)
	return hs
}

// String writes a length-prefixed string.
func (hs *Hasher) String(s string) *Hasher {
	hs.Int(len(s))
	hs.h.Write([]byte(s))
	return hs
}

// Digest writes another digest.
func (hs *Hasher) Digest(d Digest) *Hasher {
	hs.h.Write(d[:])
	return hs
}

// Sum returns the digest of everything written.
func (hs *Hasher) Sum() Digest {
	var d Digest
	copy(d[:], hs.h.Sum(nil))
	return d
}
