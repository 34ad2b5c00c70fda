package deck

import "testing"

// A deck made after a seat went out holds no key of it: the joint key
// skips a nil entry, a card opens with the shares of the seats that hold a
// key alone, a share from the seat without one is refused, and a deck
// with no key at all is refused.
func TestJointKeyWithoutAnOutSeat(t *testing.T) {
	tb := newTable(t, 3, 20, 9)
	pubs := []*PublicKey{tb.keys[0].Public(), nil, tb.keys[2].Public()}
	jk, err := tb.p.NewJointKey(pubs)
	if err != nil {
		t.Fatal(err)
	}
	tb.jk = jk
	tb.shuffleAll()
	if jk.Key(1) != nil {
		t.Fatal("the out seat holds a key of the deck")
	}
	var shares []*Share
	for _, s := range []int{0, 2} {
		sh, err := tb.p.UnmaskShare(tb.keys[s], 3, tb.deck[3])
		if err != nil {
			t.Fatal(err)
		}
		shares = append(shares, sh)
	}
	v, err := tb.p.Open(jk, 3, tb.deck[3], shares)
	if err != nil || v < 1 || v > 20 {
		t.Fatalf("open with the key holders' shares: %d, %v", v, err)
	}
	if _, err := tb.p.Open(jk, 3, tb.deck[3], shares[:1]); err == nil {
		t.Fatal("a card opened without every key holder's share")
	}
	out, err := tb.p.UnmaskShare(tb.keys[1], 3, tb.deck[3])
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.p.VerifyShare(jk, 3, tb.deck[3], out); err == nil {
		t.Fatal("a share of the seat without a key verified")
	}
	if _, err := tb.p.NewJointKey([]*PublicKey{nil, nil}); err == nil {
		t.Fatal("a joint key of no key share accepted")
	}
}
