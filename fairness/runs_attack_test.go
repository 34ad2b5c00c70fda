package fairness_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// Attacks on runs (runs.go) by a player who has read the source: the
// set-up run of hellos and deck key shares and the run of a choice's
// reveals and the openings after them, in an honest 3-player Air record
// (recordGroup). Each forged message is re-signed by the seat that sends
// it, so only the rules of runs can refuse it.

// runOf returns the indexes of the envelopes of the run that envelope k
// belongs to as a member: every envelope naming the same base as its Prev
// and sent after it, the first place (chained on the base) included.
func (g *groupRecord) runOf(k int) []int {
	prev := g.envs[k].Prev
	var out []int
	for j, e := range g.envs {
		if e.Prev == prev {
			out = append(out, j)
		}
	}
	return out
}

// memberKinds returns the indexes of the members whose one input is of one
// of kinds.
func (g *groupRecord) memberKinds(kinds ...fairness.InputKind) []int {
	var out []int
	for k, e := range g.envs {
		if e.Prev == g.id(k-1) {
			continue
		}
		b, _ := fairness.DecodeBody(e.Body)
		if len(b.Inputs) == 1 && slices.Contains(kinds, b.Inputs[0].T) {
			out = append(out, k)
		}
	}
	return out
}

// inputOf returns envelope k's one input.
func (g *groupRecord) inputOf(t *testing.T, k int) fairness.WireInput {
	t.Helper()
	b, err := fairness.DecodeBody(g.envs[k].Body)
	if err != nil || len(b.Inputs) != 1 {
		t.Fatalf("envelope %d: %v, %d inputs", k, err, len(b.Inputs))
	}
	return b.Inputs[0]
}

// signedAs returns a copy of envelope k with its body edited by edit,
// signed by seat's key (From becomes seat's peer).
func (g *groupRecord) signedAs(t *testing.T, k int, seat engine.Seat, edit func(e *fairness.Envelope, b *fairness.Body)) *fairness.Envelope {
	t.Helper()
	src := g.envs[k]
	c := fairness.Envelope{Match: src.Match, Seq: src.Seq, Prev: src.Prev}
	b, err := fairness.DecodeBody(src.Body)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&c, b)
	}
	if c.Body, err = fairness.EncodeBody(b); err != nil {
		t.Fatal(err)
	}
	if err := c.Sign(g.keys[seat]); err != nil {
		t.Fatal(err)
	}
	return &c
}

// refusedAsCheat checks that a match at envelope k refuses e as a signed
// violation of e's sender, and that a record holding e there does not
// audit clean (nor name another seat).
func (g *groupRecord) refusedAsCheat(t *testing.T, k int, e *fairness.Envelope) {
	t.Helper()
	seat := g.h.Seat(e.From)
	_, err := g.replay(t, k).Accept(e)
	var v *fairness.Violation
	if !errors.As(err, &v) || !v.Signed || v.Seat != seat {
		t.Fatalf("message %d forged by %s: got %v, want a signed violation of %s", e.Seq, seat, err, seat)
	}
	b, err := fairness.EncodeEnvelope(e)
	if err != nil {
		t.Fatal(err)
	}
	rep := auditFile(t, file(t, append(slices.Clone(g.lines[:k+1]), string(b))))
	if rep.Verdict == fairness.Clean {
		t.Fatalf("a record with the forged message %d audits clean", e.Seq)
	}
	if rep.Violation != nil && rep.Violation.Seat != seat {
		t.Fatalf("a record with %s's forged message %d names %s: %s", seat, e.Seq, rep.Violation.Seat, rep.Summary())
	}
}

// A seat may fill only its own places of a run: a member at another
// seat's place is refused live and by the audit, whether it carries the
// owner's contribution re-signed or the sender's own contribution of the
// same kind (its hello, deck key share, reveal, opening or unmasking
// share of a deal run moved there).
func TestAttackRunMemberAtAnotherSeatsPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried, perKind := 0, map[fairness.InputKind]int{}
	for _, k := range g.memberKinds(fairness.InHello, fairness.InDeckKey, fairness.InReveal, fairness.InOpen, fairness.InUnmask) {
		owner := g.h.Seat(g.envs[k].From)
		kind := g.inputOf(t, k).T
		if perKind[kind] >= 2 {
			continue // each try replays the match up to it
		}
		perKind[kind]++
		for _, j := range g.runOf(k) {
			other := g.h.Seat(g.envs[j].From)
			if other == owner || g.inputOf(t, j).T != kind {
				continue
			}
			// The owner's contribution, signed by another seat; then the
			// other seat's own contribution, at the owner's place. Refused
			// as not the place's member, or out of turn where the place is
			// the next message anyway.
			own := g.inputOf(t, j)
			m := g.replay(t, k)
			for i, e := range []*fairness.Envelope{
				g.signedAs(t, k, other, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{own} }),
				g.signedAs(t, k, other, nil),
			} {
				_, err := m.Accept(e) // refused: m is unchanged
				if !errors.Is(err, fairness.ErrMember) && !errors.Is(err, fairness.ErrOutOfTurn) {
					t.Fatalf("%s's member at %s's place %d: %v", other, owner, e.Seq, err)
				}
				if i == 0 {
					g.refusedAsCheat(t, k, e)
				}
			}
			tried++
			break // one other seat a place: each replays the match
		}
	}
	if tried < 4 {
		t.Fatalf("only %d places of runs tried", tried)
	}
}

