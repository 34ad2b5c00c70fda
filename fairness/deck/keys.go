package deck

import (
	"fmt"
	"io"
)

// MaxSeats bounds the number of key shares of one deck.
const MaxSeats = 16

// PublicKeySize is the encoded size of a [PublicKey].
const PublicKeySize = 2 + ElementSize + 2*ScalarSize

func dup(e *element) *element { return newElement().Add(e, newElement()) }

// KeyShare is one seat's secret ElGamal key share x for one deck. It never
// leaves its owner; only its [PublicKey] is published.
type KeyShare struct {
	seat int
	x    *scalar
	pub  *PublicKey
}

// PublicKey is a seat's public key share X = x·G with a Schnorr proof that
// the seat knows x, bound to the seat, the match and the deck (so no seat
// can publish a key built from the others' keys and so cancel them out).
type PublicKey struct {
	Seat int
	x    *element
	e, s *scalar // proof: e = H(seat, X, s·G − e·X)
	// xEnc is x's encoding when known (the bytes x was decoded from, or
	// made with it): every share of the seat's hashes it.
	xEnc []byte
}

// xBytes returns the encoding of X.
func (pk *PublicKey) xBytes() []byte {
	if len(pk.xEnc) == ElementSize {
		return pk.xEnc
	}
	return pk.x.Encode(nil)
}

// GenerateKey draws a fresh key share for seat from rng (crypto/rand.Reader
// in play) and proves knowledge of it.
func (p *Params) GenerateKey(rng io.Reader, seat int) (*KeyShare, error) {
	if seat < 0 || seat >= MaxSeats {
		return nil, fmt.Errorf("deck: seat %d: want 0..%d", seat, MaxSeats-1)
	}
	x, err := randScalar(rng)
	if err != nil {
		return nil, fmt.Errorf("generate key for seat %d: %w", seat, err)
	}
	if x.Equal(newScalar()) == 1 {
		return nil, fmt.Errorf("deck: generate key for seat %d: zero scalar drawn", seat)
	}
	k, err := randScalar(rng)
	if err != nil {
		return nil, fmt.Errorf("generate key proof for seat %d: %w", seat, err)
	}
	X := newElement().ScalarBaseMult(x)
	R := newElement().ScalarBaseMult(k)
	xEnc := X.Encode(nil)
	e := p.keyChallenge(seat, xEnc, R)
	s := newScalar().Add(k, newScalar().Multiply(e, x))
	return &KeyShare{seat: seat, x: x, pub: &PublicKey{Seat: seat, x: X, e: e, s: s, xEnc: xEnc}}, nil
}

func (p *Params) keyChallenge(seat int, X []byte, R *element) *scalar {
	return newTranscript("key", &p.dom).uint(uint64(seat)).encodings(X).element(R).challenge()
}

// Seat returns the seat the key share belongs to.
func (k *KeyShare) Seat() int { return k.seat }

// Public returns the key share's public key with its proof.
func (k *KeyShare) Public() *PublicKey { return k.pub }

// VerifyPublicKey checks a public key's proof of knowledge for this deck.
func (p *Params) VerifyPublicKey(pk *PublicKey) error {
	if pk == nil || pk.x == nil || pk.e == nil || pk.s == nil {
		return malformed("public key: missing fields")
	}
	if pk.x.Equal(newElement()) == 1 {
		return invalid("public key of seat %d is the identity", pk.Seat)
	}
	// R = s·G − e·X
	negE := newScalar().Negate(pk.e)
	R := newElement().VarTimeDoubleScalarBaseMult(negE, pk.x, pk.s)
	if p.keyChallenge(pk.Seat, pk.xBytes(), R).Equal(pk.e) != 1 {
		return invalid("public key of seat %d: proof of knowledge does not verify for deck %q", pk.Seat, p.dom.name)
	}
	return nil
}

// MarshalBinary encodes the public key as seat (16 bits) ‖ X ‖ e ‖ s.
func (pk *PublicKey) MarshalBinary() ([]byte, error) {
	if pk.x == nil || pk.e == nil || pk.s == nil {
		return nil, malformed("public key: missing fields")
	}
	w := writer{b: make([]byte, 0, PublicKeySize)}
	w.u16(pk.Seat)
	w.element(pk.x)
	w.scalar(pk.e)
	w.scalar(pk.s)
	return w.b, nil
}

