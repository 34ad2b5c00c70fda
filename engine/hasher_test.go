package engine

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
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

// TestHasherIntsAsVarints checks, over random fields, that Int, Ints, Each
// and Bool write exactly binary.AppendVarint's bytes, whatever the value's
// size (one byte, many, the extremes) and wherever the array fills: their
// one-byte fast paths must not change a single state hash.
func TestHasherIntsAsVarints(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 4))
	value := func() int {
		switch r.IntN(6) {
		case 0:
			return r.IntN(129) - 64 // the edges of one byte
		case 1:
			return []int{math.MinInt, math.MaxInt, -65, 64, 63, -64}[r.IntN(6)]
		case 2:
			return int(r.Uint64())
		}
		return r.IntN(2000) - 1000
	}
	for round := range 300 {
		hs := NewHasher("salvo/test/state/1")
		want := binary.AppendVarint(nil, int64(len("salvo/test/state/1")))
		want = append(want, "salvo/test/state/1"...)
		for range r.IntN(3000) {
			switch r.IntN(4) {
			case 3:
				// Each: a run of small values of a narrow kind, no length.
				bs, is := make([]uint8, r.IntN(20)), make([]int8, r.IntN(20))
				for i := range bs {
					bs[i] = uint8(r.IntN(256))
					want = binary.AppendVarint(want, int64(bs[i]))
				}
				for i := range is {
					is[i] = int8(r.IntN(256) - 128)
					want = binary.AppendVarint(want, int64(is[i]))
				}
				Each(Each(hs, bs), is)
			case 0:
				v := value()
				hs.Int(v)
				want = binary.AppendVarint(want, int64(v))
			case 1:
				vs := make([]int, r.IntN(20))
				want = binary.AppendVarint(want, int64(len(vs)))
				for i := range vs {
					vs[i] = value()
					want = binary.AppendVarint(want, int64(vs[i]))
				}
				hs.Ints(vs...)
			default:
				b := r.IntN(2) == 1
				hs.Bool(b)
				want = binary.AppendVarint(want, map[bool]int64{false: 0, true: 1}[b])
			}
		}
		if got := hs.Sum(); got != Digest(blake2b.Sum256(want)) {
			t.Fatalf("round %d: the digest differs from BLAKE2b of the fields' varints", round)
		}
	}
}

// TestDigestShortAsFmt holds Short, written with encoding/hex, to the
// digits fmt's %x wrote for it.
func TestDigestShortAsFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 5))
	for range 1000 {
		var d Digest
		for i := range d {
			d[i] = byte(r.IntN(256))
		}
		if got, want := d.Short(), fmt.Sprintf("%x", d[:4]); got != want {
			t.Fatalf("Short %q, fmt wrote %q", got, want)
		}
	}
}