// A deck key share travels in the set-up run, so a seat may see the
// others' shares before sending its own: it cannot use them. A seat that
// sends another seat's share (proof and all) as its own, at its own
// place, is refused live and by the audit (the proof is bound to its
// seat), as is one whose proof is broken by one bit.
func TestAttackRunDeckKeyChosenAfterAnothers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried := 0
	for _, k := range g.memberKinds(fairness.InDeckKey) {
		owner := g.h.Seat(g.envs[k].From)
		for _, j := range g.runOf(k) {
			in := g.inputOf(t, j)
			if in.T != fairness.InDeckKey || g.h.Seat(g.envs[j].From) == owner {
				continue
			}
			g.refusedAsCheat(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{in} }))
			tried++
		}
		g.refusedAsCheat(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) {
			key := slices.Clone(b.Inputs[0].Key)
			key[len(key)-1] ^= 1
			b.Inputs[0].Key = key
		}))
	}
	if tried == 0 {
		t.Fatal("no deck key share was sent as a member beside another's")
	}
}

// A chooser's opening travels with its reveal: it must open what its own
// sealed choice names. Another chooser's opening (the cards that chooser
// turned over) sent at the seat's opening place is refused live and by
// the audit, and so is an opening sent at the seat's reveal place or a
// reveal at its opening place (the kinds of places are fixed).
func TestAttackRunOpeningNotItsOwn(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried := 0
	opens := g.memberKinds(fairness.InOpen)
	for _, k := range opens[:min(2, len(opens))] { // each replays the match up to it
		owner := g.h.Seat(g.envs[k].From)
		var reveal = -1
		for _, j := range g.runOf(k) {
			in := g.inputOf(t, j)
			from := g.h.Seat(g.envs[j].From)
			switch {
			case in.T == fairness.InOpen && from != owner && tried < 2:
				g.refusedAsCheat(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{in} }))
				tried++
			case in.T == fairness.InReveal && from == owner:
				reveal = j
			}
		}
		if reveal < 0 {
			continue
		}
		open, rev := g.inputOf(t, k), g.inputOf(t, reveal)
		if g.envs[reveal].Prev != g.id(reveal-1) { // a member: the chained first place checks its step, not the run
			g.refusedLiveAndAudited(t, reveal, g.resigned(t, reveal, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{open} }))
		}
		g.refusedLiveAndAudited(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{rev} }))
	}
	if tried == 0 {
		t.Fatal("no two openings in one run")
	}
}

// A run ends where its places end: the message after a run's last place
// (the shuffle after the set-up's deck key shares, the first move after
// the openings, the choice after a deal run), signed with the run's base
// as its Prev, is refused live and by the audit.
func TestAttackMemberBeyondTheRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	seen := map[string]bool{}
	tried := 0
	for _, k := range g.memberKinds(fairness.InDeckKey, fairness.InOpen, fairness.InUnmask) {
		base := g.envs[k].Prev
		if seen[base] || len(seen) >= 3 {
			continue
		}
		seen[base] = true
		run := g.runOf(k)
		after := run[len(run)-1] + 1
		if after >= len(g.envs) {
			continue
		}
		e := g.resigned(t, after, func(e *fairness.Envelope, b *fairness.Body) { e.Prev = base })
		refusedWith(t, g.replay(t, after), e, fairness.ErrSequence)
		b, _ := fairness.EncodeEnvelope(e)
		if rep := auditFile(t, file(t, append(slices.Clone(g.lines[:after+1]), string(b)))); rep.Verdict == fairness.Clean {
			t.Fatalf("message %d beyond its run, chained on the run's base, audits clean", e.Seq)
		}
		tried++
	}
	if tried < 2 {
		t.Fatalf("only %d runs tried", tried)
	}
}

// A seat with two places in a row of a run (its hello and its deck key
// share) that signs the second place twice, as a member (on the base) and
// chained on its own first place, is caught: the second version to come
// is refused as an equivocation, and two records holding one version each
// convict that seat and nobody else.
func TestAttackRunTwoVersionsOfASecondPlace(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried := 0
	for _, k := range g.memberKinds(fairness.InHello, fairness.InDeckKey, fairness.InReveal, fairness.InOpen, fairness.InUnmask) {
		if g.envs[k-1].From != g.envs[k].From || tried >= 2 { // each replays the match up to it
			continue
		}
		seat := g.h.Seat(g.envs[k].From)
		chained := g.resigned(t, k, func(e *fairness.Envelope, b *fairness.Body) { e.Prev = g.id(k - 1) })
		refusedWith(t, g.replay(t, k+1), chained, fairness.ErrEquivocation)
		cb, _ := fairness.EncodeEnvelope(chained)
		a := file(t, g.lines[:k+2])
		b := file(t, append(slices.Clone(g.lines[:k+1]), string(cb)))
		j, err := fairness.AuditJoint([]*fairness.Report{auditFile(t, a), auditFile(t, b)})
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict != fairness.Violated || !errors.Is(j.Violation.Err, fairness.ErrEquivocation) || j.Violation.Seat != seat {
			t.Fatalf("joint, %s's two versions of message %d: %s", seat, g.envs[k].Seq, j.Summary())
		}
		tried++
	}
	if tried == 0 {
		t.Fatal("no seat holds two places in a row of a run")
	}
}

