package fairness

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha512"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/oasisprotocol/curve25519-voi/curve"
	"github.com/oasisprotocol/curve25519-voi/curve/scalar"
)

// The expanded player keys must accept exactly the signatures
// crypto/ed25519 accepts: the live referee of an older Salvo and every
// recorded match were checked by crypto/ed25519, and a signature the
// auditor judges differently from a live peer splits the audit from the
// match. The attacker here is a player who chooses its own key and signs
// its own messages with crafted R, A and S: torsion added to R or A (the
// cofactored and cofactorless equations part there), small-order keys,
// non-canonical encodings of A and R, a "negative zero" encoding, S at or
// above the group order, and random corruption.
func TestPlayerKeyVerifiesAsStdlib(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(15, 4))
	torsion := torsionPoints(t, rng)
	var cases []sigCase
	for i := range 24 {
		a := randomScalar(rng)
		A := new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a)
		T := torsion[i%len(torsion)]
		msg := []byte(fmt.Sprintf("salvo message %d", i))
		// Honest.
		cases = append(cases, sigCase{"honest", enc(A), msg, sign(rng, a, enc(A), msg, nil)})
		// Torsion added to R: only the cofactored equation accepts it.
		cases = append(cases, sigCase{"R+T", enc(A), msg, sign(rng, a, enc(A), msg, T)})
		// A mixed-order key: accepted by the cofactorless equation only
		// when k·T vanishes, so try messages until both outcomes appear.
		At := new(curve.EdwardsPoint).Add(A, T)
		for j := range 16 {
			m := fmt.Appendf(nil, "%s/%d", msg, j)
			cases = append(cases, sigCase{"A+T", enc(At), m, sign(rng, a, enc(At), m, nil)})
		}
		// A small-order key (no secret at all): R = rB, S = r passes when k·T vanishes.
		for j := range 16 {
			m := fmt.Appendf(nil, "%s/small/%d", msg, j)
			cases = append(cases, sigCase{"small A", enc(T), m, sign(rng, scalar.New(), enc(T), m, nil)})
		}
		// S + L: the same signature with a non-canonical S.
		good := sign(rng, a, enc(A), msg, nil)
		cases = append(cases, sigCase{"S+L", enc(A), msg, addOrder(good)})
		// Random corruption of a good signature and of its key.
		bad := bytes.Clone(good)
		bad[rng.IntN(64)] ^= byte(1 << rng.IntN(8))
		cases = append(cases, sigCase{"flipped sig bit", enc(A), msg, bad})
		badKey := enc(A)
		badKey[rng.IntN(32)] ^= byte(1 << rng.IntN(8))
		cases = append(cases, sigCase{"flipped key bit", badKey, msg, good})
	}
	// Non-canonical and sign-bit encodings of small-order keys: y = 1 + p
	// (the identity), y = p (a point of order 4), the identity's "negative
	// zero", and a non-canonical R of the identity with S = k·a.
	for _, key := range [][]byte{nonCanonical(1, false), nonCanonical(0, false), nonCanonical(1, true), nonCanonical(0, true)} {
		for j := range 16 {
			m := fmt.Appendf(nil, "odd key %x %d", key[:2], j)
			cases = append(cases, sigCase{"non-canonical A", key, m, sign(rng, scalar.New(), key, m, nil)})
		}
	}
	for j := range 8 {
		a := randomScalar(rng)
		A := enc(new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a))
		m := fmt.Appendf(nil, "identity R %d", j)
		for _, R := range [][]byte{nonCanonical(1, false), nonCanonical(1, true), enc(curve.NewEdwardsPoint().Identity())} {
			cases = append(cases, sigCase{"R of the identity", A, m, signWithR(a, A, m, scalar.New(), R)})
		}
	}
	accepted, refused := 0, 0
	for _, c := range cases {
		want := stdVerify(c.key, c.msg, c.sig)
		k, err := crypto.UnmarshalEd25519PublicKey(c.key)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := fastKey(k).Verify(c.msg, c.sig)
		if got != want {
			t.Fatalf("%s: key %x sig %x: expanded key says %v, crypto/ed25519 says %v", c.name, c.key, c.sig, got, want)
		}
		if want {
			accepted++
		} else {
			refused++
		}
	}
	if accepted < 30 || refused < 30 {
		t.Fatalf("the cases are one-sided: %d accepted, %d refused", accepted, refused)
	}
}

