package deck

import (
	"bytes"
	"encoding"
	"testing"
)

// fuzzRoundTrip checks that a decoder never panics and that whatever it
// accepts re-encodes to exactly the input (the encodings are canonical).
func fuzzRoundTrip[T any, P interface {
	*T
	encoding.BinaryUnmarshaler
	encoding.BinaryMarshaler
}](t *testing.T, b []byte) {
	var v T
	if err := P(&v).UnmarshalBinary(b); err != nil {
		return
	}
	for _, m := range []any{P(&v), fresh(P(&v))} {
		out, err := m.(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			t.Fatalf("decoded value does not encode: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("re-encoding differs:\n in %x\nout %x", b, out)
		}
	}
}

// fresh returns v without the encodings it kept from decoding, so that
// encoding it again computes every element's encoding: what a decoder
// accepted must be canonical, not merely remembered.
func fresh(v any) any {
	switch v := v.(type) {
	case *Deck:
		d := make(Deck, len(*v))
		for i, c := range *v {
			d[i] = Card{c1: c.c1, c2: c.c2}
		}
		return &d
	case *Card:
		return &Card{c1: v.c1, c2: v.c2}
	case *ShuffleProof:
		pr := *v
		pr.comEnc, pr.chainEnc = nil, nil
		return &pr
	}
	return v
}

func fuzzSeeds(f *testing.F) (*table, Deck, *ShuffleProof) {
	tb := newTable(f, 2, 6, 1)
	out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck)
	if err != nil {
		f.Fatal(err)
	}
	return tb, out, proof
}

func FuzzDeck(f *testing.F) {
	_, out, _ := fuzzSeeds(f)
	b, _ := out.MarshalBinary()
	f.Add(b)
	f.Add([]byte{0, 0})
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRoundTrip[Deck](t, b) })
}

func FuzzCard(f *testing.F) {
	_, out, _ := fuzzSeeds(f)
	b, _ := out[0].MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRoundTrip[Card](t, b) })
}

func FuzzShuffleProof(f *testing.F) {
	tb, out, proof := fuzzSeeds(f)
	b, _ := proof.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzRoundTrip[ShuffleProof](t, b)
		var pr ShuffleProof
		if pr.UnmarshalBinary(b) == nil {
			// Any decoded proof may be verified without a panic; only the
			// honest one passes.
			err := tb.p.VerifyShuffle(tb.jk, tb.deck, out, &pr)
			if err == nil && !bytes.Equal(b, mustProofBytes(t, proof)) {
				t.Fatal("a changed proof verified")
			}
		}
	})
}

func mustProofBytes(t *testing.T, p *ShuffleProof) []byte {
	b, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func FuzzShare(f *testing.F) {
	tb, out, _ := fuzzSeeds(f)
	sh, _ := tb.p.UnmaskShare(tb.keys[0], 2, out[2])
	b, _ := sh.MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzRoundTrip[Share](t, b)
		var got Share
		if got.UnmarshalBinary(b) == nil {
			_ = tb.p.VerifyShare(tb.jk, 2, out[2], &got) // must not panic
		}
	})
}

func FuzzPublicKey(f *testing.F) {
	tb, _, _ := fuzzSeeds(f)
	b, _ := tb.keys[1].Public().MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzRoundTrip[PublicKey](t, b)
		var pk PublicKey
		if pk.UnmarshalBinary(b) == nil {
			_ = tb.p.VerifyPublicKey(&pk)
		}
	})
}

func FuzzKeyShare(f *testing.F) {
	tb, _, _ := fuzzSeeds(f)
	b, _ := tb.keys[1].MarshalBinary()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { fuzzRoundTrip[KeyShare](t, b) })
}
