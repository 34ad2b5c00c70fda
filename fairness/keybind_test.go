package fairness

import (
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	pb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/oasisprotocol/curve25519-voi/curve"
)

// forgerKey is a "private key" for an Ed25519 public key of small order:
// it has no secret, and it signs anything by R = B, S = 1, which ZIP-215's
// cofactored equation accepts for such a key whatever the message
// ([8]B = [8]B + [8k]A with [8]A the identity). Anyone can hold one for
// anyone else's small-order key.
type forgerKey struct{ pub []byte }

func (k forgerKey) Equals(o crypto.Key) bool { return crypto.KeyEqual(k, o) }
func (k forgerKey) Raw() ([]byte, error)     { return k.pub, nil }
func (k forgerKey) Type() pb.KeyType         { return pb.KeyType_Ed25519 }
func (k forgerKey) GetPublic() crypto.PubKey {
	p, _ := crypto.UnmarshalEd25519PublicKey(k.pub)
	return p
}
func (k forgerKey) Sign([]byte) ([]byte, error) {
	S := make([]byte, 32)
	S[0] = 1 // little-endian 1
	return append(enc(curve.ED25519_BASEPOINT_POINT), S...), nil
}

// headerWith is a two-player peek header whose seat 1 is the peer of pub.
func headerWith(t *testing.T, host crypto.PrivKey, pub crypto.PubKey) Header {
	t.Helper()
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	h := testHeader(t, peekSpec, []crypto.PrivKey{host, host})
	h.Players[1].Peer = id.String()
	cid, err := h.ComputeID()
	if err != nil {
		t.Fatal(err)
	}
	h.Match = hexDigest(cid)
	return h
}

// hostOpening is the host's first message of a peek match: its hello and
// its commitment, sealed on m.
func hostOpening(t *testing.T, m *Match, key crypto.PrivKey) *Envelope {
	t.Helper()
	bot := &peekBot{r: mrand.New(mrand.NewPCG(2, 9))}
	ins := []WireInput{{T: InHello, Tip: hexDigest(Digest{1}), Links: 4}, commitOf(t, m, 0, bot)}
	for _, in := range ins {
		if _, err := m.Stage(0, in); err != nil {
			t.Fatal(err)
		}
	}
	e, err := m.Seal(0, ins, key)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A seat's signatures bind it only if nobody else can make them. Two kinds
// of peer key that libp2p accepts (a peer ID embeds the key, and libp2p's
// own handshakes check a small-order Ed25519 key by crypto/ed25519, which
// a forger passes as easily) break that: an Ed25519 key of small order,
// for which ZIP-215 accepts R = B, S = 1 on any message, so the host signs
// the joiner's resignation and wins; and a secp256k1 key, whose ECDSA
// signature (r, s) anyone turns into the other valid one (r, n-s), a
// second, different message at the same place: an equivocation the match
// pins on the joiner, who sent one message. A header naming such a key
// must be refused, live and in the audit (both check it by Header.check).
func TestHeaderRefusesKeysOthersCanSignFor(t *testing.T) {
	keys := testKeys(t, 1)
	rng := mrand.New(mrand.NewPCG(15, 29))
	smalls := [][]byte{
		enc(curve.NewEdwardsPoint().Identity()),
		nonCanonical(1, false), nonCanonical(0, false), nonCanonical(1, true),
	}
	for _, T := range torsionPoints(t, rng) {
		smalls = append(smalls, enc(T), enc(new(curve.EdwardsPoint).Neg(T)))
	}
	for _, raw := range smalls {
		forger := forgerKey{pub: raw}
		h := headerWith(t, keys[0], forger.GetPublic())
		if _, err := NewMatch(peekSpec, h); err == nil {
			// The host forges the joiner's resignation.
			m0, _ := NewMatch(peekSpec, h)
			e0 := hostOpening(t, m0, keys[0])
			in := WireInput{T: InResign}
			if _, err := m0.Stage(1, in); err != nil {
				t.Fatal(err)
			}
			e1, err := m0.Seal(1, []WireInput{in}, forger)
			if err != nil {
				t.Fatal(err)
			}
			victim, _ := NewMatch(peekSpec, h)
			_, err0 := victim.Accept(e0)
			_, err1 := victim.Accept(e1)
			t.Fatalf("a header with the small-order key %x is taken; the host signs the joiner's resignation: %v, %v, outcome %+v",
				raw, err0, err1, victim.Outcome())
		}
	}

	sk, _, err := crypto.GenerateSecp256k1Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := headerWith(t, keys[0], sk.GetPublic())
	if _, err := NewMatch(peekSpec, h); err == nil {
		m0, _ := NewMatch(peekSpec, h)
		m1, _ := NewMatch(peekSpec, h)
		e0 := hostOpening(t, m0, keys[0])
		if _, err := m1.Accept(e0); err != nil {
			t.Fatal(err)
		}
		// The joiner commits honestly, once.
		bot := &peekBot{r: mrand.New(mrand.NewPCG(3, 3))}
		ins := []WireInput{{T: InHello, Tip: hexDigest(Digest{2}), Links: 4}, commitOf(t, m1, 1, bot)}
		for _, in := range ins {
			if _, err := m1.Stage(1, in); err != nil {
				t.Fatal(err)
			}
		}
		e1, err := m1.Seal(1, ins, sk)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m0.Accept(e1); err != nil {
			t.Fatal(err)
		}
		// Anyone who saw it makes its twin.
		twin := *e1
		twin.verified, twin.id = false, nil
		twin.Sig = mauledECDSA(t, e1.Sig)
		_, err = m0.Accept(&twin)
		var v *Violation
		if errors.As(err, &v) && v.Seat == 1 && errors.Is(err, ErrEquivocation) {
			t.Fatalf("a header with a secp256k1 key is taken; anyone frames its holder: %v", err)
		}
		t.Fatalf("a header with a secp256k1 key is taken (its mauled signature: %v)", err)
	}
}

// mauledECDSA returns the other valid form of a DER ECDSA signature over
// secp256k1: (r, n-s).
func mauledECDSA(t *testing.T, b64 string) string {
	t.Helper()
	der, err := canonicalBase64(b64)
	if err != nil {
		t.Fatal(err)
	}
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &sig); err != nil {
		t.Fatal(err)
	}
	n, _ := new(big.Int).SetString("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16)
	sig.S.Sub(n, sig.S)
	out, err := asn1.Marshal(sig)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(out)
}
