package fairness

import (
	"encoding/binary"
	"hash"
	"sync"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
)

// Digest is the 256-bit hash used throughout the fairness layer.
type Digest = engine.Digest

// hasher writes length-prefixed fields into a BLAKE2b-256 hash under a
// domain string, so that no two different field sequences hash alike.
//
// Hashers are reused: newHasher takes one from a pool and sum, which ends
// its use, puts it back. A hash state and its buffers were a quarter of
// the bytes an audit allocated (issue 15), for a few hashes per input.
// Most hashes are short (a Merkle node, a leaf, a state): their bytes are
// gathered in buf and hashed at once by blake2b.Sum256, a fifth faster
// than feeding a hash state field by field; a longer one (an envelope's
// body) goes on into the hash state once buf is full.
type hasher struct {
	h         hash.Hash
	streaming bool // the bytes went on into h
	n         int  // bytes gathered in buf
	buf       [256]byte
	num       [binary.MaxVarintLen64]byte
	strBuf    [64]byte // a string's bytes on their way into h, and the sum out of it
}

var hashers = sync.Pool{New: func() any {
	h, err := blake2b.New256(nil)
	if err != nil {
		panic("blake2b: " + err.Error()) // only for an over-long key
	}
	return &hasher{h: h}
}}

// newHasher starts a hash under domain. Its sum must be its last use.
func newHasher(domain string) *hasher {
	hs := hashers.Get().(*hasher)
	hs.streaming, hs.n = false, 0
	hs.str(domain)
	return hs
}

// write adds b to the hashed bytes.
func (hs *hasher) write(b []byte) {
	if !hs.streaming {
		if hs.n+len(b) <= len(hs.buf) {
			hs.n += copy(hs.buf[hs.n:], b)
			return
		}
		hs.h.Reset()
		hs.h.Write(hs.buf[:hs.n])
		hs.streaming = true
	}
	hs.h.Write(b)
}

func (hs *hasher) uint(v uint64) *hasher {
	n := binary.PutUvarint(hs.num[:], v)
	hs.write(hs.num[:n])
	return hs
}

func (hs *hasher) int(v int) *hasher {
	n := binary.PutVarint(hs.num[:], int64(v))
	hs.write(hs.num[:n])
	return hs
}

func (hs *hasher) bytes(b []byte) *hasher {
	hs.uint(uint64(len(b)))
	hs.write(b)
	return hs
}

// str writes s as bytes writes it, copying it through a small buffer
// rather than converting it, which would allocate.
func (hs *hasher) str(s string) *hasher {
	hs.uint(uint64(len(s)))
	if !hs.streaming && hs.n+len(s) <= len(hs.buf) {
		hs.n += copy(hs.buf[hs.n:], s)
		return hs
	}
	for len(s) > 0 {
		n := copy(hs.strBuf[:], s)
		hs.write(hs.strBuf[:n])
		s = s[n:]
	}
	return hs
}

// digest writes d, through strBuf as str does: handing d's own bytes to
// write, which may pass them to the hash state's Write, an interface
// method, moved every digest hashed to the heap.
func (hs *hasher) digest(d Digest) *hasher {
	n := copy(hs.strBuf[:], d[:])
	hs.write(hs.strBuf[:n])
	return hs
}

// sum returns the digest and gives the hasher back to the pool: it ends
// the hasher's use. The sum is written into the hasher's own buffer and
// copied out: a digest handed to h.Sum, an interface method, escapes to
// the heap, one allocation for every hash of an audit.
func (hs *hasher) sum() Digest {
	var d Digest
	if hs.streaming {
		copy(d[:], hs.h.Sum(hs.strBuf[:0]))
	} else {
		d = blake2b.Sum256(hs.buf[:hs.n])
	}
	hashers.Put(hs)
	return d
}
