package deck

import ()

// CardSize is the encoded size of a [Card].
const CardSize = 2 * ElementSize

// Card is one masked card: an ElGamal ciphertext (C1, C2) = (r·G, M + r·X)
// of the card's encoding M under the joint key X. The zero Card is not
// valid; cards come from [Params.NewDeck], [Params.Shuffle] or decoding.
type Card struct {
	c1, c2 *element
	// enc is C1 ‖ C2 once known: the bytes the card was decoded from
	// (decoding accepts only canonical encodings, so they are the
	// elements' one encoding), or the one encoding of a card made here.
	// Every proof hashes the cards it is about and every message carries
	// them, and each element's encoding costs an inverse square root: a
	// verifier that re-encoded what it received spent a sixth of an Air
	// audit on it (issue 15). Nil for a card built otherwise (tests).
	enc *[CardSize]byte
}

// withEncoding returns c with its encoding computed once.
func (c Card) withEncoding() Card {
	if c.enc == nil && c.valid() {
		var b [CardSize]byte
		c.c2.Encode(c.c1.Encode(b[:0]))
		c.enc = &b
	}
	return c
}

// appendEncoding appends C1 ‖ C2 to dst, from enc when it is known.
func (c Card) appendEncoding(dst []byte) []byte {
	if c.enc != nil {
		return append(dst, c.enc[:]...)
	}
	return c.c2.Encode(c.c1.Encode(dst))
}

// Equal reports whether two cards are the same ciphertext.
func (c Card) Equal(o Card) bool {
	if c.c1 == nil || o.c1 == nil {
		return c.c1 == nil && o.c1 == nil
	}
	return c.c1.Equal(o.c1) == 1 && c.c2.Equal(o.c2) == 1
}

func (c Card) valid() bool { return c.c1 != nil && c.c2 != nil }

// MarshalBinary encodes the card as C1 ‖ C2 (64 bytes).
func (c Card) MarshalBinary() ([]byte, error) {
	if !c.valid() {
		return nil, malformed("card: zero value")
	}
	w := writer{b: make([]byte, 0, CardSize)}
	w.card(c)
	return w.b, nil
}

// UnmarshalBinary decodes a card, rejecting anything but two canonical
// elements.
func (c *Card) UnmarshalBinary(b []byte) error {
	r := reader{b: b, what: "card"}
	out := r.card("card")
	if err := r.done(); err != nil {
		return err
	}
	*c = out
	return nil
}

// Deck is a sequence of masked cards; position i is the i-th card dealt.
type Deck []Card

// Clone returns an independent copy of the deck.
func (d Deck) Clone() Deck {
	out := make(Deck, len(d))
	for i, c := range d {
		out[i] = Card{c1: newElement().Add(c.c1, newElement()), c2: newElement().Add(c.c2, newElement()), enc: c.enc}
	}
	return out
}

// Equal reports whether two decks hold the same ciphertexts in the same order.
func (d Deck) Equal(o Deck) bool {
	if len(d) != len(o) {
		return false
	}
	for i := range d {
		if !d[i].Equal(o[i]) {
			return false
		}
	}
	return true
}

// MarshalBinary encodes the deck as a 16-bit big-endian count followed by
// each card.
func (d Deck) MarshalBinary() ([]byte, error) {
	if len(d) > MaxCards {
		return nil, malformed("deck: %d cards exceed %d", len(d), MaxCards)
	}
	w := writer{b: make([]byte, 0, 2+CardSize*len(d))}
	w.u16(len(d))
	for i, c := range d {
		if !c.valid() {
			return nil, malformed("deck: card %d is the zero value", i)
		}
		w.card(c)
	}
	return w.b, nil
}

// UnmarshalBinary decodes a deck, rejecting a wrong count, a non-canonical
// element or trailing bytes.
func (d *Deck) UnmarshalBinary(b []byte) error {
	r := reader{b: b, what: "deck"}
	n := r.count("count", MaxCards, CardSize)
	out := make(Deck, n)
	for i := range out {
		out[i] = r.card("card")
	}
	if err := r.done(); err != nil {
		return err
	}
	*d = out
	return nil
}

func checkDeck(d Deck, what string) error {
	for i, c := range d {
		if !c.valid() {
			return malformed("%s: card %d is the zero value", what, i)
		}
	}
	return nil
}
