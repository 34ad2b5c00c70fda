package fairness

import (
	"errors"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// More pre-share attacks, each a defence that holds (see also the
// properties in preshare_prop_attack_test.go and
// preshare_live_attack_test.go).

// A member holds its one contribution, but for the last share of a group
// of dice shares, which may close with pre-shares (runs.go): signed at
// once, its sender cannot know whether the match then waits for its own
// share of a roll again (the pre-share is that share) or for a decision
// (which voids it at once). Seat 0's move opens the group of roll c (seat
// 1 shares, then seat 0 as a member), and seat 1's move follows.
//
// Attacks: the member's pre-share with a forged link, a skipped link, a
// next chain mid-chain, or before the share, and a pre-share closing a
// member of any other group (a hello), are refused, live and in the
// audit, blaming the member's sender. The honest one is taken, pending,
// and void at seat 1's move: roll d takes seat 0's link after it.
func TestAttackMemberCarriesAPreshare(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send(0, tb.share(0), tb.shareAt(0, 2, 1))
	tb.send(1, tb.share(1))
	tb.send(0, move())
	if tb.m.group == nil {
		t.Fatal("no parallel group after seat 0's move")
	}
	seq, _, _, _, ok := tb.m.MemberPlace(0, 0)
	if !ok {
		t.Fatal("seat 0 owes no member's place")
	}
	member := func(ins ...WireInput) *Envelope { return tb.memberOf(0, seq, ins...) }
	tb.send(1, tb.share(1))
	forged := tb.preAt(0, 4)
	forged.Link = hexDigest(newHasher("forged").sum())
	midChain := tb.preAt(0, 4)
	midChain.Next = hexDigest(newHasher("tip").sum())
	for _, c := range []struct {
		what string
		want error
		ins  []WireInput
	}{
		{"a forged link", ErrChain, []WireInput{tb.shareAt(0, 3, 2), forged}},
		{"a skipped link", ErrChain, []WireInput{tb.shareAt(0, 3, 2), tb.preAt(0, 5)}},
		{"a next chain mid-chain", ErrChain, []WireInput{tb.shareAt(0, 3, 2), midChain}},
		{"the pre-share before the share", ErrMember, []WireInput{tb.preAt(0, 4), tb.shareAt(0, 3, 2)}},
	} {
		t.Logf("seat 0's member with %s", c.what)
		tb.refusedEnvelope(0, c.want, member(c.ins...))
	}
	honest := member(tb.shareAt(0, 3, 2), tb.preAt(0, 4))
	m := tb.replay()
	if _, err := m.Accept(honest); err != nil {
		t.Fatalf("seat 0's member closed with an honest pre-share: %v", err)
	}
	if m.Preshared(0) != 1 {
		t.Fatalf("seat 0 has %d pre-shares pending after its member, want 1", m.Preshared(0))
	}
	tb.envs = append(tb.envs, honest)
	tb.m = m
	tb.send(1, move(), tb.shareAt(1, 4, 3))
	if tb.m.Preshared(0) != 0 {
		t.Fatalf("seat 1's move left %d of seat 0's pre-shares pending", tb.m.Preshared(0))
	}
	tb.refused(0, ErrChain, tb.shareAt(0, 4, 3)) // the voided link
	tb.send(0, tb.shareAt(0, 5, 3))
	if rep := tb.audit(tb.envs); rep.Verdict != Clean {
		t.Fatal(rep.Summary())
	}
}

// A hello's member (the set-up run's last place) holds its hello alone:
// closed with a pre-share it is refused, blaming its sender.
func TestAttackHelloMemberCarriesAPreshare(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	e := tb.memberOf(1, 2, tb.hello(1), tb.preAt(1, 1))
	tb.send(0, tb.hello(0))
	tb.refusedEnvelope(1, ErrBadMember, e)
}

// A run of rolls is predicted exactly, so its last member holds its share
// alone: only the last share of one roll, which may be asked again, closes
// with pre-shares. Seat 1's member at the run's last place (its share of
// roll b) closed with a pre-share is refused, blaming it.
func TestAttackLastMemberOfARunOfRollsCarriesAPreshare(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.send(1, tb.share(1))
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	tb.take(tb.memberOf(0, 5, tb.shareAt(0, 2, 1)))
	tb.refusedEnvelope(1, ErrBadMember, tb.memberOf(1, 6, tb.shareAt(1, 2, 1), tb.preAt(1, 3)))
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

// A group's last share closes with pre-shares only where a value of its
// roll asks the same seats for a roll again, and with no more than are
// staged before values of that roll or of the rolls after it could end
// the match (a pre-share after the end would be refused, and the honest
// member with it).
func TestSafePresharesStopBeforeTheEnd(t *testing.T) {
	a, b := rollsScript[0], rollsScript[1]
	for _, c := range []struct {
		what   string
		script []engine.Need
		want   int
	}{
		{"a roll the match ends on", []engine.Need{a}, 0},
		{"a roll a decision follows", []engine.Need{a, rollsScript[2]}, 0},
		{"a roll then another the match ends on", []engine.Need{a, b}, 1},
		{"two rolls and a decision", []engine.Need{a, b, rollsScript[2]}, 4},
	} {
		if got := safePreshares(&rolls{script: c.script}, a, 4); got != c.want {
			t.Errorf("%s: %d pre-shares, want %d", c.what, got, c.want)
		}
	}
	// Sea's first-player roll: a tie rolls again, and three ties in a row
	// are within maxPreshareCopies.
	g, err := mustSpec(t, "sea").New(engine.Setup{Variant: "standard", Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	for n := g.Next(); n.Kind == engine.NeedCommit; n = g.Next() {
		if _, err := g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := safePreshares(g, g.Next(), 4); got != 3 {
		t.Errorf("sea's first-player roll: %d pre-shares, want 3", got)
	}
}