type sigCase struct {
	name          string
	key, msg, sig []byte
}

// stdVerify is crypto/ed25519's answer, false where it would panic.
func stdVerify(key, msg, sig []byte) bool {
	return len(key) == ed25519.PublicKeySize && ed25519.Verify(key, msg, sig)
}

func randomScalar(rng *mrand.Rand) *scalar.Scalar {
	var b [64]byte
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	s, _ := scalar.NewFromBytesModOrderWide(b[:])
	return s
}

func enc(p *curve.EdwardsPoint) []byte {
	var c curve.CompressedEdwardsY
	c.SetEdwardsPoint(p)
	return bytes.Clone(c[:])
}

// sign makes an Ed25519 signature by secret a under the key encoding key,
// with extra (if not nil) added to R.
func sign(rng *mrand.Rand, a *scalar.Scalar, key, msg []byte, extra *curve.EdwardsPoint) []byte {
	r := randomScalar(rng)
	R := new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, r)
	if extra != nil {
		R.Add(R, extra)
	}
	return signWithR(a, key, msg, r, enc(R))
}

// signWithR finishes a signature whose R is encoded as R and whose nonce is r.
func signWithR(a *scalar.Scalar, key, msg []byte, r *scalar.Scalar, R []byte) []byte {
	h := sha512.New()
	h.Write(R)
	h.Write(key)
	h.Write(msg)
	k, _ := scalar.NewFromBytesModOrderWide(h.Sum(nil))
	S := new(scalar.Scalar).Mul(k, a)
	S.Add(S, r)
	sig := make([]byte, 64)
	copy(sig, R)
	_ = S.ToBytes(sig[32:])
	return sig
}

// addOrder returns sig with L added to its S (still below 2^256 for any
// reduced S).
func addOrder(sig []byte) []byte {
	L := [32]byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 31: 0x10}
	out := bytes.Clone(sig)
	carry := 0
	for i := range 32 {
		v := int(out[32+i]) + int(L[i]) + carry
		out[32+i], carry = byte(v), v>>8
	}
	return out
}

// nonCanonical returns y + p encoded (y < 19), with the sign bit if neg.
func nonCanonical(y byte, neg bool) []byte {
	b := make([]byte, 32)
	for i := range b {
		b[i] = 0xff
	}
	b[0] = 0xed + y // p = 2^255 - 19: its low byte is 0xed
	b[31] = 0x7f
	if neg {
		b[31] |= 0x80
	}
	return b
}

// torsionPoints finds points of order 2, 4 and 8: [L]P for points P that
// decode from random bytes.
func torsionPoints(t *testing.T, rng *mrand.Rand) []*curve.EdwardsPoint {
	lMinus1 := new(scalar.Scalar).Sub(scalar.New(), scalar.One())
	orders := map[int]*curve.EdwardsPoint{}
	for tries := 0; len(orders) < 3 && tries < 1000; tries++ {
		var c curve.CompressedEdwardsY
		for i := range c {
			c[i] = byte(rng.Uint32())
		}
		P, err := new(curve.EdwardsPoint).SetCompressedY(&c)
		if err != nil {
			continue
		}
		T := new(curve.EdwardsPoint).Mul(P, lMinus1)
		T.Add(T, P)
		order := 1
		for Q := new(curve.EdwardsPoint).Set(T); !Q.IsIdentity(); Q.Add(Q, T) {
			order++
		}
		if order > 1 {
			orders[order] = T
		}
	}
	if len(orders) < 3 {
		t.Fatalf("found torsion points of orders %v only", orders)
	}
	return []*curve.EdwardsPoint{orders[2], orders[4], orders[8]}
}
