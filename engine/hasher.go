package engine

import (
	"encoding/binary"

	"golang.org/x/crypto/blake2b"
)

// Hasher builds a [Digest] of a game state from a deterministic sequence of
// fields. Every field is written with its length or a fixed width, so two
// different sequences never give the same bytes. Games use it for Hash.
//
// It gathers the bytes and hashes them at once at Sum: BLAKE2b of the whole
// sequence is the same digest as of the fields written one by one, and a
// field put in an array costs far less than one written through hash.Hash
// (an interface call, a string copied to the heap), which an audit did for
// every field of every state hash it computed. The array is indexed, not
// appended to, so that writing a field stores no pointer (no GC barrier),
// and nothing passes it to an interface, so that a Hasher that does not
// leave its Hash function lives on the stack.
type Hasher struct {
	n     int        // bytes gathered in space
	space [2048]byte // the latest bytes
	more  []byte     // the bytes before them, once a state outgrows space
}

// NewHasher starts a digest in the given domain (such as "salvo/ubuild/state/1"),
// so that states of different games never share a hash.
func NewHasher(domain string) *Hasher {
	hs := &Hasher{}
	hs.String(domain)
	return hs
}

// flush moves the gathered bytes to more, so that space is free again.
func (hs *Hasher) flush() {
	hs.more = append(hs.more, hs.space[:hs.n]...)
	hs.n = 0
}

// put gathers b.
func put[T string | []byte](hs *Hasher, b T) {
	if hs.n+len(b) > len(hs.space) {
		hs.flush()
		if len(b) > len(hs.space) {
			hs.more = append(hs.more, b...)
			return
		}
	}
	hs.n += copy(hs.space[hs.n:], b)
}

// Int writes a signed integer.
//
// Nearly every field of a state is a flag, a seat, a face or a count
// between -64 and 63, whose varint is one byte (the zigzag of v): that
// byte is stored here, small enough to inline into the loops of a game's
// Hash (a state hash writes hundreds of fields for every message an
// audit replays); any other value, or a full array, takes intSlow.
func (hs *Hasher) Int(v int) *Hasher {
	if z, n := uint(v)<<1^uint(v>>63), uint(hs.n); z < 0x80 && n < uint(len(hs.space)) {
		hs.space[n] = byte(z)
		hs.n++
		return hs
	}
	return hs.intSlow(v)
}

// intSlow writes v as a varint of any length, making room first.
func (hs *Hasher) intSlow(v int) *Hasher {
	if hs.n+binary.MaxVarintLen64 > len(hs.space) {
		hs.flush()
	}
	hs.n += binary.PutVarint(hs.space[hs.n:], int64(v))
	return hs
}

// Ints writes a length and then each integer (as Each writes them).
func (hs *Hasher) Ints(vs ...int) *Hasher {
	return Each(hs.Int(len(vs)), vs)
}

// Each writes every value of vs as Int writes it, with no length before
// them: a run of fields of one small kind (the cards a seat has seen, the
// faces on a ship), each in the loop's one-byte case, where a call of Int
// per value would cost as much as the writing.
func Each[T ~uint8 | ~int8 | ~int](hs *Hasher, vs []T) *Hasher {
	for _, x := range vs {
		v := int(x)
		if z, n := uint(v)<<1^uint(v>>63), uint(hs.n); z < 0x80 && n < uint(len(hs.space)) {
			hs.space[n] = byte(z)
			hs.n++
			continue
		}
		hs.intSlow(v)
	}
	return hs
}

// Bool writes a boolean: the varint of 1 or 0, one byte.
func (hs *Hasher) Bool(b bool) *Hasher {
	if hs.n >= len(hs.space) {
		hs.flush()
	}
	hs.space[hs.n] = 0
	if b {
		hs.space[hs.n] = 2 // zigzag(1)
	}
	hs.n++
	return hs
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
	if hs.more == nil {
		return Digest(blake2b.Sum256(hs.space[:hs.n]))
	}
	return Digest(blake2b.Sum256(append(hs.more, hs.space[:hs.n]...)))
}
