package deck

import "sync/atomic"

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
	// tabs keeps C1's and C2's tables once a check has made them, shared
	// by every copy of the card. A shuffle's output deck is the next
	// shuffle's input and its C1s are what the unmasking shares are
	// checked against: made once, a table serves all of them (building
	// the tables of the 4n card points was a fifth of a shuffle check,
	// issue 15). Nil for a card that keeps none (built in a test).
	tabs *cardTables
}

// cardTables holds a card's tables, each made on first use; atomic so
// that checks on several goroutines may share a deck.
type cardTables struct{ c1, c2 atomic.Pointer[tabled] }

// table1 returns C1 with its table.
func (c Card) table1() *tabled {
	if c.tabs == nil {
		return c.c1.withTable()
	}
	return kept(&c.tabs.c1, c.c1)
}

// table2 returns C2 with its table.
func (c Card) table2() *tabled {
	if c.tabs == nil {
		return c.c2.withTable()
	}
	return kept(&c.tabs.c2, c.c2)
}

// kept returns e's table from slot, made and stored there if it is empty.
func kept(slot *atomic.Pointer[tabled], e *element) *tabled {
	if t := slot.Load(); t != nil {
		return t
	}
	slot.CompareAndSwap(nil, e.withTable())
	return slot.Load()
}

// c1IsIdentity reports whether C1 is known to be the identity (its kept
// encoding is 32 zero bytes): a card of the starting deck, whose C1 adds
// nothing to a sum a check computes.
func (c Card) c1IsIdentity() bool {
	return c.enc != nil && [ElementSize]byte(c.enc[:ElementSize]) == [ElementSize]byte{}
}

// withEncoding returns c with its encoding computed once, and room for
// its tables.
func (c Card) withEncoding() Card {
	if c.enc == nil && c.valid() {
		var b [CardSize]byte
		c.c2.Encode(c.c1.Encode(b[:0]))
		c.enc = &b
	}
	if c.tabs == nil {
		c.tabs = new(cardTables)
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
	out.tabs = new(cardTables)
	*c = out
	return nil
}

// Deck is a sequence of masked cards; position i is the i-th card dealt.
type Deck []Card

// Clone returns an independent copy of the deck.
func (d Deck) Clone() Deck {
	out := make(Deck, len(d))
	for i, c := range d {
		out[i] = Card{c1: newElement().Add(c.c1, newElement()), c2: newElement().Add(c.c2, newElement()), enc: c.enc, tabs: c.tabs}
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
	tabs := make([]cardTables, n)
	for i := range out {
		out[i] = r.card("card")
		out[i].tabs = &tabs[i]
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
