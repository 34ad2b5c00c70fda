package deck

import (
	"errors"

	"github.com/oasisprotocol/curve25519-voi/curve"
	vscalar "github.com/oasisprotocol/curve25519-voi/curve/scalar"
)

// The group: ristretto255 (RFC 9496), by curve25519-voi, the library
// Salvo's Ed25519 verification already uses. Its vectorised arithmetic
// made a deck's proofs 1.3 to 1.7 times as fast to check as
// gtank/ristretto255, which the package used before (issue 15: the deck's
// proofs were most of an Air audit). The group, its encodings and its
// hash to the group are the standard's, so every value and proof is
// what it was: the recorded matches' decks verify as before.
//
// element and scalar wrap voi's types in the small vocabulary the package
// is written in: each method sets its receiver and returns it, and a
// receiver may be one of the arguments.

// element is a ristretto255 group element. Its zero value is not valid:
// make one with newElement.
type element struct{ p curve.RistrettoPoint }

// scalar is an integer modulo the group order.
type scalar struct{ s vscalar.Scalar }

// newElement returns the identity.
func newElement() *element {
	e := new(element)
	e.p.Identity()
	return e
}

// newScalar returns zero.
func newScalar() *scalar { return new(scalar) }

// Base sets e to the group's generator.
func (e *element) Base() *element {
	e.p.Set(curve.RISTRETTO_BASEPOINT_POINT)
	return e
}

func (e *element) Add(a, b *element) *element {
	e.p.Add(&a.p, &b.p)
	return e
}

func (e *element) Subtract(a, b *element) *element {
	e.p.Sub(&a.p, &b.p)
	return e
}

// ScalarBaseMult sets e = s·G, in constant time.
func (e *element) ScalarBaseMult(s *scalar) *element {
	e.p.MulBasepoint(curve.RISTRETTO_BASEPOINT_TABLE, &s.s)
	return e
}

// ScalarMult sets e = s·a, in constant time.
func (e *element) ScalarMult(s *scalar, a *element) *element {
	e.p.Mul(&a.p, &s.s)
	return e
}

// MultiScalarMult sets e = Σ s_i·a_i, in constant time.
func (e *element) MultiScalarMult(s []*scalar, a []*element) *element {
	ss, ps := unwrap(s, a)
	e.p.MultiscalarMul(ss, ps)
	return e
}

// VarTimeMultiScalarMult sets e = Σ s_i·a_i, in time that depends on the
// values: only for public ones.
func (e *element) VarTimeMultiScalarMult(s []*scalar, a []*element) *element {
	ss, ps := unwrap(s, a)
	e.p.MultiscalarMulVartime(ss, ps)
	return e
}

// VarTimeDoubleScalarBaseMult sets e = a·A + b·G, for public values.
func (e *element) VarTimeDoubleScalarBaseMult(a *scalar, A *element, b *scalar) *element {
	e.p.DoubleScalarMulBasepointVartime(&a.s, &A.p, &b.s)
	return e
}

// tabled is an element with voi's table of its small odd multiples, made
// once for an element that several multiscalar multiplications take (the
// fixed generators, the base point, a seat's key share, a shuffle proof's
// chain commitments, each used twice): building the table was a tenth of
// a shuffle proof's check when every multiplication built its own.
type tabled = curve.ExpandedRistrettoPoint

// tabledBase is the group's generator with its table.
var tabledBase = curve.NewExpandedRistrettoPoint(curve.RISTRETTO_BASEPOINT_POINT)

// withTable returns e with its table.
func (e *element) withTable() *tabled { return curve.NewExpandedRistrettoPoint(&e.p) }

// VarTimeMultiScalarMultTabled sets e = Σ ts_i·t_i + Σ s_i·a_i, for
// public values, taking the tables of the t_i as made.
func (e *element) VarTimeMultiScalarMultTabled(ts []*scalar, t []*tabled, s []*scalar, a []*element) *element {
	sts, _ := unwrap(ts, nil)
	ss, ps := unwrap(s, a)
	e.p.ExpandedMultiscalarMulVartime(sts, t, ss, ps)
	return e
}

