package deck

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// table is one match's deck as every seat's referee would hold it, driven
// honestly; tests then break single steps.
type table struct {
	t     testing.TB
	p     *Params
	keys  []*KeyShare
	jk    *JointKey
	deck  Deck
	rng   *rand.ChaCha8
	match engine.Digest
}

func testMatch(b byte) engine.Digest {
	var d engine.Digest
	for i := range d {
		d[i] = b + byte(i)
	}
	return d
}

func newTable(t testing.TB, seats, cards int, seed byte) *table {
	t.Helper()
	var s [32]byte
	s[0] = seed
	tb := &table{t: t, rng: rand.NewChaCha8(s), match: testMatch(seed)}
	p, err := NewParams(tb.match, "nav", cards)
	if err != nil {
		t.Fatal(err)
	}
	tb.p = p
	pubs := make([]*PublicKey, seats)
	for i := range seats {
		k, err := p.GenerateKey(tb.rng, i)
		if err != nil {
			t.Fatal(err)
		}
		tb.keys = append(tb.keys, k)
		pubs[i] = k.Public()
	}
	if tb.jk, err = p.NewJointKey(pubs); err != nil {
		t.Fatal(err)
	}
	tb.deck = p.FullDeck()
	return tb
}

// shuffleAll has every seat shuffle in turn, each shuffle verified.
func (tb *table) shuffleAll() {
	tb.t.Helper()
	for s := range tb.keys {
		out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck)
		if err != nil {
			tb.t.Fatalf("seat %d shuffle: %v", s, err)
		}
		if err := tb.p.VerifyShuffle(tb.jk, tb.deck, out, proof); err != nil {
			tb.t.Fatalf("seat %d shuffle does not verify: %v", s, err)
		}
		tb.deck = out
	}
}

// deal gives position pos to seat to: every other seat's share, then a peek.
func (tb *table) deal(pos, to int) int {
	tb.t.Helper()
	var shares []*Share
	for s, k := range tb.keys {
		if s == to {
			continue
		}
		sh, err := tb.p.UnmaskShare(k, pos, tb.deck[pos])
		if err != nil {
			tb.t.Fatal(err)
		}
		shares = append(shares, sh)
	}
	v, err := tb.p.Peek(tb.jk, tb.keys[to], pos, tb.deck[pos], shares)
	if err != nil {
		tb.t.Fatalf("seat %d peeks card %d: %v", to, pos, err)
	}
	return v
}

func (tb *table) allShares(pos int) []*Share {
	var shares []*Share
	for _, k := range tb.keys {
		sh, err := tb.p.UnmaskShare(k, pos, tb.deck[pos])
		if err != nil {
			tb.t.Fatal(err)
		}
		shares = append(shares, sh)
	}
	return shares
}

func TestShuffleDealPlay(t *testing.T) {
	for _, seats := range []int{2, 3, 4} {
		t.Run(string(rune('0'+seats))+" players", func(t *testing.T) {
			tb := newTable(t, seats, 60, byte(seats))
			tb.shuffleAll()
			seen := make([]int, 0, 60)
			for pos := range 60 {
				to := pos % seats
				v := tb.deal(pos, to)
				// Playing the card: the holder's share too, and everybody learns it.
				got, err := tb.p.Open(tb.jk, pos, tb.deck[pos], tb.allShares(pos))
				if err != nil {
					t.Fatalf("open card %d: %v", pos, err)
				}
				if got != v {
					t.Fatalf("card %d: peeked %d, opened %d", pos, v, got)
				}
				seen = append(seen, v)
			}
			slices.Sort(seen)
			for i, v := range seen {
				if v != i+1 {
					t.Fatalf("dealt values are not 1..60 once each: %v", seen)
				}
			}
		})
	}
}

func TestShuffleHidesOrder(t *testing.T) {
	// After the shuffles the deck is not the identity (2^-270 chance), and no
	// card is its starting ciphertext.
	tb := newTable(t, 2, 60, 9)
	start := tb.deck.Clone()
	tb.shuffleAll()
	order := make([]int, 60)
	for pos := range 60 {
		order[pos] = tb.deal(pos, 0)
		for _, c := range start {
			if c.Equal(tb.deck[pos]) {
				t.Fatalf("card %d still has a starting ciphertext", pos)
			}
		}
	}
	if slices.IsSorted(order) {
		t.Fatalf("shuffled deck kept its order: %v", order)
	}
}

