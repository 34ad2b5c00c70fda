package fairness

import (
	"bytes"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/oasisprotocol/curve25519-voi/curve"
	"github.com/oasisprotocol/curve25519-voi/curve/scalar"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"

	"github.com/salvo-game/salvo/engine/games"
)

// The attacker here has read sigkey.go: it signs its own messages (or
// none at all) with any 64 bytes, under a key of its own choosing, and
// wants the live referee's single check (playerKey.Verify), the audit's
// per-key batch (sigBatch) and voi's own ZIP-215 verifiers to disagree
// somewhere, or a key that somebody else can sign for to sit at a match.
// voi's single and batch ZIP-215 verifiers are the oracles here, not a
// rewrite of the rule.

// oddEncodings are every encoding that is not the canonical one of a
// curve point: y + p for y < 19 with either sign bit, and the "negative
// zero" sign bit on y = ±1 (x = 0). Those that decode are returned, with
// the canonical encoding of each small-order point too.
func oddEncodings(t testing.TB) (decodable [][]byte, small [][]byte) {
	t.Helper()
	seen := map[string]bool{}
	try := func(b []byte) {
		if seen[string(b)] {
			return
		}
		seen[string(b)] = true
		var c curve.CompressedEdwardsY
		copy(c[:], b)
		var P curve.EdwardsPoint
		if _, err := P.SetCompressedY(&c); err != nil {
			return
		}
		decodable = append(decodable, b)
		// Small order by [8]P computed as a scalar multiplication, not
		// by the IsSmallOrder the code under test uses.
		eight := scalar.New()
		_, _ = eight.SetBytesModOrder(append([]byte{8}, make([]byte, 31)...))
		if new(curve.EdwardsPoint).Mul(&P, eight).IsIdentity() {
			small = append(small, b)
		}
	}
	for y := byte(0); y < 19; y++ {
		try(nonCanonical(y, false))
		try(nonCanonical(y, true))
	}
	// Canonical small y (the small-order points among them: y = 0, ±1)
	// with both sign bits.
	for _, y := range []byte{0, 1} {
		for _, neg := range []bool{false, true} {
			b := make([]byte, 32)
			b[0] = y
			if neg {
				b[31] = 0x80
			}
			try(b)
		}
	}
	// y = -1 = p - 1 with both sign bits.
	for _, neg := range []bool{false, true} {
		b := nonCanonical(0, neg)
		b[0] = 0xec
		try(b)
	}
	// The canonical encodings of the eight torsion points.
	for _, T := range curve.EIGHT_TORSION {
		try(enc(T))
	}
	return decodable, small
}

// TestAttackSigOddEncodingsAgreeWithVoi: a key or an R in any odd
// encoding that decodes (non-canonical y, negative zero, small order,
// and the non-canonical encodings of points of large order, y + p for a
// small y that is on the curve), with S chosen freely (the nonce's S, S
// + L, the honest S, 0), gets the same answer from the player key, voi's
// ZIP-215 single verifier and voi's ZIP-215 batch verifier, and never an
// answer crypto/ed25519 would refuse where ZIP-215 accepts... the other
// way round: whatever crypto/ed25519 accepts, the player key accepts.
func TestAttackSigOddEncodingsAgreeWithVoi(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(8, 1))
	odd, small := oddEncodings(t)
	if len(small) < 8 || len(odd) <= len(small) {
		t.Fatalf("found %d decodable odd encodings, %d of small order: the list is short", len(odd), len(small))
	}
	book := msgBook{}
	var cases []sigCase
	for i := range 6 {
		a := randomScalar(rng)
		A := enc(new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a))
		keys := append([][]byte{A}, odd...)
		for ki, key := range keys {
			msg := book.msg(fmt.Sprintf("odd %d/%d", i, ki))
			secret := a
			if ki > 0 {
				secret = scalar.New() // nobody knows the odd key's logarithm: try 0
			}
			for _, R := range append([][]byte{nil}, odd...) {
				r := randomScalar(rng)
				var sig []byte
				if R == nil {
					sig = signWithR(secret, key, msg, r, enc(new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, r)))
				} else {
					sig = signWithR(secret, key, msg, scalar.New(), R) // R's logarithm taken as 0
				}
				cases = append(cases, sigCase{"crafted", key, msg, sig})
				cases = append(cases, sigCase{"S+L", key, msg, addOrder(sig)})
				zeroS := bytes.Clone(sig)
				clear(zeroS[32:])
				cases = append(cases, sigCase{"S=0", key, msg, zeroS})
			}
		}
	}
	checkAgainstVoi(t, book, cases, rng)
}

