package fairness

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha512"
	"errors"
	"fmt"
	"sync"

	"github.com/libp2p/go-libp2p/core/crypto"
	pb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/oasisprotocol/curve25519-voi/curve"
	"github.com/oasisprotocol/curve25519-voi/curve/scalar"
	voi "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// Salvo's signatures (envelopes and closing records) are verified under
// one rule everywhere, live and in the audit: ZIP-215, the cofactored
// Ed25519 equation with S < L and any encoding of A and R that decodes.
// ZIP-215 exists so that single and batch verification accept exactly the
// same signatures: the audit checks a window of lines in one batch (issue
// 15: the signature check was over a third of an audit) and still reaches
// the verdict a live referee, checking one message at a time, reaches.
//
// Salvo before salvo/3 verified with crypto/ed25519's cofactorless rule,
// which batch verification cannot reproduce. Every signature that rule
// accepts, ZIP-215 accepts too (an R equal to [S]B - [k]A satisfies the
// cofactored equation; S < L in both; crypto/ed25519 decodes no A that
// ZIP-215 refuses), so every recorded match still verifies. ZIP-215
// accepts more only from a key holder crafting its own signatures with
// torsion in R or A (docs/THREAT-MODEL.md): a signature that proves the
// same thing, since nobody without the secret key can make one.
// TestPlayerKeyVerifiesZIP215 tries the crafted edge cases.
var sigOptions = &voi.Options{Verify: voi.VerifyOptionsZIP_215}

// bindingKey refuses a player key whose signatures would not bind its
// holder, because someone else can make them too: any key but Ed25519
// (libp2p's secp256k1 and ECDSA signatures are (r, s) pairs that anyone
// turns into the valid (r, n-s), a second message at the same place that
// the match takes for its sender's equivocation), and an Ed25519 key of
// small order, for which ZIP-215's cofactored equation accepts R = B,
// S = 1 on any message (it also covers the non-canonical encodings of
// such points, the only keys with more than one encoding). libp2p takes
// both kinds of peer ID, and no honest Salvo ever makes one: it generates
// Ed25519 keys, of prime order.
func bindingKey(k crypto.PubKey) error {
	_, _, err := bindingPoint(k)
	return err
}

// bindingPoint is bindingKey that also returns the key's encoding and the
// point it decodes to, for the header to expand without decoding it again
// (bindKey).
func bindingPoint(k crypto.PubKey) ([]byte, *curve.EdwardsPoint, error) {
	if k.Type() != pb.KeyType_Ed25519 {
		return nil, nil, fmt.Errorf("a %s key: Salvo's signatures are Ed25519, whose signatures nobody but the key holder can alter", k.Type())
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, nil, fmt.Errorf("an Ed25519 key of %d bytes", len(raw))
	}
	var c curve.CompressedEdwardsY
	copy(c[:], raw)
	var A curve.EdwardsPoint
	if _, err := A.SetCompressedY(&c); err != nil {
		return nil, nil, fmt.Errorf("an Ed25519 key that is no curve point: %w", err)
	}
	if A.IsSmallOrder() {
		return nil, nil, errors.New("an Ed25519 key of small order, for which anyone can make a valid signature")
	}
	return raw, &A, nil
}

// bindKey refuses k as bindingKey does, and returns it expanded as fastKey
// does, decoding its point once: a header's keys were each decoded three
// times, a few hundredths of a short match's audit (issue 15).
func bindKey(k crypto.PubKey) (crypto.PubKey, error) {
	raw, A, err := bindingPoint(k)
	if err != nil {
		return nil, err
	}
	return expandedKey(k, raw, A), nil
}

// CheckPeerKey reports why the key of peer p cannot sit at a match: a
// header naming it is refused (bindingKey), so a host turns such a joiner
// away before it builds the header, and one bad joiner cannot break a
// table up.
func CheckPeerKey(p peer.ID) error {
	k, err := p.ExtractPublicKey()
	if err != nil {
		return fmt.Errorf("the peer ID carries no public key: %w", err)
	}
	return bindingKey(k)
}

