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
	// Strings that fill the array, overflow it, and outgrow it at once.
	for _, lens := range [][]int{nil, {700}, {700, 700}, {3000}, {5000}, {5, 2000, 7}, {2041, 1, 1}, {700, 700, 700}} {
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
		for _, n := range lens {
			long := strings.Repeat("x", n)
			hs.String(long)
			put(len(long))
			stream.Write([]byte(long))
		}
		var want Digest
		copy(want[:], stream.Sum(nil))
		if got := hs.Sum(); got != want {
			t.Fatalf("strings of %v bytes: digest %x, want %x", lens, got, want)
		}
	}
}