// TestAttackSigRandomAgreesWithVoi is the same differential check over
// random inputs with adversarial parts spliced in: an honest signature
// whose R, S or key is replaced by random bytes, a torsion point, an odd
// encoding, or the same signature for another message.
func TestAttackSigRandomAgreesWithVoi(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(8, 2))
	odd, _ := oddEncodings(t)
	torsion := torsionPoints(t, rng)
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	book := msgBook{}
	var cases []sigCase
	for i := range 300 {
		a := randomScalar(rng)
		Ap := new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a)
		if rng.IntN(3) == 0 {
			Ap.Add(Ap, torsion[rng.IntN(len(torsion))]) // a mixed-order key, legal
		}
		key := enc(Ap)
		msg := book.msg(string(random(rng.IntN(40))))
		var extra *curve.EdwardsPoint
		if rng.IntN(2) == 0 {
			extra = torsion[rng.IntN(len(torsion))]
		}
		sig := sign(rng, a, key, msg, extra)
		switch rng.IntN(7) {
		case 0:
			copy(sig[:32], random(32))
		case 1:
			copy(sig[32:], random(32))
		case 2:
			copy(sig[:32], odd[rng.IntN(len(odd))])
		case 3:
			key = odd[rng.IntN(len(odd))]
		case 4:
			msg = book.msg("another")
		case 5:
			sig = addOrder(sig)
		}
		cases = append(cases, sigCase{fmt.Sprintf("random %d", i), key, msg, sig})
	}
	checkAgainstVoi(t, book, cases, rng)
}

// msgBook maps each test message, the signed digest of an envelope, to
// that envelope, so that the cases go through sigBatch as envelopes too.
type msgBook map[string]Envelope

func (b msgBook) msg(label string) []byte {
	e := Envelope{Match: "m", Seq: uint64(len(b) + 1), From: "f", Prev: "p", Body: json.RawMessage(strconv.Quote(label))}
	d := e.signedDigest()
	b[string(d[:])] = e
	return d[:]
}

// checkAgainstVoi holds every case's player-key answer to voi's single
// ZIP-215 answer and to crypto/ed25519 (what it accepts must be
// accepted), and random batches of the cases, through sigBatch, to voi's
// ZIP-215 batch verifier's answer for each signature.
func checkAgainstVoi(t *testing.T, book msgBook, cases []sigCase, rng *mrand.Rand) {
	t.Helper()
	accepted := 0
	envs := make([]signedEnvelope, 0, len(cases))
	for _, c := range cases {
		k, err := crypto.UnmarshalEd25519PublicKey(c.key)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := fastKey(k).Verify(c.msg, c.sig)
		want := voi.VerifyWithOptions(voi.PublicKey(c.key), c.msg, c.sig, sigOptions)
		if got != want {
			t.Fatalf("%s: key %x sig %x: the player key says %v, voi's ZIP-215 verifier %v", c.name, c.key, c.sig, got, want)
		}
		if stdVerify(c.key, c.msg, c.sig) && !got {
			t.Fatalf("%s: key %x sig %x: crypto/ed25519 accepts what the player key refuses", c.name, c.key, c.sig)
		}
		if got {
			accepted++
		}
		if e, ok := book[string(c.msg)]; ok {
			e.Sig = base64.StdEncoding.EncodeToString(c.sig)
			envs = append(envs, signedEnvelope{e, fastKey(k)})
		}
	}
	if accepted == 0 || accepted == len(cases) {
		t.Fatalf("the cases are one-sided: %d of %d accepted", accepted, len(cases))
	}
	for range 40 {
		n := 2 + rng.IntN(30)
		batch := make([]signedEnvelope, n)
		bv := voi.NewBatchVerifier()
		for i := range batch {
			batch[i] = envs[rng.IntN(len(envs))]
			d := batch[i].e.signedDigest()
			sig, _ := base64.StdEncoding.DecodeString(batch[i].e.Sig)
			raw, _ := batch[i].key.Raw()
			bv.AddWithOptions(voi.PublicKey(raw), d[:], sig, sigOptions)
		}
		_, valid := bv.Verify(crand.Reader)
		var b sigBatch
		got := make([]*Envelope, n)
		for i := range batch {
			e := batch[i].e
			got[i] = &e
			b.add(got[i], batch[i].key)
		}
		b.verify()
		for i := range batch {
			if got[i].verified != valid[i] {
				t.Fatalf("batch entry %d of %d (key %s, sig %s): sigBatch marks it %v, voi's ZIP-215 batch verifier says %v", i, n, batch[i].key, batch[i].e.Sig, got[i].verified, valid[i])
			}
		}
	}
}

