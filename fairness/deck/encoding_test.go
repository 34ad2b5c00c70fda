package deck

import (
	"bytes"
	"testing"
)

// The encodings a card or a proof keeps (hashed and sent instead of
// encoding the elements again) are always the elements' own encodings,
// however the value was made: a fresh deck, a shuffle, a clone, or
// decoding. A kept encoding that differed would make the verifier hash
// other bytes than the elements it checks.
func TestKeptEncodingsAreTheElementsEncodings(t *testing.T) {
	tb := newTable(t, 3, 60, 9)
	out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck)
	if err != nil {
		t.Fatal(err)
	}
	db, _ := out.MarshalBinary()
	pb, _ := proof.MarshalBinary()
	var decoded Deck
	var dp ShuffleProof
	if decoded.UnmarshalBinary(db) != nil || dp.UnmarshalBinary(pb) != nil {
		t.Fatal("decode")
	}
	for name, d := range map[string]Deck{"full deck": tb.deck, "shuffled": out, "decoded": decoded, "clone": decoded.Clone()} {
		for i, c := range d {
			if c.enc == nil {
				t.Fatalf("%s card %d keeps no encoding", name, i)
			}
			if want := c.c2.Encode(c.c1.Encode(nil)); !bytes.Equal(c.enc[:], want) {
				t.Fatalf("%s card %d keeps %x, its encoding is %x", name, i, c.enc[:], want)
			}
		}
	}
	for name, pr := range map[string]*ShuffleProof{"proven": proof, "decoded": &dp} {
		if !bytes.Equal(pr.comEnc, encodeAll(pr.com)) || !bytes.Equal(pr.chainEnc, encodeAll(pr.chain)) {
			t.Fatalf("%s proof keeps other encodings than its elements'", name)
		}
	}
	if err := tb.p.VerifyShuffle(tb.jk, tb.deck, decoded, &dp); err != nil {
		t.Fatal(err)
	}
}

// Hashing the received bytes opens no way around the proof: any bit of a
// shuffle's deck or of its proof's commitments changed in transit makes
// the bytes undecodable or the proof fail.
func TestReceivedBytesChangedNeverVerify(t *testing.T) {
	tb := newTable(t, 2, 60, 10)
	out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck)
	if err != nil {
		t.Fatal(err)
	}
	db, _ := out.MarshalBinary()
	pb, _ := proof.MarshalBinary()
	check := func(what string, d, p []byte) {
		t.Helper()
		var dd Deck
		var pp ShuffleProof
		if dd.UnmarshalBinary(d) != nil || pp.UnmarshalBinary(p) != nil {
			return
		}
		if tb.p.VerifyShuffle(tb.jk, tb.deck, dd, &pp) == nil {
			t.Fatalf("%s: a changed shuffle verifies", what)
		}
	}
	// Every card, and every commitment and chain element of the proof.
	for i := 2; i < len(db); i += 97 {
		d := bytes.Clone(db)
		d[i] ^= 1 << (i % 8)
		check("deck byte", d, pb)
	}
	for i := 2; i < 2+2*60*ElementSize; i += 101 {
		p := bytes.Clone(pb)
		p[i] ^= 1 << (i % 8)
		check("proof byte", db, p)
	}
}
