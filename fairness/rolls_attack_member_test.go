package fairness

import (
	"errors"
	"slices"
	"testing"
)

// Attacks on ErrBadMember (a member that holds what its place may not is
// proved by its signature alone, audit.go needsWitness) through a run of
// rolls (rollruns_attack_test.go's table: after both hellos, message 2,
// the places are seat 1's and seat 0's shares of roll a, then seat 0's
// and seat 1's of roll b, messages 3 to 6).

// provedAgainst reports whether a record of envs convicts seat on proof
// (a violation needing no witness).
func (tb *preTable) provedAgainst(envs []*Envelope, seat int) (*Report, bool) {
	tb.t.Helper()
	rep := tb.audit(envs)
	v := rep.Violation
	return rep, rep.Verdict == Violated && v != nil && int(v.Seat) == seat && !needsWitness(v)
}

// A breaker's one chained message for both its places (its shares of a
// and b, legal in itself) breaks the run: seat 1's member for its share of
// b, signed at once after the base, is orphaned. It must never read as a
// bad member (proved by its signature): live it is refused as out of
// sequence, needing a witness; in a record the breaker writes with it
// after seat 1's chained share of b, or in place of that share, it proves
// nothing against seat 1; and the joint audit of that record with seat
// 1's honest one does not convict seat 1.
func TestAttackRollsRunOrphanReadsAsNoBadMember(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.send(1, tb.share(1))
	orphan := tb.memberOf(1, 6, tb.shareAt(1, 2, 1))
	tb.send(0, tb.shareAt(0, 1, 0), tb.shareAt(0, 2, 1)) // message 4: both its places at once
	m := tb.replay()
	var v *Violation
	if _, err := m.Accept(orphan); !errors.As(err, &v) || errors.Is(err, ErrBadMember) || !needsWitness(v) {
		t.Fatalf("the orphaned member live: %v, want a violation out of sequence that needs a witness", err)
	}
	broken := slices.Clone(tb.envs)
	tb.send(1, tb.shareAt(1, 2, 1)) // seat 1 chains its share of b at 5
	honest := tb.envs
	if rep := tb.audit(honest); rep.Verdict != Incomplete {
		t.Fatalf("the honest record: %s", rep.Summary())
	}
	for _, c := range []struct {
		what string
		envs []*Envelope
	}{
		{"after seat 1's chained share", append(slices.Clone(honest), orphan)},
		{"in place of seat 1's chained share", append(slices.Clone(broken), orphan)},
	} {
		rep, proved := tb.provedAgainst(c.envs, 1)
		if proved {
			t.Fatalf("%s: the orphaned member convicts seat 1: %s", c.what, rep.Summary())
		}
		j, err := AuditJoint([]*Report{tb.audit(honest), rep})
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict == Violated && j.Violation.Seat == 1 {
			t.Fatalf("%s: the joint audit convicts seat 1: %s", c.what, j.Summary())
		}
	}
}

// Every honest member of a run of rolls, put by a forger at every other
// number of the record (after the honest messages before that number, or
// after its own place's honest message), never convicts its signer on
// proof: its number and Prev are signed, so it reads as a member only
// where its group stands intact, and there its content is right.
func TestAttackRollsRunMemberMovedProvesNothing(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.send(1, tb.share(1))
	members := tb.runMembers()
	for _, e := range members {
		tb.take(e)
	}
	tb.send(0, move())
	for _, e := range members {
		seat := int(tb.h.Seat(e.From))
		for at := 2; at <= len(tb.envs); at++ {
			if tb.envs[at-1] == e {
				continue
			}
			forged := append(slices.Clone(tb.envs[:at]), e)
			if rep, proved := tb.provedAgainst(forged, seat); proved {
				t.Fatalf("seat %d's member %d after message %d convicts it: %s", seat, e.Seq, at, rep.Summary())
			}
		}
	}
}

// A member numbered far beyond its group, or the last place's member sent
// with the group's base a message too early (numbered as the place after
// the run), is refused live as out of sequence and proves nothing by
// itself; the match goes on untouched.
func TestAttackRollsRunMemberFarAhead(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.send(1, tb.share(1))
	for _, seq := range []uint64{7, 1 << 20, 1<<63 + 5} {
		e := tb.memberOf(1, seq, tb.shareAt(1, 2, 1))
		m := tb.replay()
		var v *Violation
		if _, err := m.Accept(e); !errors.As(err, &v) || !needsWitness(v) {
			t.Fatalf("member numbered %d: %v, want a violation that needs a witness", seq, err)
		}
		if rep, proved := tb.provedAgainst(append(slices.Clone(tb.envs), e), 1); proved {
			t.Fatalf("a record with member %d convicts seat 1: %s", seq, rep.Summary())
		}
	}
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	if st, _ := tb.m.Next(); st.Seat != 0 || st.Roll != 1 {
		t.Fatalf("the match waits for %+v, want seat 0's share of roll b", st)
	}
}

// A member signed at its base shows that its writer held the base: the
// joint audit's signedAfter skips members based before step k only, so a
// claimant's member based at the message it calls bad still shows it held
// that message and went on (the record calling it bad was altered).
func TestAttackMemberBasedAtTheBadMessageShowsItWasHeld(t *testing.T) {
	r := &Report{Steps: []AuditStep{
		{Seq: 6, Seat: 0, OK: true},
		{Seq: 7, Seat: 0, OK: true},
		{Seq: 8, Seat: 0, OK: true},
		{Seq: 9, Seat: 1, OK: true, Member: true, Base: 7},
	}}
	if got, ok := signedAfter(r, 1, 1); !ok || got.Seq != 9 {
		t.Fatalf("seat 1's member 9, based at message 7: %+v %v, want it as signed after holding message 7", got, ok)
	}
	if _, ok := signedAfter(r, 2, 1); ok {
		t.Fatal("seat 1's member 9, based at message 7, taken as signed after holding message 8")
	}
}

// runMembers are the honest members of the rolls table's run once seat 1
// sent its share of roll a: seat 0's shares of a and b, seat 1's of b.
func (tb *preTable) runMembers() []*Envelope {
	return []*Envelope{
		tb.memberOf(0, 4, tb.shareAt(0, 1, 0)),
		tb.memberOf(0, 5, tb.shareAt(0, 2, 1)),
		tb.memberOf(1, 6, tb.shareAt(1, 2, 1)),
	}
}
