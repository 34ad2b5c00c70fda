package fairness

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIsHexOfAsComparingHex holds isHexOf(s, d) to hexDigest(d) == s, the
// comparison it replaces in the referee's checks of match, prev and state,
// for the right digits and for every kind of wrong ones: another digest,
// one digit changed, upper case, too short, too long, not hex at all.
func TestIsHexOfAsComparingHex(t *testing.T) {
	bits := rand.NewChaCha8([32]byte{15, 8})
	pick := rand.New(bits).IntN
	wrong := []func(s string) string{
		func(s string) string { return s },
		func(s string) string {
			i := pick(len(s))
			return s[:i] + string("0123456789abcdefABCDEFxg"[pick(24)]) + s[i+1:]
		},
		strings.ToUpper,
		func(s string) string { return s[:pick(len(s))] },
		func(s string) string { return s + "0" },
		func(string) string { return hexDigest(Digest{byte(pick(2))}) },
		func(string) string { return strings.Repeat("z", 64) },
	}
	var d Digest
	for n := range 20000 {
		bits.Read(d[:])
		s := wrong[n%len(wrong)](hexDigest(d))
		if got, want := isHexOf(s, d), hexDigest(d) == s; got != want {
			t.Fatalf("isHexOf(%q, %x) = %v, comparing the hex gives %v", s, d, got, want)
		}
	}
}
