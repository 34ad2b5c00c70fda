package engine

import (
	"encoding/binary"
	"strings"
	"testing"

	"golang.org/x/crypto/blake2b"
)

// TestHasherDigestUnchanged pins Hasher to the digest it gave when it
// wrote each field straight into BLAKE2b: every state hash in every
// record depends on it, so gathering the bytes first must change none.
func TestHasherDigestUnchanged(t *testing.T) {
	long := strings.Repeat("x", 700) // past the buffer's first array
	for _, n := range []int{0, 1, 3, 40} {
		hs := NewHasher("salvo/test/state/1").Int(-5).Ints(1, 2, 300).Bool(true).Bool(false).Bytes([]byte{7, 8}).Digest(Digest{1, 2})
		stream, _ := blake2b.New256(nil)
		put := func(v int) { stream.Write(binary.AppendVarint(nil, int64(v))) }
		put(len("salvo/test/state/1"))
		stream.Write([]byte("salvo/test/state/1"))
		for _, v := range []int{-5, 3, 1, 2, 300, 1, 0, 2} {
			put(v)
		}
		stream.Write([]byte{7, 8})
		d := Digest{1, 2}
		stream.Write(d[:])
		for range n {
			hs.String(long)
			put(len(long))
			stream.Write([]byte(long))
		}
		var want Digest
		copy(want[:], stream.Sum(nil))
		if got := hs.Sum(); got != want {
			t.Fatalf("%d long strings: digest %x, want %x", n, got, want)
		}
	}
}
