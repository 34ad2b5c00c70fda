package deck

import (
	"fmt"
)

// ShareSize is the encoded size of a [Share].
const ShareSize = 2 + 2 + ElementSize + 2*ScalarSize

// Share is one seat's unmasking share D = x·C1 of the card at deck position
// Pos, with a Chaum–Pedersen proof that log_G(X_seat) = log_C1(D). The
// proof's hash binds the match, the deck, the seat, the position and the
// whole card, so a share made for another card, position, deck or match
// never verifies.
type Share struct {
	Seat int
	Pos  int
	d    *element
	e, s *scalar
	// dEnc is d's encoding when known (the bytes d was decoded from, or
	// made with it), so that verifying hashes it without encoding d again.
	dEnc []byte
}

// dBytes returns the encoding of D.
func (sh *Share) dBytes() []byte {
	if len(sh.dEnc) == ElementSize {
		return sh.dEnc
	}
	return sh.d.Encode(nil)
}

// shareChallenge is the hash of a share's statement; X and D come as
// their encodings.
func (p *Params) shareChallenge(seat, pos int, X []byte, c Card, D []byte, A, B *element) *scalar {
	return newTranscript("share", &p.dom).uint(uint64(seat)).uint(uint64(pos)).
		encodings(X).card(c).encodings(D).element(A).element(B).challenge()
}

// UnmaskShare returns key's unmasking share of the card at position pos.
// Its proof nonce is derived from the secret and the card (as in Ed25519),
// so it needs no randomness and the same request gives the same share.
func (p *Params) UnmaskShare(key *KeyShare, pos int, c Card) (*Share, error) {
	if !c.valid() {
		return nil, malformed("unmask: card %d is the zero value", pos)
	}
	if pos < 0 || pos >= MaxCards {
		return nil, fmt.Errorf("deck: unmask position %d: want 0..%d", pos, MaxCards-1)
	}
	k := newTranscript("share/nonce", &p.dom).scalar(key.x).uint(uint64(key.seat)).uint(uint64(pos)).card(c).challenge()
	D := newElement().ScalarMult(key.x, c.c1)
	A := newElement().ScalarBaseMult(k)
	B := newElement().ScalarMult(k, c.c1)
	dEnc := D.Encode(nil)
	e := p.shareChallenge(key.seat, pos, key.pub.xBytes(), c, dEnc, A, B)
	s := newScalar().Add(k, newScalar().Multiply(e, key.x))
	return &Share{Seat: key.seat, Pos: pos, d: D, e: e, s: s, dEnc: dEnc}, nil
}

// VerifyShare checks a share of the card at position pos against the
// sharing seat's public key in jk.
func (p *Params) VerifyShare(jk *JointKey, pos int, c Card, sh *Share) error {
	if sh == nil || sh.d == nil || sh.e == nil || sh.s == nil {
		return malformed("share: missing fields")
	}
	if !c.valid() {
		return malformed("share: card %d is the zero value", pos)
	}
	pk := jk.Key(sh.Seat)
	if pk == nil {
		return invalid("share names seat %d, which holds no key of deck %q", sh.Seat, p.dom.name)
	}
	if sh.Pos != pos {
		return invalid("share of seat %d is for position %d, not %d", sh.Seat, sh.Pos, pos)
	}
	negE := newScalar().Negate(sh.e)
	// A = s·G − e·X, B = s·C1 − e·D
	A := newElement().VarTimeDoubleScalarBaseMultTabled(negE, jk.tables[sh.Seat], sh.s)
	B := newElement().VarTimeMultiScalarMultTabled([]*scalar{sh.s}, []*tabled{c.table1()}, []*scalar{negE}, []*element{sh.d})
	if p.shareChallenge(sh.Seat, pos, pk.xBytes(), c, sh.dBytes(), A, B).Equal(sh.e) != 1 {
		return invalid("unmasking share of seat %d for card %d of deck %q does not verify", sh.Seat, pos, p.dom.name)
	}
	return nil
}

// Open verifies one share from every seat of jk (in any order) for the card
// at position pos and returns the card's value: the public reveal of a
// played card.
func (p *Params) Open(jk *JointKey, pos int, c Card, shares []*Share) (int, error) {
	return p.unmask(jk, nil, pos, c, shares, nil)
}