func TestNobodyElseLearnsDealtCard(t *testing.T) {
	// Seat 1 receives card 0. Seat 0 holding only seat 1's... nothing: with
	// its own key and no share from seat 1 it cannot open.
	tb := newTable(t, 3, 60, 3)
	tb.shuffleAll()
	sh2, err := tb.p.UnmaskShare(tb.keys[2], 0, tb.deck[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.p.Peek(tb.jk, tb.keys[0], 0, tb.deck[0], []*Share{sh2}); err == nil {
		t.Fatal("seat 0 opened a card without seat 1's share")
	}
	if _, err := tb.p.Open(tb.jk, 0, tb.deck[0], tb.allShares(0)[:2]); err == nil {
		t.Fatal("opened a card without every seat's share")
	}
}

func TestBadShuffleRejected(t *testing.T) {
	tb := newTable(t, 3, 60, 4)
	tb.shuffleAll()
	in := tb.deck
	n := len(in)
	identity := make([]int, n)
	for i := range identity {
		identity[i] = i
	}
	reencrypt := func(c Card) Card {
		r, _ := randScalar(tb.rng)
		return Card{
			c1: newElement().Add(c.c1, newElement().ScalarBaseMult(r)),
			c2: newElement().Add(c.c2, newElement().ScalarMult(r, tb.jk.x)),
		}
	}
	good, proof, err := tb.p.Shuffle(tb.rng, tb.jk, in)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		build func() (Deck, *ShuffleProof)
	}{
		{"drops a card", func() (Deck, *ShuffleProof) { return good[:n-1], proof }},
		{"adds a card", func() (Deck, *ShuffleProof) { return append(good.Clone(), good[0]), proof }},
		{"duplicates a card (proof for the honest deck)", func() (Deck, *ShuffleProof) {
			out := good.Clone()
			out[1] = reencrypt(out[0])
			return out, proof
		}},
		{"duplicates a card (proof for a duplicating permutation)", func() (Deck, *ShuffleProof) {
			perm := slices.Clone(identity)
			perm[1] = 0 // not a permutation: card 0 twice, card 1 gone
			out, pr, err := tb.p.shuffleWith(tb.rng, tb.jk, in, perm)
			if err != nil {
				t.Fatal(err)
			}
			return out, pr
		}},
		{"replaces a card with a fresh one", func() (Deck, *ShuffleProof) {
			out := good.Clone()
			fresh, _ := tb.p.NewDeck([]int{7})
			out[5] = reencrypt(fresh[0])
			return out, proof
		}},
		{"replaces a card, proving with the replaced input", func() (Deck, *ShuffleProof) {
			// Shuffle a deck whose card 3 was swapped for a copy of card 4, and
			// present the proof against the real input.
			forged := in.Clone()
			forged[3] = reencrypt(in[4])
			out, pr, err := tb.p.Shuffle(tb.rng, tb.jk, forged)
			if err != nil {
				t.Fatal(err)
			}
			return out, pr
		}},
		{"reorders the output after proving", func() (Deck, *ShuffleProof) {
			out := good.Clone()
			out[0], out[1] = out[1], out[0]
			return out, proof
		}},
		{"proof of another shuffle", func() (Deck, *ShuffleProof) {
			_, other, err := tb.p.Shuffle(tb.rng, tb.jk, in)
			if err != nil {
				t.Fatal(err)
			}
			return good, other
		}},
		{"tampered response", func() (Deck, *ShuffleProof) {
			pr := *proof
			pr.sPrime = slices.Clone(proof.sPrime)
			pr.sPrime[7] = newScalar().Add(pr.sPrime[7], pr.sPrime[7])
			return good, &pr
		}},
		{"nil proof", func() (Deck, *ShuffleProof) { return good, nil }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, pr := c.build()
			err := tb.p.VerifyShuffle(tb.jk, in, out, pr)
			if err == nil {
				t.Fatal("bad shuffle accepted")
			}
			if !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v wraps neither ErrInvalid nor ErrMalformed", err)
			}
		})
	}
	t.Run("honest shuffle still verifies", func(t *testing.T) {
		if err := tb.p.VerifyShuffle(tb.jk, in, good, proof); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("proof under another deck name", func(t *testing.T) {
		other, err := NewParams(tb.match, "nav/2", 60)
		if err != nil {
			t.Fatal(err)
		}
		if err := other.VerifyShuffle(tb.jk, in, good, proof); err == nil {
			t.Fatal("shuffle proof verified under another deck's domain")
		}
	})
	t.Run("proof under another match", func(t *testing.T) {
		other, err := NewParams(testMatch(99), "nav", 60)
		if err != nil {
			t.Fatal(err)
		}
		if err := other.VerifyShuffle(tb.jk, in, good, proof); err == nil {
			t.Fatal("shuffle proof verified under another match")
		}
	})
}

func TestBadShareRejected(t *testing.T) {
	tb := newTable(t, 3, 60, 5)
	tb.shuffleAll()
	pos := 10
	card := tb.deck[pos]
	good, err := tb.p.UnmaskShare(tb.keys[1], pos, card)
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.p.VerifyShare(tb.jk, pos, card, good); err != nil {
		t.Fatalf("honest share rejected: %v", err)
	}

	// A stale share: same seats, another deck (its own keys, its own name).
	stale := newTable(t, 3, 60, 5)
	staleP, _ := NewParams(stale.match, "nav/2", 60)
	stale.p = staleP
	stale.deck = tb.deck // even the same ciphertexts
	staleShare, err := staleP.UnmaskShare(stale.keys[1], pos, card)
	if err != nil {
		t.Fatal(err)
	}
	// The same key reused in another deck name: the domain still differs.
	otherDeck, _ := NewParams(tb.match, "nav/2", 60)
	reused, err := otherDeck.UnmaskShare(tb.keys[1], pos, card)
	if err != nil {
		t.Fatal(err)
	}
	otherCard, err := tb.p.UnmaskShare(tb.keys[1], pos+1, tb.deck[pos+1])
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		sh   *Share
	}{
		{"wrong D", &Share{Seat: 1, Pos: pos, d: newElement().Add(good.d, newElement().Base()), e: good.e, s: good.s}},
		{"D of another seat's key", func() *Share {
			s2, _ := tb.p.UnmaskShare(tb.keys[2], pos, card)
			return &Share{Seat: 1, Pos: pos, d: s2.d, e: s2.e, s: s2.s}
		}()},
		{"identity D", &Share{Seat: 1, Pos: pos, d: newElement(), e: good.e, s: good.s}},
		{"tampered response", &Share{Seat: 1, Pos: pos, d: good.d, e: good.e, s: newScalar().Add(good.s, good.e)}},
		{"share of another card", &Share{Seat: 1, Pos: pos, d: otherCard.d, e: otherCard.e, s: otherCard.s}},
		{"share claimed for another position", &Share{Seat: 1, Pos: pos + 1, d: good.d, e: good.e, s: good.s}},
		{"stale share from another deck", staleShare},
		{"same key, another deck name", reused},
		{"unknown seat", &Share{Seat: 7, Pos: pos, d: good.d, e: good.e, s: good.s}},
		{"nil", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := tb.p.VerifyShare(tb.jk, pos, card, c.sh); err == nil {
				t.Fatal("bad share accepted")
			}
			shares := tb.allShares(pos)
			shares[1] = c.sh
			if _, err := tb.p.Open(tb.jk, pos, card, shares); err == nil {
				t.Fatal("card opened with a bad share")
			}
		})
	}
	t.Run("duplicate share", func(t *testing.T) {
		shares := tb.allShares(pos)
		shares[2] = shares[1]
		if _, err := tb.p.Open(tb.jk, pos, card, shares); err == nil {
			t.Fatal("card opened with a seat's share twice")
		}
	})
}

