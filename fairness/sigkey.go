package fairness

import (
	"crypto/ed25519"
	"errors"
	"fmt"

	"github.com/libp2p/go-libp2p/core/crypto"
	pb "github.com/libp2p/go-libp2p/core/crypto/pb"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/oasisprotocol/curve25519-voi/curve"
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
	if k.Type() != pb.KeyType_Ed25519 {
		return fmt.Errorf("a %s key: Salvo's signatures are Ed25519, whose signatures nobody but the key holder can alter", k.Type())
	}
	raw, err := k.Raw()
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return fmt.Errorf("an Ed25519 key of %d bytes", len(raw))
	}
	var c curve.CompressedEdwardsY
	copy(c[:], raw)
	var A curve.EdwardsPoint
	if _, err := A.SetCompressedY(&c); err != nil {
		return fmt.Errorf("an Ed25519 key that is no curve point: %w", err)
	}
	if A.IsSmallOrder() {
		return errors.New("an Ed25519 key of small order, for which anyone can make a valid signature")
	}
	return nil
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
	x *voi.ExpandedPublicKey
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
	x, err := voi.NewExpandedPublicKey(voi.PublicKey(raw))
	if err != nil {
		return k
	}
	return &playerKey{PubKey: k, x: x}
}

// Verify reports whether sig is k's signature of data, by ZIP-215.
func (k *playerKey) Verify(data, sig []byte) (bool, error) {
	if len(sig) != ed25519.SignatureSize {
		return false, nil
	}
	return voi.VerifyExpandedWithOptions(k.x, data, sig, sigOptions), nil
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
type sigBatch struct {
	bv      *voi.BatchVerifier
	envs    []*Envelope
	digests []Digest
}

// add puts e, signed by pub, in the batch.
func (b *sigBatch) add(e *Envelope, pub crypto.PubKey) {
	k, ok := pub.(*playerKey)
	if !ok {
		return
	}
	sig, err := canonicalBase64(e.Sig)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return
	}
	if b.bv == nil {
		b.bv = voi.NewBatchVerifier()
	}
	d := e.signedDigest()
	b.bv.AddExpandedWithOptions(k.x, d[:], sig, sigOptions)
	b.envs, b.digests = append(b.envs, e), append(b.digests, d)
}

// verify checks the batch and marks every envelope whose signature holds.
// A batch that fails is checked one signature at a time (voi's Verify
// does), so that every good one is still marked.
func (b *sigBatch) verify() {
	if len(b.envs) == 0 {
		return
	}
	_, valid := b.bv.Verify(nil)
	for i, e := range b.envs {
		if valid[i] {
			e.markVerified(b.digests[i])
		}
	}
}