// playerKey is a player's Ed25519 identity key, expanded once per match
// for verification: every signature of a match is under one of its few
// players' keys, and curve25519-voi's precomputed tables for a key verify
// faster than crypto/ed25519 and let the audit batch them.
type playerKey struct {
	crypto.PubKey
	// raw is the key's encoding, which Ed25519's hash takes; a is the
	// point it encodes, with its table, for the audit's batches
	// (sigBatch).
	raw []byte
	a   *curve.ExpandedEdwardsPoint
	// x is the key expanded for verifying one signature at a time, made
	// the first time one is: an audit whose batches all hold never needs
	// it, and making it was a fiftieth of a short match's audit (issue 15).
	xOnce sync.Once
	x     *voi.ExpandedPublicKey
}

// verify reports whether sig is k's signature of msg by ZIP-215, one
// signature alone.
func (k *playerKey) verify(msg, sig []byte) bool {
	k.xOnce.Do(func() { k.x, _ = voi.NewExpandedPublicKey(voi.PublicKey(k.raw)) })
	if k.x == nil {
		return voi.VerifyWithOptions(voi.PublicKey(k.raw), msg, sig, sigOptions)
	}
	return voi.VerifyExpandedWithOptions(k.x, msg, sig, sigOptions)
}

// fastKey returns k expanded for verification, or k itself when it is not
// an Ed25519 key or does not decode (verifySignature then answers).
func fastKey(k crypto.PubKey) crypto.PubKey {
	if k.Type() != pb.KeyType_Ed25519 {
		return k
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return k
	}
	var c curve.CompressedEdwardsY
	copy(c[:], raw)
	var A curve.EdwardsPoint
	if _, err := A.SetCompressedY(&c); err != nil {
		return k
	}
	return expandedKey(k, raw, &A)
}

// expandedKey returns k, whose encoding raw decodes to A, expanded for
// verification. ZIP-215 decodes A as voi does (any encoding that
// decodes), so voi takes every key that decodes; were it to refuse one
// (playerKey.verify), voi's own verification of the raw key answers.
func expandedKey(k crypto.PubKey, raw []byte, A *curve.EdwardsPoint) crypto.PubKey {
	return &playerKey{PubKey: k, raw: raw, a: curve.NewExpandedEdwardsPoint(A)}
}

// Verify reports whether sig is k's signature of data, by ZIP-215.
func (k *playerKey) Verify(data, sig []byte) (bool, error) {
	if len(sig) != ed25519.SignatureSize {
		return false, nil
	}
	return k.verify(data, sig), nil
}

// verifySignature reports whether sig is pub's signature of data by
// Salvo's rule: ZIP-215 for an Ed25519 key however it came (a player key
// of a header, or a libp2p key, whose own Verify is crypto/ed25519's
// cofactorless rule), the key type's own rule for any other type.
func verifySignature(pub crypto.PubKey, data, sig []byte) (bool, error) {
	if k, ok := pub.(*playerKey); ok {
		return k.Verify(data, sig)
	}
	if pub.Type() != pb.KeyType_Ed25519 {
		return pub.Verify(data, sig)
	}
	raw, err := pub.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return false, nil
	}
	return voi.VerifyWithOptions(voi.PublicKey(raw), data, sig, sigOptions), nil
}

// sigBatch checks the signatures of several envelopes at once (the audit's
// window of lines read ahead). It only ever marks an envelope verified:
// an envelope it cannot take (a key that is not an expanded Ed25519 key, a
// signature that does not decode) or whose signature fails is left
// unverified, and the replay checks that one on its own (Match.check) and
// reports what it finds, exactly as without batching.
//
// The batch is ZIP-215's batch equation, which is why the rule was chosen
// (see sigOptions): for random 128-bit weights z_i,
//
//	[8]( Σ z_i·R_i + Σ (z_i·k_i)·A_i − (Σ z_i·s_i)·B ) = 0
//
// with k_i = SHA-512(R_i ‖ A_i ‖ message_i). It holds whenever every
// signature's own cofactored equation [8](R_i + k_i·A_i − s_i·B) = 0
// holds; when one fails, the sum of the failing terms (each a nonzero
// element of the prime-order group once multiplied by 8) vanishes for at
// most one value of that signature's weight modulo the group order, so
// with weights drawn from crypto/rand after the signatures were fixed a
// bad batch passes with probability at most 2^-128. The sum is
// written with one term per player key rather than one per signature
// (Σ over a key's signatures of z_i·k_i is one scalar): a match has two
// to four keys, so a batch of n signatures is a multiscalar
// multiplication of n + 5 points, not voi's 2n + 1 (issue 15: the
// signatures were a third of a two-player audit). The decoding of R, S
// and A is voi's under ZIP-215 (S < L, R and A any encoding that
// decodes), so the batch accepts exactly what single verification does.
type sigBatch struct {
	entries []sigEntry
}