func TestJointKeyChecks(t *testing.T) {
	tb := newTable(t, 3, 60, 6)
	pubs := []*PublicKey{tb.keys[0].Public(), tb.keys[1].Public(), tb.keys[2].Public()}
	t.Run("rogue key without proof", func(t *testing.T) {
		// Seat 2 publishes X = Y − X0 − X1 to control the joint key: it cannot
		// prove knowledge of its discrete log.
		rogue := *pubs[2]
		rogue.x = newElement().Subtract(newElement().Base(), pubs[0].x)
		rogue.x.Subtract(rogue.x, pubs[1].x)
		if _, err := tb.p.NewJointKey([]*PublicKey{pubs[0], pubs[1], &rogue}); err == nil {
			t.Fatal("rogue key accepted")
		}
	})
	t.Run("key of another seat", func(t *testing.T) {
		if _, err := tb.p.NewJointKey([]*PublicKey{pubs[0], pubs[2], pubs[1]}); err == nil {
			t.Fatal("keys out of seat order accepted")
		}
	})
	t.Run("copied key", func(t *testing.T) {
		cp := *pubs[0]
		cp.Seat = 1
		if _, err := tb.p.NewJointKey([]*PublicKey{pubs[0], &cp, pubs[2]}); err == nil {
			t.Fatal("copied key accepted")
		}
	})
	t.Run("key proof from another deck", func(t *testing.T) {
		other, _ := NewParams(tb.match, "nav/2", 60)
		if err := other.VerifyPublicKey(pubs[0]); err == nil {
			t.Fatal("key proof verified under another deck")
		}
	})
}

