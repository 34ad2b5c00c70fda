package deck_test

import (
	"crypto/rand"
	"fmt"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// Two seats shuffle a 5-card deck, deal card 0 to seat 1, and play it.
func Example() {
	var match engine.Digest // the match ID from the transcript header
	p, _ := deck.NewParams(match, "nav", 5)

	// 1. Keys: each seat publishes its key share with its proof.
	k0, _ := p.GenerateKey(rand.Reader, 0)
	k1, _ := p.GenerateKey(rand.Reader, 1)
	jk, err := p.NewJointKey([]*deck.PublicKey{k0.Public(), k1.Public()})
	if err != nil {
		fmt.Println(err)
		return
	}

	// 2-3. The public deck, shuffled by each seat in turn; every peer
	// verifies each shuffle.
	d := p.FullDeck()
	for range 2 {
		out, proof, _ := p.Shuffle(rand.Reader, jk, d)
		if err := p.VerifyShuffle(jk, d, out, proof); err != nil {
			fmt.Println(err)
			return
		}
		d = out
	}

	// 4. Deal position 0 to seat 1: seat 0 sends its share; seat 1 peeks.
	sh0, _ := p.UnmaskShare(k0, 0, d[0])
	secret, err := p.Peek(jk, k1, 0, d[0], []*deck.Share{sh0})
	if err != nil {
		fmt.Println(err)
		return
	}

	// 5. Seat 1 plays it: its share too, and everybody reads the value.
	sh1, _ := p.UnmaskShare(k1, 0, d[0])
	played, err := p.Open(jk, 0, d[0], []*deck.Share{sh0, sh1})
	fmt.Println(err == nil, played == secret, played >= 1 && played <= 5)
	// Output: true true true
}
