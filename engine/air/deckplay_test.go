package air

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// mentalDeck plays the shared Navigation deck with the real protocol of
// package fairness/deck (every seat shuffles with a proof, dealt cards are
// unmasked by the other seats' verified shares and peeked by the receiver,
// played cards are opened by everybody's shares), feeding the engine what a
// referee would.
type mentalDeck struct {
	t      testing.TB
	r      *referee
	rng    *rand.ChaCha8
	match  engine.Digest
	params map[string]*deck.Params
	keys   map[string][]*deck.KeyShare
	joint  map[string]*deck.JointKey
	cards  map[string]deck.Deck
	// corrupt, when set, replaces the share seat `from` gives for a card
	// dealt to another seat.
	corrupt func(name string, pos int, from int, sh *deck.Share) *deck.Share
}

func newMentalDeck(t testing.TB, r *referee) *mentalDeck {
	var seed [32]byte
	seed[0] = 42
	m := &mentalDeck{t: t, r: r, rng: rand.NewChaCha8(seed), match: engine.Digest{1, 2, 3},
		params: map[string]*deck.Params{}, keys: map[string][]*deck.KeyShare{}, joint: map[string]*deck.JointKey{}, cards: map[string]deck.Deck{}}
	r.Answers[engine.NeedShuffle] = m.shuffle
	r.Answers[engine.NeedDeal] = m.deal
	r.Answers[engine.NeedOpen] = m.open
	return m
}

// shuffle has every seat shuffle the deck in turn, each with a verified
// proof.
func (m *mentalDeck) shuffle(n engine.Need) (engine.Input, error) {
	p, err := deck.NewParams(m.match, n.Name, DeckSize)
	if err != nil {
		return engine.Input{}, err
	}
	var keys []*deck.KeyShare
	var pubs []*deck.PublicKey
	for _, s := range n.Seats {
		k, err := p.GenerateKey(m.rng, int(s))
		if err != nil {
			return engine.Input{}, err
		}
		keys = append(keys, k)
		pubs = append(pubs, k.Public())
	}
	jk, err := p.NewJointKey(pubs)
	if err != nil {
		return engine.Input{}, err
	}
	d, err := p.NewDeck(m.r.deckValues(n))
	if err != nil {
		return engine.Input{}, err
	}
	for range n.Seats {
		out, proof, err := p.Shuffle(m.rng, jk, d)
		if err != nil {
			return engine.Input{}, err
		}
		if err := p.VerifyShuffle(jk, d, out, proof); err != nil {
			return engine.Input{}, err
		}
		d = out
	}
	m.params[n.Name], m.keys[n.Name], m.joint[n.Name], m.cards[n.Name] = p, keys, jk, d
	m.r.decks[n.Name] = make([]int, n.Size) // filled in as cards are peeked
	return engine.Input{Kind: n.Kind, Seat: engine.NoSeat}, nil
}

// deal unmasks the dealt positions for the receiver.
func (m *mentalDeck) deal(n engine.Need) (engine.Input, error) {
	p, jk, d := m.params[n.Name], m.joint[n.Name], m.cards[n.Name]
	var positions []int
	for i := range n.Count {
		pos := m.r.next[n.Name] + i
		var shares []*deck.Share
		for s, k := range m.keys[n.Name] {
			if s == int(n.Seat) {
				continue
			}
			sh, err := p.UnmaskShare(k, pos, d[pos])
			if err != nil {
				return engine.Input{}, err
			}
			if m.corrupt != nil {
				sh = m.corrupt(n.Name, pos, s, sh)
			}
			shares = append(shares, sh)
		}
		v, err := p.Peek(jk, m.keys[n.Name][n.Seat], pos, d[pos], shares)
		if err != nil {
			return engine.Input{}, fmt.Errorf("%s peeks %s[%d]: %w", n.Seat, n.Name, pos, err)
		}
		m.r.decks[n.Name][pos] = v
		positions = append(positions, pos)
	}
	return engine.Input{Kind: n.Kind, Seat: n.Seat, Cards: positions}, nil
}

// open plays cards: every seat's share, and everybody reads the number.
func (m *mentalDeck) open(n engine.Need) (engine.Input, error) {
	var out []engine.Opened
	for _, s := range n.Open {
		p, jk, d := m.params[s.Name], m.joint[s.Name], m.cards[s.Name]
		var shares []*deck.Share
		for _, k := range m.keys[s.Name] {
			sh, err := p.UnmaskShare(k, s.Index, d[s.Index])
			if err != nil {
				return engine.Input{}, err
			}
			shares = append(shares, sh)
		}
		v, err := p.Open(jk, s.Index, d[s.Index], shares)
		if err != nil {
			return engine.Input{}, err
		}
		if v != m.r.decks[s.Name][s.Index] {
			return engine.Input{}, fmt.Errorf("%s opened as %d, peeked as %d", s, v, m.r.decks[s.Name][s.Index])
		}
		out = append(out, engine.Opened{Slot: s, Value: []byte{byte(v)}})
	}
	return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: out}, nil
}

func TestMatchOverMentalDeck(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the cryptographic deck")
	}
	r := newReferee(t, 2, VariantStandard, 77, randomAgents(2, 77))
	newMentalDeck(t, r)
	reshuffled := false
	for r.Game.Next().Kind != engine.NeedNone {
		if r.Game.Next().Name == "nav/2" {
			reshuffled = true
		}
		if _, err := r.Step(); err != nil {
			t.Fatalf("step %d: %v", r.Steps(), err)
		}
		invariants(t, r.Game)
	}
	if !reshuffled {
		t.Fatal("the match ended before the discard pile was reshuffled: pick a seed with a longer match")
	}
}

func TestWrongUnmaskingShareCaught(t *testing.T) {
	r := newReferee(t, 3, VariantFreeForAll, 78, randomAgents(3, 78))
	m := newMentalDeck(t, r)
	// Seat 2 answers the deal of position 9 (to seat 1) with its share of
	// position 10, hoping seat 1 reads a wrong card.
	m.corrupt = func(name string, pos, from int, sh *deck.Share) *deck.Share {
		if pos != 9 || from != 2 {
			return sh
		}
		bad, err := m.params[name].UnmaskShare(m.keys[name][2], 10, m.cards[name][10])
		if err != nil {
			t.Fatal(err)
		}
		bad.Pos = 9
		return bad
	}
	for r.Game.Next().Kind != engine.NeedChoice {
		if _, err := r.Step(); err != nil {
			if n := r.Game.Next(); n.Kind == engine.NeedDeal && n.Seat == 1 && errors.Is(err, deck.ErrInvalid) {
				t.Logf("caught: %v", err)
				return
			}
			t.Fatalf("failed elsewhere: %v", err)
		}
	}
	t.Fatal("a wrong unmasking share went unnoticed")
}