// UnmarshalBinary decodes a public key (it does not verify the proof: see
// [Params.VerifyPublicKey]).
func (pk *PublicKey) UnmarshalBinary(b []byte) error {
	r := reader{b: b, what: "public key"}
	seat := r.u16("seat")
	if r.err == nil && seat >= MaxSeats {
		r.fail("seat %d exceeds %d", seat, MaxSeats-1)
	}
	raw := r.b
	x := r.element("X")
	e := r.scalar("e")
	s := r.scalar("s")
	if err := r.done(); err != nil {
		return err
	}
	*pk = PublicKey{Seat: seat, x: x, e: e, s: s, xEnc: append([]byte(nil), raw[:ElementSize]...)}
	return nil
}

// MarshalBinary encodes the secret key share as seat (16 bits) ‖ x ‖ its
// public key, for its owner's own storage only.
func (k *KeyShare) MarshalBinary() ([]byte, error) {
	pub, err := k.pub.MarshalBinary()
	if err != nil {
		return nil, err
	}
	w := writer{b: make([]byte, 0, 2+ScalarSize+len(pub))}
	w.u16(k.seat)
	w.scalar(k.x)
	w.b = append(w.b, pub...)
	return w.b, nil
}

// UnmarshalBinary decodes a key share and checks that its secret matches
// its public key.
func (k *KeyShare) UnmarshalBinary(b []byte) error {
	r := reader{b: b, what: "key share"}
	seat := r.u16("seat")
	x := r.scalar("x")
	rest := r.take(PublicKeySize, "public key")
	if err := r.done(); err != nil {
		return err
	}
	var pub PublicKey
	if err := pub.UnmarshalBinary(rest); err != nil {
		return fmt.Errorf("key share: %w", err)
	}
	if pub.Seat != seat || newElement().ScalarBaseMult(x).Equal(pub.x) != 1 {
		return malformed("key share: secret does not match its public key")
	}
	*k = KeyShare{seat: seat, x: x, pub: &pub}
	return nil
}

// JointKey is the deck's ElGamal public key X = ΣX_i with every seat's
// verified public key share, seats 0..n-1 in order.
type JointKey struct {
	keys []*PublicKey
	x    *element
	// tables holds each seat's key share with its table (nil for a seat
	// without one): every unmasking share a seat sends is checked
	// against its key share.
	tables []*tabled
	// xT is X with its table, a term of every shuffle check.
	xT *tabled
}

// NewJointKey verifies every seat's public key (keys[i] must be seat i's)
// and adds them up. A nil entry is a seat that holds no key of this deck
// (it was out of the game when the deck was made, so nothing of this deck
// waits for it); which seats must hold one is the caller's rule, and at
// least one must.
func (p *Params) NewJointKey(keys []*PublicKey) (*JointKey, error) {
	if len(keys) < 1 || len(keys) > MaxSeats {
		return nil, fmt.Errorf("deck: %d key shares: want 1..%d", len(keys), MaxSeats)
	}
	X := newElement()
	seen := make(map[[32]byte]int, len(keys))
	for i, pk := range keys {
		if pk == nil {
			continue
		}
		if pk.Seat != i {
			return nil, invalid("key share %d names seat %d", i, pk.Seat)
		}
		if err := p.VerifyPublicKey(pk); err != nil {
			return nil, fmt.Errorf("joint key: %w", err)
		}
		k := [32]byte(pk.xBytes())
		if j, ok := seen[k]; ok {
			return nil, invalid("seats %d and %d published the same key share", j, i)
		}
		seen[k] = i
		X.Add(X, pk.x)
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("deck: no key share at all")
	}
	if X.Equal(newElement()) == 1 {
		return nil, invalid("joint key is the identity")
	}
	jk := &JointKey{keys: append([]*PublicKey(nil), keys...), x: X, tables: make([]*tabled, len(keys)), xT: X.withTable()}
	for i, pk := range jk.keys {
		if pk != nil {
			jk.tables[i] = pk.x.withTable()
		}
	}
	return jk, nil
}

// Seats returns the number of seats whose shares make up the key.
func (jk *JointKey) Seats() int { return len(jk.keys) }

// Key returns seat's public key share, or nil.
func (jk *JointKey) Key(seat int) *PublicKey {
	if seat < 0 || seat >= len(jk.keys) {
		return nil
	}
	return jk.keys[seat]
}