func TestEncodingsRoundTrip(t *testing.T) {
	tb := newTable(t, 2, 12, 7)
	out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("deck", func(t *testing.T) {
		b, err := out.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != 2+12*CardSize {
			t.Fatalf("deck of 12 is %d bytes", len(b))
		}
		var d Deck
		if err := d.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if !d.Equal(out) {
			t.Fatal("deck changed in a round trip")
		}
	})
	t.Run("proof", func(t *testing.T) {
		b, err := proof.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if len(b) != ShuffleProofSize(12) {
			t.Fatalf("proof is %d bytes, want %d", len(b), ShuffleProofSize(12))
		}
		var pr ShuffleProof
		if err := pr.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if err := tb.p.VerifyShuffle(tb.jk, tb.deck, out, &pr); err != nil {
			t.Fatalf("decoded proof does not verify: %v", err)
		}
	})
	t.Run("share", func(t *testing.T) {
		sh, _ := tb.p.UnmaskShare(tb.keys[0], 3, out[3])
		b, err := sh.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got Share
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if err := tb.p.VerifyShare(tb.jk, 3, out[3], &got); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("keys", func(t *testing.T) {
		b, err := tb.keys[1].Public().MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var pk PublicKey
		if err := pk.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if err := tb.p.VerifyPublicKey(&pk); err != nil {
			t.Fatal(err)
		}
		kb, err := tb.keys[1].MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var k KeyShare
		if err := k.UnmarshalBinary(kb); err != nil {
			t.Fatal(err)
		}
		kb[5] ^= 1
		if err := k.UnmarshalBinary(kb); err == nil {
			t.Fatal("key share with a changed secret accepted")
		}
	})
	t.Run("malformed", func(t *testing.T) {
		cases := map[string][]byte{
			"empty":           {},
			"short count":     {0},
			"count too large": {0xff, 0xff},
			"missing card":    {0, 1},
			"non-canonical":   append([]byte{0, 1}, make([]byte, 63)...),
		}
		bad := append([]byte{0, 1}, make([]byte, 64)...)
		bad[2] = 0xff // not a canonical field element
		cases["bad element"] = bad
		cases["trailing"] = append(mustMarshal(t, out[:1]), 0)
		for name, b := range cases {
			var d Deck
			if err := d.UnmarshalBinary(b); !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: got %v, want ErrMalformed", name, err)
			}
		}
	})
}

func mustMarshal(t *testing.T, d Deck) []byte {
	b, err := d.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
