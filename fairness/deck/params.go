package deck

import (
	"fmt"
	"sync"

	"github.com/salvo-game/salvo/engine"
)

// MaxCards bounds the number of distinct card values and the length of a
// deck, so that every count in an encoding fits a small fixed width.
const MaxCards = 1024

// domain binds every hash of a deck to its match and its name.
type domain struct {
	match engine.Digest
	name  string
}

// Params fixes one deck of one match: its domain (the match ID and the
// deck's name, such as "nav" or "nav/2", written into every hash so that no
// proof or share of one deck verifies for another) and its card values
// 1..MaxValue, each encoded as a fixed group element. Params is read-only
// after [NewParams] and safe for concurrent use.
type Params struct {
	dom      domain
	maxValue int
	// gens[0] is the base of the commitment chain, gens[1..] the
	// independent generators of the permutation commitment.
	// gens, values and lookup are shared by every Params of the same
	// maxValue (see fixedFor): nothing may change them.
	gens   []*element
	gensT  []*tabled        // gens with their tables
	values []*element       // values[v-1] encodes card value v
	encs   [][32]byte       // encs[v-1] is values[v-1]'s encoding
	lookup map[[32]byte]int // encoding → value
	tabs   []cardTables     // tabs[v-1]: the tables of value v's open card
}

// NewParams returns the parameters of the deck named deckName in the match
// with ID match, whose cards carry values 1..maxValue (a deck may hold any
// of them, in any number up to maxValue cards).
func NewParams(match engine.Digest, deckName string, maxValue int) (*Params, error) {
	if maxValue < 1 || maxValue > MaxCards {
		return nil, fmt.Errorf("deck: %d card values: want 1..%d", maxValue, MaxCards)
	}
	if deckName == "" {
		return nil, fmt.Errorf("deck: empty deck name")
	}
	t, err := fixedFor(maxValue)
	if err != nil {
		return nil, err
	}
	return &Params{dom: domain{match: match, name: deckName}, maxValue: maxValue, gens: t.gens, gensT: t.gensT, values: t.values, encs: t.encs, lookup: t.lookup, tabs: t.tabs}, nil
}

// fixed holds the group elements of decks of maxValue card values that
// depend on nothing else: hashes to the group of a label and an index, the
// same in every match. Computing them was most of a deck's set-up for the
// auditor (issue 15: an eighth of a 2-player Air audit), so they are made
// once per process and shared, read-only, by every Params.
type fixed struct {
	gens   []*element
	gensT  []*tabled
	values []*element
	encs   [][32]byte
	lookup map[[32]byte]int
	// tabs are the tables of the open cards (the starting deck's), made
	// on first use and shared by every match's starting deck.
	tabs []cardTables
}

// fixedTables maps a count of card values to its *fixed.
var fixedTables sync.Map

// fixedFor returns the fixed elements of decks of maxValue card values.
func fixedFor(maxValue int) (*fixed, error) {
	if t, ok := fixedTables.Load(maxValue); ok {
		return t.(*fixed), nil
	}
	t := &fixed{
		gens:   make([]*element, maxValue+1),
		gensT:  make([]*tabled, maxValue+1),
		values: make([]*element, maxValue),
		encs:   make([][32]byte, maxValue),
		lookup: make(map[[32]byte]int, maxValue),
		tabs:   make([]cardTables, maxValue),
	}
	for i := range t.gens {
		t.gens[i] = hashToElement("generator", uint64(i))
		t.gensT[i] = t.gens[i].withTable()
	}
	for v := 1; v <= maxValue; v++ {
		e := hashToElement("card", uint64(v))
		var k [32]byte
		e.Encode(k[:0])
		if _, dup := t.lookup[k]; dup {
			return nil, fmt.Errorf("deck: card encodings of value %d collide", v) // never happens
		}
		t.values[v-1], t.encs[v-1] = e, k
		t.lookup[k] = v
	}
	got, _ := fixedTables.LoadOrStore(maxValue, t)
	return got.(*fixed), nil
}

// Match returns the match ID the parameters are bound to.
func (p *Params) Match() engine.Digest { return p.dom.match }

// Name returns the deck's name.
func (p *Params) Name() string { return p.dom.name }

// MaxValue returns the largest card value.
func (p *Params) MaxValue() int { return p.maxValue }

// valueOf returns the card value a plaintext element encodes, or 0.
func (p *Params) valueOf(m *element) int {
	var k [32]byte
	m.Encode(k[:0])
	return p.lookup[k]
}

// NewDeck returns the public starting deck holding the given card values
// in order, each under the trivial mask (C1 = 0, C2 = the value's encoding):
// anyone can rebuild it, and the seats' shuffles then hide it.
func (p *Params) NewDeck(values []int) (Deck, error) {
	if len(values) == 0 || len(values) > p.maxValue {
		return nil, fmt.Errorf("deck: %d cards: want 1..%d", len(values), p.maxValue)
	}
	d := make(Deck, len(values))
	for i, v := range values {
		if v < 1 || v > p.maxValue {
			return nil, fmt.Errorf("deck: card %d has value %d: want 1..%d", i, v, p.maxValue)
		}
		d[i] = p.openCard(v)
	}
	return d, nil
}

// openCard is value v under the trivial mask, with its encoding: the
// identity's (32 zero bytes) and the value's, known from the fixed table,
// so a starting deck costs no encoding (each is an inverse square root: an
// eighth of a 2-player Air audit's set-up went to re-encoding the values).
func (p *Params) openCard(v int) Card {
	var enc [CardSize]byte
	copy(enc[ElementSize:], p.encs[v-1][:])
	return Card{c1: newElement(), c2: dup(p.values[v-1]), enc: &enc, tabs: &p.tabs[v-1]}
}

// FullDeck returns [Params.NewDeck] of the values 1..MaxValue, one each.
func (p *Params) FullDeck() Deck {
	vs := make([]int, p.maxValue)
	for i := range vs {
		vs[i] = i + 1
	}
	d, err := p.NewDeck(vs)
	if err != nil {
		panic(err) // the values are in range by construction
	}
	return d
}
