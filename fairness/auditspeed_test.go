package fairness

import (
	"math/rand/v2"
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
