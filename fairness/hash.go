package fairness

import (
	"encoding/binary"
	"hash"

	"golang.org/x/crypto/blake2b"

	"github.com/salvo-game/salvo/engine"
)

// Digest is the 256-bit hash used throughout the fairness layer.
type Digest = engine.Digest

// hasher writes length-prefixed fields into a BLAKE2b-256 hash under a
// domain string, so that no two different field sequences hash alike.
type hasher struct {
	h   hash.Hash
	buf [binary.MaxVarintLen64]byte
}

func newHasher(domain string) *hasher {
	h, err := blake2b.New256(nil)
	if err != nil {
		panic("blake2b: " + err.Error()) // only for an over-long key
	}
	hs := &hasher{h: h}
	hs.str(domain)
	return hs
}

func (hs *hasher) uint(v uint64) *hasher {
	n := binary.PutUvarint(hs.buf[:], v)
	hs.h.Write(hs.buf[:n])
	return hs
}

func (hs *hasher) int(v int) *hasher {
	n := binary.PutVarint(hs.buf[:], int64(v))
	hs.h.Write(hs.buf[:n])
	return hs
}

func (hs *hasher) bytes(b []byte) *hasher {
	hs.uint(uint64(len(b)))
	hs.h.Write(b)
	return hs
}

func (hs *hasher) str(s string) *hasher { return hs.bytes([]byte(s)) }

func (hs *hasher) digest(d Digest) *hasher {
	hs.h.Write(d[:])
	return hs
}

// sum returns the digest, written straight into it: the audit hashes a
// few times per input, and a slice per hash was garbage to collect.
func (hs *hasher) sum() Digest {
	var d Digest
	hs.h.Sum(d[:0])
	return d
}