// TestAttackSigBatchCancellingPair: two bad signatures by one key, on the
// same message, whose errors are D and -D (S moved by +d and -d), pass
// any batch whose two weights are equal; a third pair moves one S by d
// and the other by -2d, which passes when one weight is twice the other.
// With weights drawn at random after the signatures are fixed neither
// may ever be marked verified.
func TestAttackSigBatchCancellingPair(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(8, 3))
	torsion := torsionPoints(t, rng)
	for trial := range 40 {
		a := randomScalar(rng)
		Ap := new(curve.EdwardsPoint).MulBasepoint(curve.ED25519_BASEPOINT_TABLE, a)
		if trial%2 == 1 {
			Ap.Add(Ap, torsion[trial%3])
		}
		pk, err := crypto.UnmarshalEd25519PublicKey(enc(Ap))
		if err != nil {
			t.Fatal(err)
		}
		key := fastKey(pk)
		e := Envelope{Match: "m", Seq: 1, From: "f", Prev: "p", Body: json.RawMessage(`"same"`)}
		d := e.signedDigest()
		delta := randomScalar(rng)
		for _, mult := range []int64{1, 2} {
			shift := func(sig []byte, by *scalar.Scalar) string {
				var S scalar.Scalar
				_, _ = S.SetCanonicalBytes(sig[32:])
				S.Add(&S, by)
				out := bytes.Clone(sig)
				_ = S.ToBytes(out[32:])
				return base64.StdEncoding.EncodeToString(out)
			}
			m := scalar.New()
			for range mult {
				m.Add(m, delta)
			}
			neg := new(scalar.Scalar).Neg(m)
			e1, e2 := e, e
			e1.Sig = shift(sign(rng, a, enc(Ap), d[:], torsion[0]), delta)
			e2.Sig = shift(sign(rng, a, enc(Ap), d[:], nil), neg)
			var b sigBatch
			b.add(&e1, key)
			b.add(&e2, key)
			if len(b.entries) != 2 {
				t.Fatalf("trial %d: the batch took %d of the two signatures", trial, len(b.entries))
			}
			b.verify()
			if e1.verified || e2.verified {
				t.Fatalf("trial %d (x%d): a pair of bad signatures whose errors cancel under related weights was marked verified (%v, %v)", trial, mult, e1.verified, e2.verified)
			}
		}
	}
}

