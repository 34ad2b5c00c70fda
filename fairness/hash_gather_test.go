package fairness

import (
	"bytes"
	"encoding/binary"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"
)

// A hasher hashes exactly the length-prefixed bytes of its fields,
// whether they fit its buffer (one Sum256) or go on into the hash state:
// fields of every size, in every order, against a plain BLAKE2b-256 of the
// same bytes.
func TestHasherHashesItsFields(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(15, 9))
	for range 2000 {
		domain := strings.Repeat("d", rng.IntN(40))
		var want bytes.Buffer
		put := func(v uint64) { want.Write(binary.AppendUvarint(nil, v)) }
		put(uint64(len(domain)))
		want.WriteString(domain)
		h := newHasher(domain)
		for range rng.IntN(8) {
			switch rng.IntN(5) {
			case 0:
				v := rng.Uint64()
				h.uint(v)
				put(v)
			case 1:
				v := rng.IntN(1<<20) - 1<<19
				h.int(v)
				want.Write(binary.AppendVarint(nil, int64(v)))
			case 2:
				b := make([]byte, rng.IntN(300))
				h.bytes(b)
				put(uint64(len(b)))
				want.Write(b)
			case 3:
				s := strings.Repeat("s", rng.IntN(300))
				h.str(s)
				put(uint64(len(s)))
				want.WriteString(s)
			default:
				var d Digest
				d[0] = byte(rng.IntN(256))
				h.digest(d)
				want.Write(d[:])
			}
		}
		if got := h.sum(); got != blake2b.Sum256(want.Bytes()) {
			t.Fatalf("the hasher's sum differs from BLAKE2b of its %d bytes", want.Len())
		}
	}
}
