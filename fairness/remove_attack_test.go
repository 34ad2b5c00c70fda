package fairness_test

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// removalFixture is a clean 4-player free-for-all, replayed to any place to
// try forged departures there (issue 14 requirement 4: the attacks on the
// in-chain removal).
type removalFixture struct {
	gt   *groupTable
	h    fairness.Header
	envs []*fairness.Envelope
	n    int
}

func newRemovalFixture(t *testing.T, n int) *removalFixture {
	t.Helper()
	gt := playGroup(t, n, 30*time.Second, -1, 0)
	f, err := os.Open(gt.paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, tr, err := fairness.ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	fx := &removalFixture{gt: gt, h: h, n: n}
	for {
		l, err := tr.Next()
		if err != nil || l.Envelope == nil {
			break
		}
		fx.envs = append(fx.envs, l.Envelope)
	}
	return fx
}

// at replays the first k messages.
func (fx *removalFixture) at(t *testing.T, k int) *fairness.Match {
	t.Helper()
	entry, _ := games.Lookup("air")
	m, err := fairness.NewMatch(entry.Spec, fx.h)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range fx.envs[:k] {
		if _, err := m.Accept(e); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// find returns the first place (after the opening shuffle) where ok holds
// for the match and what it waits for.
func (fx *removalFixture) find(t *testing.T, ok func(m *fairness.Match, st, prev fairness.Step) bool) int {
	t.Helper()
	m := fx.at(t, 0)
	var prev fairness.Step
	for k, e := range fx.envs {
		st, more := m.Next()
		if !more {
			break
		}
		if k > 10 && ok(m, st, prev) {
			return k
		}
		prev = st
		if _, err := m.Accept(e); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no such place in the match")
	return 0
}

// forge signs, as seat by, the next message of m carrying ins, stating the
// state the signer's own copy reaches with them (where they fit).
func (fx *removalFixture) forge(t *testing.T, m *fairness.Match, by engine.Seat, ins ...fairness.WireInput) *fairness.Envelope {
	t.Helper()
	own := fx.at(t, int(m.Seq()))
	for _, in := range ins {
		if _, err := own.Stage(by, in); err != nil {
			break
		}
	}
	e, err := m.Draft(ins, own.StateHash(), fx.gt.keys[by])
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// left is seat's own signed word that it left, as m stands.
func (fx *removalFixture) left(t *testing.T, m *fairness.Match, seat engine.Seat) *fairness.Closing {
	t.Helper()
	c, err := fairness.Admit(m, fx.gt.keys[seat], "left the match on purpose")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func remove(seat engine.Seat, left *fairness.Closing) fairness.WireInput {
	s := int(seat)
	return fairness.WireInput{T: fairness.InRemove, Gone: &s, Left: left}
}

// refusedFor checks that m refuses e as a signed violation of seat.
func refusedFor(t *testing.T, m *fairness.Match, e *fairness.Envelope, seat engine.Seat, why string) {
	t.Helper()
	_, err := m.Accept(e)
	var v *fairness.Violation
	if !errors.As(err, &v) || v.Seat != seat || !v.Signed || !strings.Contains(err.Error(), why) {
		t.Fatalf("accepted or blamed wrongly: %v; want a signed violation of %s (%q)", err, seat, why)
	}
}

// record writes envs as a transcript and audits it.
func (fx *removalFixture) record(t *testing.T, envs ...*fairness.Envelope) *fairness.Report {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.jsonl")
	tw, err := fairness.CreateTranscript(path, fx.h)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range envs {
		if err := tw.Envelope(e); err != nil {
			t.Fatal(err)
		}
	}
	tw.Close()
	return auditFile(t, path)
}

func awaitsMove(_ *fairness.Match, st, _ fairness.Step) bool { return st.Kind == fairness.InMove }

func TestAttackRemoval(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	fx := newRemovalFixture(t, 4)
	n := engine.Seat(fx.n)

	// A claimant that removes the seat the match waits for while that
	// seat is live: the seat's own message for the place arrived first,
	// so the claim is a message out of turn, signed by its claimant, and
	// the audit of a record that holds both names the claimant.
	t.Run("false removal of a live seat", func(t *testing.T) {
		k := fx.find(t, awaitsMove)
		m := fx.at(t, k)
		st, _ := m.Next()
		claimant := (st.Seat + 1) % n
		claim := fx.forge(t, m, claimant, remove(st.Seat, nil))
		real := fx.envs[k]
		if _, err := m.Accept(real); err != nil {
			t.Fatal(err)
		}
		refusedFor(t, m, claim, claimant, "out of turn")
		rep := fx.record(t, append(fx.envs[:k:k], real, claim)...)
		if rep.Verdict != fairness.Violated || rep.Violation.Seat != claimant || !rep.Violation.Signed {
			t.Fatalf("audit: %s", rep.Summary())
		}
		// A peer the claim reached first took the seat off the table;
		// the seat's messages are then its own moves for a seat no
		// longer at the table, which the audit names if a record holds
		// them (an honest referee drops them unread).
		// The joint audit of that record and one the claim reached
		// first names the claimant too.
		j, err := fairness.AuditJoint([]*fairness.Report{rep, fx.record(t, append(fx.envs[:k:k], claim)...)})
		if err != nil || j.Verdict != fairness.Violated || j.Violation.Seat != claimant {
			t.Fatalf("joint audit: %v %s", err, j.Summary())
		}
		m = fx.at(t, k)
		if _, err := m.Accept(claim); err != nil {
			t.Fatalf("a well-formed claim of the seat awaited: %v", err)
		}
		if !m.Removed(st.Seat) {
			t.Fatal("the claim did not take the seat off the table")
		}
		after := fx.forge(t, m, st.Seat, fairness.WireInput{T: fairness.InMove, Move: []byte(`{"action":"end"}`)})
		refusedFor(t, m, after, st.Seat, "out of turn")
	})

	// Only the claimant (the seat after the one awaited) may claim the
	// awaited seat's silence, and nobody may claim the silence of a seat
	// the match does not wait for: nothing shows it is gone.
	t.Run("removal by the wrong seat or of a seat not awaited", func(t *testing.T) {
		k := fx.find(t, awaitsMove)
		m := fx.at(t, k)
		st, _ := m.Next()
		other := (st.Seat + 2) % n
		refusedFor(t, m, fx.forge(t, m, other, remove(st.Seat, nil)), other, "out of turn")
		m = fx.at(t, k)
		refusedFor(t, m, fx.forge(t, m, st.Seat, remove(other, nil)), st.Seat, "only the seat awaited can be claimed silent")
		m = fx.at(t, k)
		// One seat's own word that it left does not remove another.
		refusedFor(t, m, fx.forge(t, m, st.Seat, remove((other+1)%n, fx.left(t, m, other))), st.Seat, "not seat")
	})

	// A seat that could choose when a departure lands in a roll could keep
	// or redraw a roll it can already compute. A departure never cuts
	// into a roll under way unless the roll waits for the departed seat,
	// and then the roll starts again from fresh links: a share shown
	// before the removal is spent.
	t.Run("removal timed to bias a roll", func(t *testing.T) {
		underway := func(_ *fairness.Match, st, prev fairness.Step) bool {
			// Another seat's roll to move its own plane: a roll for a
			// plane of the departed seat (the actor's, a damage or
			// disruption roll on one of its planes) goes with it.
			return st.Kind == fairness.InShare && prev.Kind == fairness.InShare && prev.Roll == st.Roll &&
				prev.Seat != st.Seat && st.Need.Seat != st.Seat && strings.HasSuffix(st.Need.Name, "/move")
		}
		k := fx.find(t, underway)
		m := fx.at(t, k)
		st, _ := m.Next()
		var bystander engine.Seat
		for s := range n {
			if s != st.Seat && (s+1)%n != st.Seat {
				bystander = s
				break
			}
		}
		word := fx.left(t, m, bystander)
		refusedFor(t, m, fx.forge(t, m, st.Seat, remove(bystander, word)), st.Seat, "under way")

		// The roll waits for st.Seat, which went silent: its claimant
		// takes it off the table, and the roll starts again.
		m = fx.at(t, k)
		claimant := (st.Seat + 1) % n
		if _, err := m.Accept(fx.forge(t, m, claimant, remove(st.Seat, nil))); err != nil {
			t.Fatal(err)
		}
		again, _ := m.Next()
		body, err := fairness.DecodeBody(fx.envs[k-1].Body)
		if err != nil {
			t.Fatal(err)
		}
		shown := body.Inputs[len(body.Inputs)-1]
		if again.Kind != fairness.InShare || again.Roll != st.Roll || again.Seat != fx.h.Seat(fx.envs[k-1].From) || shown.T != fairness.InShare {
			t.Fatalf("after the removal the match waits for %+v; want the roll again from the seat that shared last", again)
		}
		if _, err := m.Stage(again.Seat, shown); err == nil {
			t.Fatal("a dice link shown before the removal counted again")
		}
	})

	// A card choice under way goes on without a seat gone silent in it:
	// the others' choices stay committed (a fresh choice would let them
	// choose again after the departure).
	t.Run("removal during a card choice", func(t *testing.T) {
		k := fx.find(t, func(_ *fairness.Match, st, prev fairness.Step) bool {
			return st.Kind == fairness.InChoose && prev.Kind == fairness.InChoose && prev.Seat != st.Seat
		})
		m := fx.at(t, k)
		st, _ := m.Next()
		if _, err := m.Accept(fx.forge(t, m, (st.Seat+1)%n, remove(st.Seat, nil))); err != nil {
			t.Fatal(err)
		}
		next, ok := m.Next()
		if !ok || next.Seat == st.Seat || (next.Kind != fairness.InChoose && next.Kind != fairness.InReveal) || slices.Contains(next.Need.Seats, st.Seat) {
			t.Fatalf("after the removal the match waits for %+v", next)
		}
	})

	// Two departures sequenced by the seat awaited land in its order for
	// everyone; another seat that signs its own order for the place is out
	// of turn.
	t.Run("two seats disagreeing on the removal order", func(t *testing.T) {
		k := fx.find(t, awaitsMove)
		m := fx.at(t, k)
		st, _ := m.Next()
		x, w, v := (st.Seat+1)%n, (st.Seat+2)%n, (st.Seat+3)%n
		lx, lw := fx.left(t, m, x), fx.left(t, m, w)
		ours := fx.forge(t, m, st.Seat, remove(x, lx), remove(w, lw))
		theirs := fx.forge(t, m, v, remove(w, lw), remove(x, lx))
		if _, err := m.Accept(ours); err != nil {
			t.Fatal(err)
		}
		if !m.Removed(x) || !m.Removed(w) {
			t.Fatal("the two departures did not both land")
		}
		refusedFor(t, m, theirs, v, "out of turn")
		m = fx.at(t, k)
		refusedFor(t, m, theirs, v, "out of turn")
	})
}

// A claimant cannot take a seat off the table in the very message that
// made the match wait for it: a claim of silence after the sender's own
// move (or dice share) in one message leaves the seat no moment to be
// silent in, so it is a signed violation of the claimant, live and in the
// audit.
func TestAttackRemovalInTheMessageThatMadeTheSeatAwaited(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	fx := newRemovalFixture(t, 4)
	n := engine.Seat(fx.n)
	m := fx.at(t, 0)
	k, from, gone := -1, engine.NoSeat, engine.NoSeat
	for i, e := range fx.envs {
		before, ok := m.Next()
		if !ok {
			break
		}
		if _, err := m.Accept(e); err != nil {
			t.Fatal(err)
		}
		after, ok := m.Next()
		// The sender is the claimant of the seat its message made the
		// match wait for: the first seat after it, with nobody removed.
		if i > 10 && ok && after.Seat != before.Seat && (after.Seat+1)%n == before.Seat {
			k, from, gone = i, before.Seat, after.Seat
			break
		}
	}
	if k < 0 {
		t.Fatal("no message in the match made the match wait for the seat before its sender")
	}
	body, err := fairness.DecodeBody(fx.envs[k].Body)
	if err != nil {
		t.Fatal(err)
	}
	m = fx.at(t, k)
	claim := fx.forge(t, m, from, append(body.Inputs, remove(gone, nil))...)
	refusedFor(t, m, claim, from, "first input of a message")
	if rep := fx.record(t, append(fx.envs[:k:k], claim)...); rep.Verdict != fairness.Violated || rep.Violation.Seat != from {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

// A leaver's own left record counts only from where it really left: a
// record dated before a message the leaver signed afterwards (a back-dated
// departure, say to disown that message) does not remove it, and the seat
// that sequences it is named.
func TestAttackRemovalWithABackDatedLeftRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	fx := newRemovalFixture(t, 4)
	k := fx.find(t, awaitsMove)
	m := fx.at(t, k)
	st, _ := m.Next()
	// The latest seat other than the one awaited that signed a message
	// before k after the one before it (not a member of a parallel group,
	// which its sender signed knowing only the group's base), and the
	// place just before that message.
	leaver, before := engine.NoSeat, -1
	for j := k - 1; j > 0 && before < 0; j-- {
		id := fx.envs[j-1].Hash()
		chained := fx.envs[j].Prev == hex.EncodeToString(id[:])
		if s := fx.h.Seat(fx.envs[j].From); s != st.Seat && chained {
			leaver, before = s, j
		}
	}
	if before < 0 {
		t.Fatal("no other seat signed a message before the place found")
	}
	backDated := fx.left(t, fx.at(t, before), leaver)
	refusedFor(t, m, fx.forge(t, m, st.Seat, remove(leaver, backDated)), st.Seat, "signed a later message")
	// The same seat's record dated where the match stands removes it.
	m = fx.at(t, k)
	if _, err := m.Accept(fx.forge(t, m, st.Seat, remove(leaver, fx.left(t, m, leaver)))); err != nil || !m.Removed(leaver) {
		t.Fatalf("a left record dated where the match stands: %v (removed %v)", err, m.Removed(leaver))
	}
}
