package engine

import (
	"encoding/binary"

	"golang.org/x/crypto/blake2b"
)

// Hasher builds a [Digest] of a game state from a deterministic sequence of
// fields. Every field is written with its length or a fixed width, so two
// different sequences never give the same bytes. Games use it for Hash.
//
// It gathers the bytes and hashes them once at Sum: BLAKE2b of the whole
// sequence is the same digest as of the sequence written piece by piece,
// and a state's few hundred bytes cost far less appended to a buffer (most
// often on the stack) than written field by field through hash.Hash, which
// an audit did for every message it replayed.
type Hasher struct {
	buf   []byte
	space [512]byte // buf's first array: most states fit
}

// NewHasher starts a digest in the given domain (such as "salvo/ubuild/state/1"),
// so that states of different games never share a hash.
func NewHasher(domain string) *Hasher {
	hs := &Hasher{}
	hs.buf = hs.space[:0]
	hs.String(domain)
	return hs
}

// Int writes a signed integer.
func (hs *Hasher) Int(v int) *Hasher {
	hs.buf = binary.AppendVarint(hs.buf, int64(v))
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
	hs.buf = append(hs.buf, b...)
	return hs
}

// String writes a length-prefixed string.
func (hs *Hasher) String(s string) *Hasher {
	hs.Int(len(s))
	hs.buf = append(hs.buf, s...)
	return hs
}

// Digest writes another digest.
func (hs *Hasher) Digest(d Digest) *Hasher {
	hs.buf = append(hs.buf, d[:]...)
	return hs
}

// Sum returns the digest of everything written.
func (hs *Hasher) Sum() Digest {
	return Digest(blake2b.Sum256(hs.buf))
}
