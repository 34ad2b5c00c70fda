package fairness

import (
	"bytes"
	"crypto/ed25519"
	cryptorand "crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"strconv"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/oasisprotocol/curve25519-voi/curve"
	"github.com/oasisprotocol/curve25519-voi/curve/scalar"
)

// Every signature is verified by ZIP-215 (sigOptions), live and in the
// audit: the expanded player keys and a plain libp2p key must both give
// ZIP-215's answer, written out here from the rule itself with voi's
// curve arithmetic only (zip215). Every signature crypto/ed25519 accepts,
// which salvo/2 and every recorded match were checked by, must still
// verify. The attacker here is a player who chooses its own key and signs
// its own messages with crafted R, A and S: torsion added to R or A (the
// cofactored and cofactorless equations part there), small-order keys,
// non-canonical encodings of A and R, a "negative zero" encoding, S at or
// above the group order, and random corruption.
func TestPlayerKeyVerifiesZIP215(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(15, 4))
	cases := craftedCases(t, rng, func(label string) []byte { return []byte(label) })
	accepted, refused, beyondStdlib := 0, 0, 0
	for _, c := range cases {
		want := zip215(c.key, c.msg, c.sig)
		k, err := crypto.UnmarshalEd25519PublicKey(c.key)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := fastKey(k).Verify(c.msg, c.sig)
		plain, _ := verifySignature(k, c.msg, c.sig)
		if got != want || plain != want {
			t.Fatalf("%s: key %x sig %x: expanded key says %v, libp2p key %v, ZIP-215 says %v", c.name, c.key, c.sig, got, plain, want)
		}
		std := stdVerify(c.key, c.msg, c.sig)
		if std && !want {
			t.Fatalf("%s: key %x sig %x: crypto/ed25519 accepts what ZIP-215 refuses: an old record would not verify", c.name, c.key, c.sig)
		}
		switch {
		case want && !std:
			beyondStdlib++
		case want:
			accepted++
		default:
			refused++
		}
	}
	if accepted < 30 || refused < 30 || beyondStdlib < 10 {
		t.Fatalf("the cases are one-sided: %d accepted, %d refused, %d accepted by ZIP-215 only", accepted, refused, beyondStdlib)
	}
}

// craftedCases makes the signatures a key holder can craft, and some
// corrupted ones, over messages newMsg makes from a label.
func craftedCases(t testing.TB, rng *mrand.Rand, newMsg func(label string) []byte) []sigCase {
	torsion := torsionPoints(t, rng)
	var cases []sigCase
	for i := range 24 {
		a := randomScalar(rng)
		A := new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a)
		T := torsion[i%len(torsion)]
		msg := newMsg(fmt.Sprintf("salvo message %d", i))
		// Honest.
		cases = append(cases, sigCase{"honest", enc(A), msg, sign(rng, a, enc(A), msg, nil)})
		// Torsion added to R: only the cofactored equation accepts it.
		cases = append(cases, sigCase{"R+T", enc(A), msg, sign(rng, a, enc(A), msg, T)})
		// A mixed-order key: accepted by the cofactorless equation only
		// when k·T vanishes, so try messages until both outcomes appear.
		At := new(curve.EdwardsPoint).Add(A, T)
		for j := range 16 {
			m := newMsg(fmt.Sprintf("salvo message %d/%d", i, j))
			cases = append(cases, sigCase{"A+T", enc(At), m, sign(rng, a, enc(At), m, nil)})
		}
		// A small-order key (no secret at all): R = rB, S = r passes when k·T vanishes.
		for j := range 16 {
			m := newMsg(fmt.Sprintf("salvo message %d/small/%d", i, j))
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
			m := newMsg(fmt.Sprintf("odd key %x %d", key[:2], j))
			cases = append(cases, sigCase{"non-canonical A", key, m, sign(rng, scalar.New(), key, m, nil)})
		}
	}
	for j := range 8 {
		a := randomScalar(rng)
		A := enc(new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a))
		m := newMsg(fmt.Sprintf("identity R %d", j))
		for _, R := range [][]byte{nonCanonical(1, false), nonCanonical(1, true), enc(curve.NewEdwardsPoint().Identity())} {
			cases = append(cases, sigCase{"R of the identity", A, m, signWithR(a, A, m, scalar.New(), R)})
		}
	}
	return cases
}