// TestAttackBindingKeyRefusesForgeableKeys: every encoding of a
// small-order point, canonical or not, is refused by bindingKey (anyone
// signs any message for it: R = [r]B, S = r), and the forgery indeed
// verifies under it; every other odd encoding that decodes (a point of
// large order nobody knows the logarithm of) resists that forgery. The
// host's check of a joiner's peer ID (CheckPeerKey) and a header naming
// the key (Header.check, live and in the audit) say the same.
func TestAttackBindingKeyRefusesForgeableKeys(t *testing.T) {
	odd, small := oddEncodings(t)
	host := testKeys(t, 1)[0]
	isSmall := map[string]bool{}
	for _, s := range small {
		isSmall[string(s)] = true
	}
	for _, key := range odd {
		pk, err := crypto.UnmarshalEd25519PublicKey(key)
		if err != nil {
			t.Fatal(err)
		}
		forged := 0
		for j := range 8 {
			msg := []byte(fmt.Sprintf("forged %d", j))
			sig := signWithR(scalar.New(), key, msg, scalar.One(), enc(curve.ED25519_BASEPOINT_POINT))
			if ok, _ := fastKey(pk).Verify(msg, sig); ok {
				forged++
			}
		}
		refused := bindingKey(pk) != nil
		id, err := peer.IDFromPublicKey(pk)
		if err != nil {
			t.Fatal(err)
		}
		if byPeer := CheckPeerKey(id) != nil; byPeer != refused {
			t.Errorf("key %x: bindingKey refuses it %v, CheckPeerKey (the host's check of a joiner) %v", key, refused, byPeer)
		}
		if _, err := NewMatch(peekSpec, headerWith(t, host, pk)); (err != nil) != refused {
			t.Errorf("key %x: bindingKey refuses it %v, a header naming it fails to check: %v", key, refused, err)
		}
		if isSmall[string(key)] {
			if !refused {
				t.Errorf("key %x of small order: bindingKey accepts it, and anyone signs for it (%d of 8 forgeries verify)", key, forged)
			}
			if forged != 8 {
				t.Errorf("key %x of small order: only %d of 8 forgeries verify, the test's forgery is wrong", key, forged)
			}
		} else if forged != 0 {
			t.Errorf("key %x of large order: %d forgeries verify", key, forged)
		}
	}
}

// The audit's batch checks each line against the key of the seat the line
// names (Header.Seat(From)); a line signed by any other key must fail
// exactly as it does line by line: re-signed by a key that is not the
// header's (From kept, or From turned to that key's peer, no player), or
// named as another player's while its signature stays its own sender's.
// Each is put at a random line of clean records, in the middle of a batch.
func TestAttackAuditBatchForeignKeys(t *testing.T) {
	rng := mrand.New(mrand.NewPCG(8, 5))
	stranger, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	forge := map[string]func(e *Envelope, h Header){
		"re-signed by a stranger, From kept": func(e *Envelope, _ Header) {
			from := e.From
			if err := e.Sign(stranger); err != nil {
				t.Fatal(err)
			}
			e.From = from
		},
		"re-signed by a stranger, From the stranger": func(e *Envelope, _ Header) {
			if err := e.Sign(stranger); err != nil {
				t.Fatal(err)
			}
		},
		"named as another player's": func(e *Envelope, h Header) {
			for _, p := range h.Players {
				if p.Peer != e.From {
					e.From = p.Peer
					return
				}
			}
		},
	}
	for _, name := range []string{"cards-standard-2p.jsonl", "air-standard-3p.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		h, _, err := ReadTranscript(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		for what, f := range forge {
			for range 4 {
				i := 2 + rng.IntN(min(len(lines)-3, 100))
				e, err := DecodeEnvelope(bytes.TrimRight(lines[i], "\n"))
				if err != nil {
					continue // a closing record
				}
				f(e, h)
				b, err := EncodeEnvelope(e)
				if err != nil {
					t.Fatal(err)
				}
				bad := slices.Clone(lines)
				bad[i] = append(b, '\n')
				file := bytes.Join(bad, nil)
				want := auditLineByLine(t, file)
				got, err := Audit(bytes.NewReader(file), games.Spec)
				if err != nil {
					t.Fatal(err)
				}
				if want.Verdict == Clean || got.Verdict == Clean {
					t.Fatalf("%s, %s at line %d: audits clean (batched %s, line by line %s)", name, what, i+1, got.Summary(), want.Summary())
				}
				if got.Verdict != want.Verdict || got.Line != want.Line || got.Summary() != want.Summary() {
					t.Fatalf("%s, %s at line %d: batched audit says %s at line %d, line by line %s at line %d", name, what, i+1, got.Summary(), got.Line, want.Summary(), want.Line)
				}
			}
		}
	}
}
