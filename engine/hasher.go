package engine

import (
	"encoding/binary"
	"hash"

	"golang.org/x/crypto/blake2b"
)

// Hasher builds a [Digest] of a game state from a deterministic sequence of
// fields. Every field is written with its length or a fixed width, so two
// different sequences never give the same bytes. Games use it for Hash.
//
// It gathers the bytes in an array and hashes them a kilobyte at a time:
// BLAKE2b of the whole sequence is the same digest however it is cut, and a
// field put in an array costs far less than one written through hash.Hash
// (an interface call, a string copied to the heap), which an audit did for
// every field of every state hash it computed. The array is indexed, not
// appended to, so that writing a field stores no pointer (no GC barrier).
type Hasher struct {
	n     int        // bytes gathered in space
	space [1024]byte // the bytes not yet hashed
	h     hash.Hash  // the stream, once a state outgrows space
}

// NewHasher starts a digest in the given domain (such as "salvo/ubuild/state/1"),
// so that states of different games never share a hash.
func NewHasher(domain string) *Hasher {
	hs := &Hasher{}
	hs.String(domain)
	return hs
}

// flush hashes the gathered bytes, so that space is free again.
func (hs *Hasher) flush() {
	if hs.h == nil {
		h, err := blake2b.New256(nil)
		if err != nil {
			panic("blake2b: " + err.Error()) // only fails for an over-long key
		}
		hs.h = h
	}
	hs.h.Write(hs.space[:hs.n])
	hs.n = 0
}

// put gathers b.
func put[T string | []byte](hs *Hasher, b T) {
	if hs.n+len(b) > len(hs.space) {
		hs.flush()
		if len(b) > len(hs.space) {
			hs.h.Write([]byte(b))
			return
		}
	}
	hs.n += copy(hs.space[hs.n:], b)
}

// Int writes a signed integer.
func (hs *Hasher) Int(v int) *Hasher {
	if hs.n+binary.MaxVarintLen64 > len(hs.space) {
		hs.flush()
	}
	hs.n += binary.PutVarint(hs.space[hs.n:], int64(v))
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
	put(hs, b)
	return hs
}

// String writes a length-prefixed string.
func (hs *Hasher) String(s string) *Hasher {
	hs.Int(len(s))
	put(hs, s)
	return hs
}

// Digest writes another digest.
func (hs *Hasher) Digest(d Digest) *Hasher {
	put(hs, d[:])
	return hs
}

// Sum returns the digest of everything written.
func (hs *Hasher) Sum() Digest {
	if hs.h == nil {
		return Digest(blake2b.Sum256(hs.space[:hs.n]))
	}
	hs.flush()
	var d Digest
	copy(d[:], hs.h.Sum(nil))
	return d
}
