package fairness

import (
	"bytes"
	"encoding/json"
	mrand "math/rand/v2"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// signDigest (curve25519-voi) gives the very signature libp2p's own
// Ed25519 Sign gives (crypto/ed25519): Ed25519 signing is deterministic,
// so the switch changes no byte of any envelope a referee sends.
func TestSignDigestMatchesLibp2p(t *testing.T) {
	rng := mrand.NewChaCha8([32]byte{15, 4})
	for i := range 200 {
		k, _, err := crypto.GenerateEd25519Key(rng)
		if err != nil {
			t.Fatal(err)
		}
		var d Digest
		_, _ = rng.Read(d[:])
		got, err := signDigest(k, d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := k.Sign(d[:])
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("key %d: voi signs %x, libp2p %x", i, got, want)
		}
	}
}

// An envelope the referee signs for itself (signOwn) is marked verified
// with the ID an envelope checked from the wire gets; signing it again
// (Sign) clears the mark, so a changed envelope is verified again.
func TestSignOwnMarksVerified(t *testing.T) {
	k, _, err := crypto.GenerateEd25519Key(mrand.NewChaCha8([32]byte{15, 5}))
	if err != nil {
		t.Fatal(err)
	}
	e := &Envelope{Match: "m", Seq: 3, Prev: "p", Body: json.RawMessage(`{"inputs":[],"state":"s"}`)}
	if err := e.signOwn(k); err != nil {
		t.Fatal(err)
	}
	wire := *e
	wire.verified, wire.id = false, nil
	if !e.verified || e.Hash() != wire.Hash() || wire.verifyOnce(fastKey(k.GetPublic())) != nil {
		t.Fatalf("signOwn: verified %v, ID %x, the wire copy's %x", e.verified, e.Hash(), wire.Hash())
	}
	e.Body = json.RawMessage(`{"inputs":[],"state":"t"}`)
	if err := e.Sign(k); err != nil {
		t.Fatal(err)
	}
	if e.verified {
		t.Fatal("Sign left the mark of the envelope's earlier signature")
	}
}
