package deck

import (
	"testing"
)

// OpenChecked takes the shares a referee verified at the deal as verified
// and verifies the fresh one, the holder's: the same value as Open, and
// every bad fresh share, a missing or repeated seat, or a kept share of
// another card still refused.
func TestOpenCheckedIsOpen(t *testing.T) {
	tb := newTable(t, 3, 20, 9)
	tb.shuffleAll()
	pos := 4
	card := tb.deck[pos]
	all := tb.allShares(pos)
	want, err := tb.p.Open(tb.jk, pos, card, all)
	if err != nil {
		t.Fatal(err)
	}
	got, err := tb.p.OpenChecked(tb.jk, pos, card, all[:1], all[1:])
	if err != nil || got != want {
		t.Fatalf("OpenChecked = %d, %v; Open = %d", got, err, want)
	}
	good := all[0]
	other, err := tb.p.UnmaskShare(tb.keys[1], pos+1, tb.deck[pos+1])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		fresh, checked []*Share
	}{
		{"tampered fresh share", []*Share{{Seat: 0, Pos: pos, d: good.d, e: good.e, s: newScalar().Add(good.s, good.e)}}, all[1:]},
		{"wrong D in the fresh share", []*Share{{Seat: 0, Pos: pos, d: newElement().Base(), e: good.e, s: good.s}}, all[1:]},
		{"a seat's share missing", all[:1], all[1:2]},
		{"a seat twice", all[:1], []*Share{all[1], all[1]}},
		{"the fresh seat again among the kept", all[:1], []*Share{all[0], all[2]}},
		{"a kept share of another card", all[:1], []*Share{other, all[2]}},
		{"a kept nil", all[:1], []*Share{nil, all[2]}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := tb.p.OpenChecked(tb.jk, pos, card, c.fresh, c.checked); err == nil {
				t.Fatal("card opened")
			}
		})
	}
}