// VarTimeDoubleScalarBaseMultTabled is VarTimeDoubleScalarBaseMult with
// A's table made.
func (e *element) VarTimeDoubleScalarBaseMultTabled(a *scalar, A *tabled, b *scalar) *element {
	e.p.ExpandedDoubleScalarMulBasepointVartime(&a.s, A, &b.s)
	return e
}

func unwrap(s []*scalar, a []*element) ([]*vscalar.Scalar, []*curve.RistrettoPoint) {
	ss := make([]*vscalar.Scalar, len(s))
	for i := range s {
		ss[i] = &s[i].s
	}
	ps := make([]*curve.RistrettoPoint, len(a))
	for i := range a {
		ps[i] = &a[i].p
	}
	return ss, ps
}

// FromUniformBytes sets e to the element the standard's one-way map gives
// for 64 bytes.
func (e *element) FromUniformBytes(b []byte) *element {
	if _, err := e.p.SetUniformBytes(b); err != nil {
		panic("deck: hash to the group of " + err.Error()) // only for a length other than 64
	}
	return e
}

// Equal returns 1 if e and o are the same element, else 0.
func (e *element) Equal(o *element) int { return e.p.Equal(&o.p) }

// Encode appends e's canonical 32-byte encoding to b.
func (e *element) Encode(b []byte) []byte {
	var c curve.CompressedRistretto
	c.SetRistrettoPoint(&e.p)
	return append(b, c[:]...)
}

// errNotCanonical refuses bytes that encode no element, or not in its one
// form.
var errNotCanonical = errors.New("not a canonical ristretto255 encoding")

// Decode sets e to the element b encodes canonically, or fails and leaves
// e unchanged.
func (e *element) Decode(b []byte) error {
	var c curve.CompressedRistretto
	if _, err := c.SetBytes(b); err != nil {
		return errNotCanonical
	}
	var p curve.RistrettoPoint
	if _, err := p.SetCompressed(&c); err != nil {
		return errNotCanonical
	}
	e.p.Set(&p)
	return nil
}

func (s *scalar) Add(a, b *scalar) *scalar {
	s.s.Add(&a.s, &b.s)
	return s
}

func (s *scalar) Subtract(a, b *scalar) *scalar {
	s.s.Sub(&a.s, &b.s)
	return s
}

func (s *scalar) Multiply(a, b *scalar) *scalar {
	s.s.Mul(&a.s, &b.s)
	return s
}

func (s *scalar) Negate(a *scalar) *scalar {
	s.s.Neg(&a.s)
	return s
}

// FromUniformBytes sets s to 64 bytes read little-endian, modulo the order.
func (s *scalar) FromUniformBytes(b []byte) *scalar {
	if _, err := s.s.SetBytesModOrderWide(b); err != nil {
		panic("deck: scalar of " + err.Error()) // only for a length other than 64
	}
	return s
}

// Equal returns 1 if s and o are equal, else 0.
func (s *scalar) Equal(o *scalar) int { return s.s.Equal(&o.s) }

// Encode appends s's canonical 32-byte encoding to b.
func (s *scalar) Encode(b []byte) []byte {
	var out [ScalarSize]byte
	if err := s.s.ToBytes(out[:]); err != nil {
		panic("deck: " + err.Error()) // the buffer is the right size
	}
	return append(b, out[:]...)
}

// Decode sets s to the scalar b encodes canonically (less than the order),
// or fails and leaves s unchanged.
func (s *scalar) Decode(b []byte) error {
	if len(b) != ScalarSize {
		return errors.New("a scalar is 32 bytes")
	}
	if _, err := s.s.SetCanonicalBytes(b); err != nil {
		return err
	}
	return nil
}
