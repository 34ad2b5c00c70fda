package deck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"

	"golang.org/x/crypto/blake2b"
)

// Sizes of the encodings of group elements and scalars.
const (
	ElementSize = 32 // a canonical ristretto255 element
	ScalarSize  = 32 // a canonical scalar modulo the group order
)

// Protocol is the version tag written first into every hash of the package.
const Protocol = "salvo/deck/1"

// ErrMalformed is wrapped by every decoding error: bytes that are not a
// canonical encoding of the value asked for.
var ErrMalformed = errors.New("deck: malformed encoding")

// ErrInvalid is wrapped by every verification failure: a proof, share or
// key that does not check out.
var ErrInvalid = errors.New("deck: invalid proof")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// randScalar draws a uniform scalar from 64 bytes of rng.
func randScalar(rng io.Reader) (*scalar, error) {
	var b [64]byte
	if _, err := io.ReadFull(rng, b[:]); err != nil {
		return nil, fmt.Errorf("deck: read randomness: %w", err)
	}
	return newScalar().FromUniformBytes(b[:]), nil
}

func randScalars(rng io.Reader, n int) ([]*scalar, error) {
	out := make([]*scalar, n)
	for i := range out {
		s, err := randScalar(rng)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// transcript is a BLAKE2b-512 hash of length-prefixed fields, started with
// the protocol tag, a label naming its purpose, and the deck's domain
// (match ID and deck name), so that no hash of one purpose, match or deck
// can stand for another.
type transcript struct {
	h hash.Hash
}

func newTranscript(label string, dom *domain) *transcript {
	h, err := blake2b.New512(nil)
	if err != nil {
		panic("blake2b: " + err.Error()) // only for an over-long key
	}
	t := &transcript{h: h}
	t.str(Protocol).str(label)
	if dom != nil {
		t.bytes(dom.match[:]).str(dom.name)
	}
	return t
}

func (t *transcript) uint(v uint64) *transcript {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	t.h.Write(b[:])
	return t
}

func (t *transcript) bytes(b []byte) *transcript {
	t.uint(uint64(len(b)))
	t.h.Write(b)
	return t
}

func (t *transcript) str(s string) *transcript { return t.bytes([]byte(s)) }

func (t *transcript) element(e *element) *transcript {
	var b [ElementSize]byte
	t.h.Write(e.Encode(b[:0]))
	return t
}

func (t *transcript) scalar(s *scalar) *transcript {
	var b [ScalarSize]byte
	t.h.Write(s.Encode(b[:0]))
	return t
}

func (t *transcript) card(c Card) *transcript {
	var b [CardSize]byte
	t.h.Write(c.appendEncoding(b[:0]))
	return t
}

// encodings writes elements given as their concatenated encodings (what
// element writes for each, one after the other).
func (t *transcript) encodings(b []byte) *transcript {
	t.h.Write(b)
	return t
}

// encodeAll returns the concatenated encodings of es.
func encodeAll(es []*element) []byte {
	b := make([]byte, 0, len(es)*ElementSize)
	for _, e := range es {
		b = e.Encode(b)
	}
	return b
}

func (t *transcript) deck(d Deck) *transcript {
	t.uint(uint64(len(d)))
	for _, c := range d {
		t.card(c)
	}
	return t
}

// sum returns the 64-byte digest.
func (t *transcript) sum() []byte { return t.h.Sum(nil) }

// challenge returns the digest reduced to a scalar.
func (t *transcript) challenge() *scalar {
	return newScalar().FromUniformBytes(t.sum())
}

// hashToElement maps a label and an index to a group element nobody knows
// the discrete logarithm of (ristretto255's one-way map on 64 hash bytes).
func hashToElement(label string, i uint64) *element {
	t := newTranscript(label, nil).uint(i)
	return newElement().FromUniformBytes(t.sum())
}

// writer and reader build and parse the package's binary encodings: fixed
// widths, big-endian counts, canonical elements and scalars.
type writer struct{ b []byte }

func (w *writer) u16(v int)          { w.b = binary.BigEndian.AppendUint16(w.b, uint16(v)) }
func (w *writer) element(e *element) { w.b = e.Encode(w.b) }
func (w *writer) scalar(s *scalar)   { w.b = s.Encode(w.b) }
func (w *writer) card(c Card)        { w.b = c.appendEncoding(w.b) }

type reader struct {
	b    []byte
	what string
	err  error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = malformed("%s: %s", r.what, fmt.Sprintf(format, args...))
	}
}

func (r *reader) take(n int, field string) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.fail("%s: need %d bytes, have %d", field, n, len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *reader) u16(field string) int {
	b := r.take(2, field)
	if b == nil {
		return 0
	}
	return int(binary.BigEndian.Uint16(b))
}

func (r *reader) element(field string) *element {
	b := r.take(ElementSize, field)
	if b == nil {
		return nil
	}
	e := newElement()
	if err := e.Decode(b); err != nil {
		r.fail("%s: not a canonical ristretto255 element", field)
		return nil
	}
	return e
}

func (r *reader) scalar(field string) *scalar {
	b := r.take(ScalarSize, field)
	if b == nil {
		return nil
	}
	s := newScalar()
	if err := s.Decode(b); err != nil {
		r.fail("%s: not a canonical scalar", field)
		return nil
	}
	return s
}

// card reads a card and keeps the bytes it came from as its encoding.
func (r *reader) card(field string) Card {
	raw := r.b
	c1 := r.element(field + ".c1")
	c2 := r.element(field + ".c2")
	if r.err != nil {
		return Card{c1: c1, c2: c2}
	}
	enc := new([CardSize]byte)
	copy(enc[:], raw)
	return Card{c1: c1, c2: c2, enc: enc}
}

// elements reads n elements and also returns the bytes they came from.
func (r *reader) elements(n int, field string) ([]*element, []byte) {
	raw := r.b
	out := make([]*element, n)
	for i := range out {
		out[i] = r.element(field)
	}
	if r.err != nil {
		return out, nil
	}
	return out, append([]byte(nil), raw[:n*ElementSize]...)
}

// count reads a 16-bit count and checks it against max and against the
// bytes left (each item at least per bytes), so that a hostile count never
// makes the reader allocate more than the input justifies.
func (r *reader) count(field string, max, per int) int {
	n := r.u16(field)
	if r.err != nil {
		return 0
	}
	if n > max {
		r.fail("%s: %d exceeds the limit %d", field, n, max)
		return 0
	}
	if per > 0 && n*per > len(r.b) {
		r.fail("%s: %d items need %d bytes, have %d", field, n, n*per, len(r.b))
		return 0
	}
	return n
}

func (r *reader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.fail("%d trailing bytes", len(r.b))
	}
	return r.err
}