// zip215 is ZIP-215's rule: S canonical (below L), A and R any encodings
// that decode, and [8]([S]B - R - [k]A) the identity, k = H(R, A, msg)
// over the bytes as given.
func zip215(key, msg, sig []byte) bool {
	if len(key) != 32 || len(sig) != 64 {
		return false
	}
	S, err := scalar.New().SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	var ca, cr curve.CompressedEdwardsY
	copy(ca[:], key)
	copy(cr[:], sig[:32])
	A, errA := new(curve.EdwardsPoint).SetCompressedY(&ca)
	R, errR := new(curve.EdwardsPoint).SetCompressedY(&cr)
	if errA != nil || errR != nil {
		return false
	}
	h := sha512.New()
	h.Write(sig[:32])
	h.Write(key)
	h.Write(msg)
	k, _ := scalar.NewFromBytesModOrderWide(h.Sum(nil))
	P := new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, S)
	P.Sub(P, R)
	P.Sub(P, new(curve.EdwardsPoint).Mul(A, k))
	return P.MulByCofactor(P).IsIdentity()
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
func torsionPoints(t testing.TB, rng *mrand.Rand) []*curve.EdwardsPoint {
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

// signedEnvelope is a crafted case as an envelope the audit's batch takes.
type signedEnvelope struct {
	e   Envelope
	key crypto.PubKey
}

// craftedEnvelopes returns the crafted cases (craftedCases) as envelopes
// whose signed digests are the cases' messages.
func craftedEnvelopes(tb testing.TB, seed uint64) []signedEnvelope {
	byDigest := map[string]Envelope{}
	newMsg := func(label string) []byte {
		e := Envelope{Match: "m", Seq: uint64(len(byDigest) + 1), From: "f", Prev: "p", Body: json.RawMessage(strconv.Quote(label))}
		d := e.signedDigest()
		byDigest[string(d[:])] = e
		return d[:]
	}
	var out []signedEnvelope
	for _, c := range craftedCases(tb, mrand.New(mrand.NewPCG(seed, 5)), newMsg) {
		k, err := crypto.UnmarshalEd25519PublicKey(c.key)
		if err != nil {
			tb.Fatal(err)
		}
		e := byDigest[string(c.msg)]
		e.Sig = base64.StdEncoding.EncodeToString(c.sig)
		out = append(out, signedEnvelope{e, fastKey(k)})
	}
	return out
}

// checkBatch checks the signatures of envs in one sigBatch and requires it
// to mark verified exactly those that single verification accepts, with
// the IDs single verification gives them.
func checkBatch(t *testing.T, envs []signedEnvelope) {
	t.Helper()
	var b sigBatch
	got := make([]*Envelope, len(envs))
	for i, s := range envs {
		e := s.e // a fresh copy, unverified
		got[i] = &e
		b.add(got[i], s.key)
	}
	b.verify()
	for i, s := range envs {
		single := s.e
		want := single.Verify(s.key) == nil
		if pk, ok := s.key.(*playerKey); ok {
			// The player key's own check against voi's ZIP-215 verifier.
			d := single.signedDigest()
			sig, _ := base64.StdEncoding.DecodeString(single.Sig)
			if byVoi, _ := verifySignature(pk.PubKey, d[:], sig); byVoi != want {
				t.Fatalf("entry %d (sig %s): the player key says %v, voi's ZIP-215 %v", i, s.e.Sig, want, byVoi)
			}
		}
		if got[i].verified != want {
			t.Fatalf("entry %d of %d (sig %s): batch marks verified %v, single verification says %v", i, len(envs), s.e.Sig, got[i].verified, want)
		}
		if want && got[i].Hash() != single.Hash() {
			t.Fatalf("entry %d: the batch kept another ID than the envelope's", i)
		}
	}
}

// The audit's batch (sigBatch) marks verified exactly the envelopes whose
// signatures single ZIP-215 verification accepts, whatever mix of crafted
// and corrupt signatures and of honest ones a batch holds: a failing
// batch must leave no bad one marked nor any good one unmarked.
func TestSigBatchAgreesWithSingle(t *testing.T) {
	all := craftedEnvelopes(t, 15)
	rng := mrand.New(mrand.NewPCG(15, 6))
	for range 150 {
		batch := make([]signedEnvelope, 1+rng.IntN(20))
		for i := range batch {
			batch[i] = all[rng.IntN(len(all))]
		}
		checkBatch(t, batch)
	}
}

// FuzzSigBatch is TestSigBatchAgreesWithSingle with the fuzzer choosing
// the batch: each pair of bytes picks a crafted envelope and a bit of its
// signature to flip (none for 0).
func FuzzSigBatch(f *testing.F) {
	all := craftedEnvelopes(f, 15)
	f.Add([]byte{0, 0, 1, 0, 2, 0})
	f.Add([]byte{0, 0, 0, 7, 1, 0, 1, 200})
	f.Fuzz(func(t *testing.T, picks []byte) {
		if len(picks) < 2 || len(picks) > 128 {
			return
		}
		var batch []signedEnvelope
		for i := 0; i+1 < len(picks); i += 2 {
			s := all[int(picks[i])%len(all)]
			if flip := int(picks[i+1]); flip != 0 {
				sig, _ := base64.StdEncoding.DecodeString(s.e.Sig)
				sig[(flip*7)%64] ^= byte(1 << (flip % 8))
				s.e.Sig = base64.StdEncoding.EncodeToString(sig)
			}
			batch = append(batch, s)
		}
		checkBatch(t, batch)
	})
}

// TestBindKeyIsBindingKeyThenFastKey checks that the header's one-decode
// key check refuses exactly the keys bindingKey refuses, with its words,
// and that the key it returns verifies as fastKey's does: over the crafted
// keys (mixed order among them), keys of small order, encodings that are
// no point, and a key that is not Ed25519.
func TestBindKeyIsBindingKeyThenFastKey(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(15, 8))
	cases := craftedCases(t, rng, func(label string) []byte { return []byte(label) })
	var keys []crypto.PubKey
	for _, c := range cases {
		k, err := crypto.UnmarshalEd25519PublicKey(c.key)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	var odd [][]byte
	for _, T := range torsionPoints(t, rng) {
		odd = append(odd, enc(T))
	}
	odd = append(odd, nonCanonical(1, false), nonCanonical(0, true), bytes.Repeat([]byte{0xff}, 32), make([]byte, 32))
	for y := range 8 {
		b := make([]byte, 32)
		b[0] = byte(2 + y) // some of these y are on no curve point
		odd = append(odd, b)
	}
	for _, raw := range odd {
		k, err := crypto.UnmarshalEd25519PublicKey(raw)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	_, secp, err := crypto.GenerateSecp256k1Key(cryptorand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys = append(keys, secp)
	refused := 0
	for i, k := range keys {
		got, err := bindKey(k)
		want := bindingKey(k)
		if errText(err) != errText(want) {
			t.Fatalf("key %d: bindKey says %q, bindingKey %q", i, errText(err), errText(want))
		}
		if err != nil {
			refused++
			continue
		}
		fast := fastKey(k)
		raw, _ := k.Raw()
		for _, c := range cases {
			if !bytes.Equal(c.key, raw) {
				continue
			}
			a, _ := got.Verify(c.msg, c.sig)
			b, _ := fast.Verify(c.msg, c.sig)
			if a != b {
				t.Fatalf("key %d: bindKey's key says %v, fastKey's %v", i, a, b)
			}
		}
		if p, ok := got.(*playerKey); !ok || p.a == nil {
			t.Fatalf("key %d: bindKey did not expand it for the batch", i)
		}
	}
	if refused < 5 {
		t.Fatalf("only %d keys refused", refused)
	}
}