// sigEntry is one signature of a batch, unpacked.
type sigEntry struct {
	env    *Envelope
	digest Digest
	key    *playerKey
	msg    []byte // what is signed: digest, for an envelope
	sig    []byte
	r      curve.EdwardsPoint
	s, k   scalar.Scalar
}

// add puts e, signed by pub, in the batch.
func (b *sigBatch) add(e *Envelope, pub crypto.PubKey) { b.addDecoded(e, pub, nil) }

// addDecoded is add given e's signature decoded from its canonical base64
// (nil: decode it here).
func (b *sigBatch) addDecoded(e *Envelope, pub crypto.PubKey, sig []byte) {
	k, ok := pub.(*playerKey)
	if !ok || k.a == nil {
		return
	}
	if sig == nil {
		var err error
		if sig, err = canonicalBase64(e.Sig); err != nil {
			return
		}
	}
	if len(sig) != ed25519.SignatureSize {
		return
	}
	b.entries = append(b.entries, sigEntry{env: e, digest: e.signedDigest(), key: k, sig: sig})
	en := &b.entries[len(b.entries)-1]
	en.msg = en.digest[:]
	if !en.unpack() {
		b.entries = b.entries[:len(b.entries)-1] // left to the replay, which says why
	}
}

// unpack decodes R and S as voi does under ZIP-215 and computes k.
func (en *sigEntry) unpack() bool {
	if !scalar.ScMinimalVartime(en.sig[32:]) {
		return false
	}
	var c curve.CompressedEdwardsY
	copy(c[:], en.sig[:32])
	if _, err := en.r.SetCompressedY(&c); err != nil {
		return false
	}
	if _, err := en.s.SetBytesModOrder(en.sig[32:]); err != nil {
		return false
	}
	h := sha512.New()
	h.Write(en.sig[:32])
	h.Write(en.key.raw)
	h.Write(en.msg)
	var sum [sha512.Size]byte
	_, err := en.k.SetBytesModOrderWide(h.Sum(sum[:0]))
	return err == nil
}

// verify checks the batch and marks every envelope whose signature holds.
// A batch that fails is checked one signature at a time, so that every
// good one is still marked and no bad one is.
func (b *sigBatch) verify() {
	if len(b.entries) == 0 {
		return
	}
	all := b.holds()
	for i := range b.entries {
		en := &b.entries[i]
		if all || en.key.verify(en.msg, en.sig) {
			en.env.markVerified(en.digest)
		}
	}
}

// expandedBase is the Ed25519 base point with voi's table, for holds.
var expandedBase = curve.NewExpandedEdwardsPoint(curve.ED25519_BASEPOINT_POINT)

// holds reports whether the batch equation holds (see sigBatch).
func (b *sigBatch) holds() bool {
	n := len(b.entries)
	seed := make([]byte, 16*n)
	if _, err := rand.Read(seed); err != nil {
		return false // every signature is then checked on its own
	}
	zs := make([]scalar.Scalar, n)
	rs := make([]*curve.EdwardsPoint, n)
	dynamic := make([]*scalar.Scalar, n)
	var baseCoeff scalar.Scalar
	static := []*curve.ExpandedEdwardsPoint{expandedBase}
	coeffs := []*scalar.Scalar{&baseCoeff}
	keyAt := map[*playerKey]int{}
	for i := range b.entries {
		en := &b.entries[i]
		var wide [32]byte
		copy(wide[:16], seed[16*i:])
		if _, err := zs[i].SetBytesModOrder(wide[:]); err != nil {
			return false
		}
		rs[i], dynamic[i] = &en.r, &zs[i]
		var t scalar.Scalar
		baseCoeff.Sub(&baseCoeff, t.Mul(&zs[i], &en.s))
		at, ok := keyAt[en.key]
		if !ok {
			at = len(static)
			keyAt[en.key] = at
			static = append(static, en.key.a)
			coeffs = append(coeffs, scalar.New())
		}
		coeffs[at].Add(coeffs[at], t.Mul(&zs[i], &en.k))
	}
	var sum curve.EdwardsPoint
	return sum.ExpandedMultiscalarMulVartime(coeffs, static, dynamic, rs).IsSmallOrder()
}