// OpenChecked is [Params.Open] for a card whose shares checked have been
// verified already, by [Params.VerifyShare] with the same joint key,
// position and card (a referee verifies each share as it arrives and keeps
// it): only the shares fresh are verified, the statement about checked is
// the one already proven. Verifying the other seats' shares again when the
// holder plays a card was a tenth of an Air audit (issue 15).
func (p *Params) OpenChecked(jk *JointKey, pos int, c Card, fresh, checked []*Share) (int, error) {
	return p.unmask(jk, nil, pos, c, fresh, checked)
}

// Peek is the private reveal of a dealt card: the receiving seat (key)
// verifies every other seat's share of the card at position pos, removes
// its own share locally and learns the value, which nobody else can.
func (p *Params) Peek(jk *JointKey, key *KeyShare, pos int, c Card, others []*Share) (int, error) {
	if key == nil {
		return 0, fmt.Errorf("deck: peek without a key share")
	}
	return p.unmask(jk, key, pos, c, others, nil)
}

// unmask verifies the shares fresh, takes checked as verified, and
// removes them all, with key's own share if key is given, from the card.
func (p *Params) unmask(jk *JointKey, key *KeyShare, pos int, c Card, fresh, checked []*Share) (int, error) {
	if !c.valid() {
		return 0, malformed("open: card %d is the zero value", pos)
	}
	have := make([]bool, jk.Seats())
	m := dup(c.c2)
	if key != nil {
		if pk := jk.Key(key.seat); pk == nil || pk.x.Equal(key.pub.x) != 1 {
			return 0, fmt.Errorf("deck: key share of seat %d is not part of the joint key of deck %q", key.seat, p.dom.name)
		}
		have[key.seat] = true
		m.Subtract(m, newElement().ScalarMult(key.x, c.c1))
	}
	for i, sh := range append(fresh[:len(fresh):len(fresh)], checked...) {
		var err error
		if i < len(fresh) {
			err = p.VerifyShare(jk, pos, c, sh)
		} else if sh == nil || sh.Pos != pos || jk.Key(sh.Seat) == nil {
			err = fmt.Errorf("deck: a share taken as verified is not one for card %d of this deck", pos)
		}
		if err != nil {
			return 0, fmt.Errorf("open card %d: %w", pos, err)
		}
		if have[sh.Seat] {
			return 0, invalid("open card %d: two shares from seat %d", pos, sh.Seat)
		}
		have[sh.Seat] = true
		m.Subtract(m, sh.d)
	}
	for s, ok := range have {
		if !ok && jk.Key(s) != nil {
			return 0, fmt.Errorf("deck: open card %d: the share of seat %d is missing", pos, s)
		}
	}
	v := p.valueOf(m)
	if v == 0 {
		return 0, invalid("card %d of deck %q unmasks to no card value", pos, p.dom.name)
	}
	return v, nil
}

// MarshalBinary encodes the share as seat (16 bits) ‖ position (16 bits) ‖
// D ‖ e ‖ s.
func (sh *Share) MarshalBinary() ([]byte, error) {
	if sh.d == nil || sh.e == nil || sh.s == nil {
		return nil, malformed("share: missing fields")
	}
	if sh.Seat < 0 || sh.Seat >= MaxSeats || sh.Pos < 0 || sh.Pos >= MaxCards {
		return nil, malformed("share: seat %d or position %d out of range", sh.Seat, sh.Pos)
	}
	w := writer{b: make([]byte, 0, ShareSize)}
	w.u16(sh.Seat)
	w.u16(sh.Pos)
	w.element(sh.d)
	w.scalar(sh.e)
	w.scalar(sh.s)
	return w.b, nil
}

// UnmarshalBinary decodes a share (it does not verify the proof: see
// [Params.VerifyShare]).
func (sh *Share) UnmarshalBinary(b []byte) error {
	r := reader{b: b, what: "share"}
	seat := r.u16("seat")
	if r.err == nil && seat >= MaxSeats {
		r.fail("seat %d exceeds %d", seat, MaxSeats-1)
	}
	pos := r.u16("position")
	if r.err == nil && pos >= MaxCards {
		r.fail("position %d exceeds %d", pos, MaxCards-1)
	}
	raw := r.b
	d := r.element("D")
	e := r.scalar("e")
	s := r.scalar("s")
	if err := r.done(); err != nil {
		return err
	}
	*sh = Share{Seat: seat, Pos: pos, d: d, e: e, s: s, dEnc: append([]byte(nil), raw[:ElementSize]...)}
	return nil
}