// A seat with two places in a row of a run may still send both
// contributions in one chained message (every record made before runs
// does: a hello with its deck key share, a reveal with its opening), which
// breaks the run: the places after it shift, and the others' members sent
// at once for them are orphaned. Those members must never count against
// their honest signers: live they are refused only as out of sequence
// (which proves nothing without a witness), and a record the breaker
// fabricates to hold them (its two places sent singly, then the orphaned
// members) convicts the breaker of equivocation, nobody else.
func TestAttackRunBrokenByTwoPlacesInOneMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	tried := 0
	for _, k := range g.memberKinds(fairness.InDeckKey, fairness.InOpen, fairness.InUnmask) {
		if tried >= 2 {
			break // each replays the match up to it
		}
		first := k - 1
		if g.envs[first].From != g.envs[k].From || g.envs[first].Prev != g.envs[k].Prev && g.envs[first].Prev != g.id(first-1) {
			continue
		}
		breaker := g.h.Seat(g.envs[k].From)
		run := g.runOf(k)
		var orphans []int
		for _, j := range run {
			if j > k && g.h.Seat(g.envs[j].From) != breaker {
				orphans = append(orphans, j)
			}
		}
		if len(orphans) == 0 {
			continue
		}
		// The breaker's one message for its two places, chained.
		merged := g.signedAs(t, first, breaker, func(e *fairness.Envelope, b *fairness.Body) {
			e.Prev = g.id(first - 1)
			b.Inputs = append(b.Inputs, g.inputOf(t, k))
			b.State = g.replay(t, k+1).StateHash().String()
		})
		m := g.replay(t, first)
		if _, err := m.Accept(merged); err != nil {
			t.Fatalf("the merged message %d is refused: %v", merged.Seq, err)
		}
		for _, j := range orphans {
			c := *g.envs[j]
			_, err := m.Accept(&c)
			var v *fairness.Violation
			if errors.As(err, &v) && v.Signed && !errors.Is(err, fairness.ErrSequence) {
				t.Fatalf("%s's orphaned member %d is refused as a proven violation: %v", v.Seat, c.Seq, err)
			}
		}
		mb, _ := fairness.EncodeEnvelope(merged)
		real := file(t, append(slices.Clone(g.lines[:first+1]), string(mb)))
		fabricated := file(t, g.lines[:orphans[len(orphans)-1]+2])
		j, err := fairness.AuditJoint([]*fairness.Report{auditFile(t, real), auditFile(t, fabricated)})
		if err != nil {
			t.Fatal(err)
		}
		if j.Verdict == fairness.Violated && j.Violation.Seat != breaker {
			t.Fatalf("the joint audit convicts %s, not the breaker %s: %s", j.Violation.Seat, breaker, j.Summary())
		}
		if j.Verdict != fairness.Violated || !errors.Is(j.Violation.Err, fairness.ErrEquivocation) {
			t.Fatalf("the breaker's two versions are not an equivocation: %s", j.Summary())
		}
		tried++
	}
	if tried == 0 {
		t.Fatal("no seat holds two places in a row of a run with members after them")
	}
}

// A deal run (runs.go, dealsAfter) lets a dealer send its unmasking shares
// of every deal in the run at once, each place naming where its deal
// starts. A dealer that sends at one of its places the shares it owes at
// another (another receiver's cards) is refused live and by the audit:
// the shares of a place must be those of the cards its deal gives.
func TestAttackDealRunSharesOfAnotherDeal(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a 3-player Air match")
	}
	g := recordGroup(t)
	unmasks := g.memberKinds(fairness.InUnmask)
	if len(unmasks) == 0 {
		t.Fatal("no unmasking share was sent as a member")
	}
	tried := 0
	for _, k := range g.runOf(unmasks[0]) {
		if g.inputOf(t, k).T != fairness.InUnmask || g.envs[k].Prev == g.id(k-1) {
			continue
		}
		for _, j := range g.runOf(unmasks[0]) {
			other := g.inputOf(t, j)
			if j == k || g.envs[j].From != g.envs[k].From || other.T != fairness.InUnmask {
				continue
			}
			g.refusedAsCheat(t, k, g.resigned(t, k, func(_ *fairness.Envelope, b *fairness.Body) { b.Inputs = []fairness.WireInput{other} }))
			tried++
		}
	}
	if tried == 0 {
		t.Fatal("no dealer holds two places of one deal run")
	}
}
