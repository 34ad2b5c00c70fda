package fairness

import (
	"errors"
	"testing"
)

// More pre-share attacks, each a defence that holds (see also the
// properties in preshare_prop_attack_test.go and
// preshare_live_attack_test.go).

// A member holds its one contribution: a member closed with a pre-share
// (to learn the other seat's roll a flight early, or to take a place) is
// refused, blaming its sender. Seat 0's move opens the group of roll c
// (seat 1 shares, then seat 0 as a member).
func TestAttackMemberCarriesAPreshare(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send(0, tb.share(0), tb.shareAt(0, 2, 1))
	tb.send(1, tb.share(1))
	tb.send(0, move())
	if tb.m.group == nil {
		t.Fatal("no parallel group after seat 0's move")
	}
	seq, prev, state, _, ok := tb.m.MemberPlace(0, 0)
	if !ok {
		t.Fatal("seat 0 owes no member's place")
	}
	body, err := EncodeBody(&Body{Inputs: []WireInput{tb.shareAt(0, 3, 2), tb.preAt(0, 4)}, State: hexDigest(state)})
	if err != nil {
		t.Fatal(err)
	}
	member := &Envelope{Match: hexDigest(tb.m.ID()), Seq: seq, Prev: hexDigest(prev), Body: body}
	if err := member.Sign(tb.keys[0]); err != nil {
		t.Fatal(err)
	}
	tb.send(1, tb.share(1))
	m := tb.replay()
	_, err = m.Accept(member)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != 0 || !errors.Is(err, ErrMember) {
		t.Fatalf("got %v, want seat 0's member refused", err)
	}
}

// A pre-share's link, once a roll took it, is spent: offering it again as
// the seat's share of a later roll fails the chain, live and in the audit.
func TestAttackPreshareLinkSharedAgain(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send1(tb.pre(1)) // link 2: roll b
	tb.send(0, tb.shareAt(0, 1, 0), tb.shareAt(0, 2, 1), move())
	// Roll c waits for seat 1's share first (seat 0 acts on it, last):
	// its link 3, not the pre-shared link 2 again.
	tb.refused(1, ErrChain, tb.shareAt(1, 2, 2))
	tb.send(1, tb.shareAt(1, 3, 2))
}

// Nothing follows a resignation: a pre-share after it is refused.
func TestAttackPreshareAfterResigning(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	m := tb.replay()
	e, err := m.Draft([]WireInput{{T: InResign}, tb.preAt(0, 1)}, m.StateHash(), tb.keys[0])
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Accept(e)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != 0 {
		t.Fatalf("got %v, want a violation by seat 0", err)
	}
}
