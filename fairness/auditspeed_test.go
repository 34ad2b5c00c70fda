package fairness

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestHexIsHexDigest: the audit's comparison of a message's match ID,
// previous message and state hash with the match's digests says what
// comparing with hexDigest said, for the digest's own text and for every
// other spelling a record could hold (another digest, upper case, a digit
// changed, one too few or too many).
func TestHexIsHexDigest(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	for range 2000 {
		var d, other Digest
		for i := range d {
			d[i], other[i] = byte(rng.Uint32()), byte(rng.Uint32())
		}
		s := hexDigest(d)
		flip := []byte(s)
		flip[rng.IntN(len(flip))] ^= 1
		for _, c := range []string{s, hexDigest(other), strings.ToUpper(s), string(flip), s[1:], s + "0", "", s[:32]} {
			if got, want := hexIs(c, d), c == hexDigest(d); got != want {
				t.Fatalf("hexIs(%q, %x) = %v, hexDigest says %v", c, d, got, want)
			}
		}
	}
}

// TestBatchedAuditLeavesSingleKeysUnmade: a window of good signatures,
// checked in one batch, never makes the keys' tables for checking one
// signature at a time; a signature checked alone makes them, and is
// judged by them as before: a good one holds, a forged one fails.
func TestBatchedAuditLeavesSingleKeysUnmade(t *testing.T) {
	data, err := os.ReadFile(perfFile("ubuild"))
	if err != nil {
		t.Fatal(err)
	}
	h, keys := headerKeys(t, data)
	var ps []*parsed
	for i, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] {
		ps = append(ps, &parsed{no: i + 2, raw: l, size: len(l)})
	}
	decodeBatch(ps, h, keys)
	for _, p := range ps {
		if p.err != nil || !p.Envelope.verified {
			t.Fatalf("line %d: %v, verified %v", p.no, p.err, p.Envelope.verified)
		}
	}
	for s, k := range keys {
		if k.(*playerKey).x != nil {
			t.Fatalf("seat %d: the batch made the key's single-signature table", s)
		}
	}
	good := *ps[0].Envelope
	good.verified, good.id = false, nil
	seat := h.Seat(good.From)
	if err := good.Verify(keys[seat]); err != nil {
		t.Fatalf("a good signature checked alone: %v", err)
	}
	if keys[seat].(*playerKey).x == nil {
		t.Fatal("checking a signature alone did not make the key's table")
	}
	forged := good
	forged.Seq++
	if err := forged.Verify(keys[seat]); !errors.Is(err, ErrSignature) {
		t.Fatalf("a signature over another message checked alone: %v", err)
	}
}
