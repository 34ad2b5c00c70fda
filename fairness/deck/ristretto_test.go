package deck

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/gtank/ristretto255"
)

// The package moved from gtank/ristretto255 to curve25519-voi (issue 15).
// Both implement the one standard group, so every recorded deck verifies
// as before; these tests hold the new arithmetic to the old library on
// what a peer sends: which 32-byte strings are elements and scalars, and
// what the hash to the group and the group law give.

// sameDecoding fails t unless b decodes under both libraries or neither,
// to the same element.
func sameDecoding(t *testing.T, b []byte) {
	t.Helper()
	old := ristretto255.NewElement()
	oldErr := old.Decode(b)
	e := newElement()
	err := e.Decode(b)
	if (oldErr == nil) != (err == nil) {
		t.Fatalf("%x: gtank decodes: %v, voi decodes: %v", b, oldErr == nil, err == nil)
	}
	if err == nil && !bytes.Equal(old.Encode(nil), e.Encode(nil)) {
		t.Fatalf("%x: decoded to different elements", b)
	}
	oldS := ristretto255.NewScalar()
	oldSErr := oldS.Decode(b)
	s := newScalar()
	sErr := s.Decode(b)
	if (oldSErr == nil) != (sErr == nil) {
		t.Fatalf("%x: gtank takes it as a scalar: %v, voi: %v", b, oldSErr == nil, sErr == nil)
	}
	if sErr == nil && !bytes.Equal(oldS.Encode(nil), s.Encode(nil)) {
		t.Fatalf("%x: decoded to different scalars", b)
	}
}

// groupInputs returns byte strings near the edges of both decoders:
// encodings of elements, with single bits flipped, with the top bit set,
// field values at and above p, the group order and around it, and noise.
func groupInputs(rng *rand.Rand) [][]byte {
	var out [][]byte
	for range 300 {
		var u [64]byte
		for i := range u {
			u[i] = byte(rng.UintN(256))
		}
		enc := newElement().FromUniformBytes(u[:]).Encode(nil)
		out = append(out, enc, u[:32])
		flipped := bytes.Clone(enc)
		flipped[rng.IntN(32)] ^= 1 << rng.IntN(8)
		out = append(out, flipped)
		top := bytes.Clone(enc)
		top[31] |= 0x80
		out = append(out, top)
	}
	p := []byte{0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}
	l := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	for _, edge := range [][]byte{p, l} {
		for d := -3; d <= 3; d++ {
			b := bytes.Clone(edge)
			b[0] = byte(int(b[0]) + d)
			out = append(out, b)
		}
	}
	out = append(out, make([]byte, 32), bytes.Repeat([]byte{0xff}, 32), append([]byte{1}, make([]byte, 31)...))
	return out
}

func TestGroupDecodesAsGtank(t *testing.T) {
	for _, b := range groupInputs(rand.New(rand.NewPCG(1, 15))) {
		sameDecoding(t, b)
	}
}

// The hash to the group (every generator and card value), the wide
// reduction to a scalar (every challenge) and the group law agree.
func TestGroupComputesAsGtank(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 15))
	for range 100 {
		var u, v [64]byte
		for i := range u {
			u[i], v[i] = byte(rng.UintN(256)), byte(rng.UintN(256))
		}
		a, oldA := newElement().FromUniformBytes(u[:]), ristretto255.NewElement().FromUniformBytes(u[:])
		if !bytes.Equal(a.Encode(nil), oldA.Encode(nil)) {
			t.Fatalf("hash to the group of %x differs", u)
		}
		s, oldS := newScalar().FromUniformBytes(v[:]), ristretto255.NewScalar().FromUniformBytes(v[:])
		if !bytes.Equal(s.Encode(nil), oldS.Encode(nil)) {
			t.Fatalf("wide reduction of %x differs", v)
		}
		got := newElement().VarTimeDoubleScalarBaseMult(s, a, s).Encode(nil)
		want := ristretto255.NewElement().VarTimeDoubleScalarBaseMult(oldS, oldA, oldS).Encode(nil)
		if !bytes.Equal(got, want) {
			t.Fatal("s·A + s·G differs")
		}
		got = newElement().ScalarMult(s, newElement().Subtract(a, newElement().Base())).Encode(nil)
		want = ristretto255.NewElement().ScalarMult(oldS, ristretto255.NewElement().Subtract(oldA, ristretto255.NewElement().Base())).Encode(nil)
		if !bytes.Equal(got, want) {
			t.Fatal("s·(A − G) differs")
		}
	}
}

func FuzzGroupDecodesAsGtank(f *testing.F) {
	for _, b := range groupInputs(rand.New(rand.NewPCG(3, 15)))[:40] {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) != 32 {
			return
		}
		sameDecoding(t, b)
	})
}
