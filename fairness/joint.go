package fairness

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// Auditing the records of one match together.
//
// Every player keeps its own transcript, and one transcript proves only
// what its writer sent and received. When players disagree about a match,
// an auditor can hold all their records side by side, which proves more.
// The evidence rules, strongest first:
//
//  1. A message signed by its sender for its place in the match (this
//     match, its seq, after the message before it) is a fact: nobody else
//     can make it. A player who signed two different messages for one
//     place is caught (an honest referee writes every message to its
//     transcript, synced, before sending it, and never signs that place
//     again, so two versions mean it sent one and kept another).
//  2. A violation proved by the offender's own signature stands whatever
//     other records say.
//  3. Everything else a record holds is its writer's word: its closing
//     record (violation, timeout, abandoned), and a message that reached it
//     unsigned, badly signed, out of place or undecodable, which only the
//     writer's closing record vouches for.
//     - A forfeit claimed after message k by a writer who signed a message
//       after k itself is false: it did not stop at k. Its writer, whose
//       signature is on the claim, is named (ErrFalseClaim). The accused's
//       own later messages refute nothing: they may have been lost.
//     - A player's own signed word that it left after message k (a left
//       record) is the strongest evidence of its forfeit: it needs no
//       witness and holds at any turn, since it blames nobody but its
//       writer. Like any claim, the writer's own messages signed after k
//       refute it, and name the writer.
//       Since it can hurt nobody but its writer, it never disputes the
//       result of another record: it is then set aside, as if withheld
//       (see admissionSetAside).
//     - A violation claimed on the writer's word at a place where another
//       record holds a message that passed every check is outweighed (a
//       signed message always outweighs an unsigned or badly signed one
//       there): the accused is not blamed. Its writer is not named either
//       (see outweighed: a violation record does not say where it stood).
//       The record is shown altered (Corrupt) when the writer signed
//       messages after the valid one; otherwise the verdict is Disputed.
//  4. An unrefuted claim stands, and the verdict says whose word it rests
//     on.
//  5. Records that tell the same end agree, whoever wrote them: the same
//     result, and for a forfeit the same seat forfeiting. When every record
//     is faithful but their endings differ (each side gave up waiting for
//     the other after a lost link), the auditor says so instead of picking
//     one.

// ErrNotSameMatch is returned by AuditJoint for records of different
// matches.
var ErrNotSameMatch = errors.New("not records of the same match")

// ErrEquivocation is wrapped by the violation of a player who signed two
// different messages for one place in a match.
var ErrEquivocation = errors.New("signed two different messages for one place in the match")

// ErrFalseClaim is wrapped by the violation of a player whose signed
// closing record is refuted by signed messages another record holds.
var ErrFalseClaim = errors.New("false claim")

// Disputed is the joint verdict on faithful records of one match that end
// differently, with nothing signed to decide between them: the messages
// after their last common one reached only one side, and a record cannot
// tell a lost link from a message held back.
const Disputed Verdict = "disputed"

// Joint is the verdict on several records of one match, audited together.
type Joint struct {
	Header    Header
	Verdict   Verdict
	Outcome   engine.Outcome // for Clean and Forfeit
	Violation *Violation     // for Violated
	// Claim is the closing record a Violated verdict rests on (a violation
	// vouched for only by its writer) or refutes (a false claim).
	Claim  *Closing
	Record int    // the record the verdict points at, from 0
	Line   int    // and its line (0: none)
	Detail string // one sentence explaining the verdict
}

// Summary returns the verdict line that `salvo audit` prints for records
// audited together; records are numbered from 1 as given.
func (j *Joint) Summary() string {
	switch j.Verdict {
	case Clean:
		return fmt.Sprintf("clean: %s (%s)", describeOutcome(j.Header, j.Outcome), j.Detail)
	case Violated:
		v := j.Violation
		return fmt.Sprintf("violation by %s, message %d (record %d, line %d): %v [%s]", playerName(j.Header, v.Seat), v.Seq, j.Record+1, j.Line, v.Err, evidence(j.Header, v, j.Claim))
	}
	return fmt.Sprintf("%s: %s", j.Verdict, j.Detail)
}

// AuditJoint reads the audits of several records of one match, each
// written by a different player, together, by the evidence rules above. In
// order, it looks for:
//
//   - a player who signed two versions of one message (Violated, with
//     ErrEquivocation; the earliest such message);
//   - a violation one record proves by the offender's own signature
//     (Violated: the earliest);
//   - a player that signed two different closing records, or a forfeit
//     claim that its writer's own signed messages refute (Violated, with
//     ErrFalseClaim, naming its writer);
//   - a violation one record claims on its writer's word alone where
//     another record holds a message that passed every check (the signed
//     message outweighs the claim, nobody is named: Corrupt, pointing at
//     the claim's record, when its writer signed messages after that one,
//     otherwise Disputed);
//   - a violation one record claims on its writer's word alone where
//     another record ends with its own claim that the violation's
//     claimant went silent there or before (Disputed: word against word,
//     see contested);
//   - a violation one record claims on its writer's word alone, unrefuted
//     (Violated: the earliest; the verdict says whose word it rests on);
//   - a record that was altered or damaged (Corrupt);
//   - the result: Clean or Forfeit when every record that reaches a result
//     reaches the same one, Incomplete when none does, and Disputed when
//     they differ.
//
// It returns an error wrapping ErrNotSameMatch if the records are of
// different matches.
func AuditJoint(reps []*Report) (*Joint, error) {
	if len(reps) < 2 {
		return nil, fmt.Errorf("joint audit: %d records, want at least 2", len(reps))
	}
	h := reps[0].Header
	for i, r := range reps[1:] {
		if r.Header.Match != h.Match || r.Header.Game != h.Game {
			return nil, fmt.Errorf("%w: record %d is of %s match %.16s…, record 1 of %s match %.16s…",
				ErrNotSameMatch, i+2, r.Header.Game, r.Header.Match, h.Game, h.Match)
		}
	}
	j := &Joint{Header: h}
	reps = ownWordSetAside(reps)
	proven := func(r *Report) bool { return !needsWitness(r.Violation) }
	claimed := func(*Report) bool { return true }
	if j.equivocation(reps) || j.violation(reps, proven) || j.falseClaim(reps) || j.outweighed(reps) || j.contested(reps) || j.violation(reps, claimed) || j.corrupt(reps) {
		return j, nil
	}
	j.result(reps)
	return j, nil
}

// equivocation finds the earliest place where two records hold different
// messages both signed there by the same sender.
func (j *Joint) equivocation(reps []*Report) bool {
	found := false
	for a := range reps {
		for b := a + 1; b < len(reps); b++ {
			k, ok := diverge(reps[a], reps[b])
			if !ok {
				continue
			}
			sa, sb := reps[a].Steps[k], reps[b].Steps[k]
			if !signedAt(reps[a], k) || !signedAt(reps[b], k) || sa.Seq != sb.Seq || sa.Seat != sb.Seat {
				continue
			}
			if found && j.Violation.Seq <= sa.Seq {
				continue
			}
			found = true
			peer := ""
			if int(sa.Seat) < len(j.Header.Players) {
				peer = j.Header.Players[sa.Seat].Peer
			}
			j.Verdict, j.Record, j.Line = Violated, a, sa.Line
			j.Violation = &Violation{Seat: sa.Seat, Peer: peer, Seq: sa.Seq, Signed: true,
				Err: fmt.Errorf("%w: message %d is %.8s… at line %d of record %d and %.8s… at line %d of record %d, both signed by it",
					ErrEquivocation, sa.Seq, hexDigest(sa.Message), sa.Line, a+1, hexDigest(sb.Message), sb.Line, b+1)}
		}
	}
	return found
}

// signedAt reports whether step k of r was signed by its sender for its
// place in the match (this match, its seq, after the message before it),
// whether or not its content holds up: every accepted step, and a failing
// one (always the last) whose fault is only its content.
func signedAt(r *Report, k int) bool {
	if r.Steps[k].OK {
		return true
	}
	return k == len(r.Steps)-1 && r.Violation != nil && signedInPlace(r.Violation)
}

// diverge returns the first step at which a and b hold different messages,
// and false if one record's messages begin the other's.
func diverge(a, b *Report) (int, bool) {
	for k := range min(len(a.Steps), len(b.Steps)) {
		if a.Steps[k].Message != b.Steps[k].Message {
			return k, true
		}
	}
	return 0, false
}

// violation takes the earliest violation a record holds that counts,
// among those of records whose verdict is Violated.
func (j *Joint) violation(reps []*Report, counts func(*Report) bool) bool {
	found := false
	for i, r := range reps {
		if r.Verdict != Violated || !counts(r) || found && j.Violation.Seq <= r.Violation.Seq {
			continue
		}
		found = true
		j.Verdict, j.Violation, j.Claim, j.Record, j.Line = Violated, r.Violation, r.Closing, i, r.Line
	}
	return found
}

// falseClaim finds a player that signed two different closing records for
// the match (twoClosings), or else the first forfeit claim that a signed
// message refutes (see refutation), and names its writer.
func (j *Joint) falseClaim(reps []*Report) bool {
	if j.twoClosings(reps) {
		return true
	}
	for i, r := range reps {
		c := r.Closing
		if c == nil {
			continue
		}
		why, line := refutation(reps, c)
		if why == "" {
			continue
		}
		j.Verdict, j.Claim, j.Record, j.Line = Violated, c, i, line
		j.Violation = &Violation{Seat: j.Header.Seat(c.By), Peer: c.By, Seq: c.Seq, Signed: true,
			Err: fmt.Errorf("%w: its signed %s record in record %d (%s's forfeit after message %d) is refuted: %s",
				ErrFalseClaim, c.Closing, i+1, engine.Seat(c.Seat), c.Seq, why)}
		return true
	}
	return false
}

// twoClosings finds a player that signed two different closing records
// for the match, and names it for a false claim. An honest referee signs
// one closing record per match, when it stops, and signs nothing after it
// (another's record it adopts is that other's). Two of them are two
// accounts of one end, at least one false: without this a player that
// left after message k (its own left record, which the other recorded)
// could hand in a record of its own ending with its violation record of
// junk "from" the other, after k (the other was named on its word) or in
// the place of the other's message it held (the match was called
// disputed, the admitted loss undone).
func (j *Joint) twoClosings(reps []*Report) bool {
	for a, ra := range reps {
		for b := a + 1; b < len(reps); b++ {
			ca, cb := ra.Closing, reps[b].Closing
			if ca == nil || cb == nil || ca.By != cb.By || *ca == *cb {
				continue
			}
			j.Verdict, j.Claim, j.Record, j.Line = Violated, cb, b, reps[b].Line
			j.Violation = &Violation{Seat: j.Header.Seat(cb.By), Peer: cb.By, Seq: min(ca.Seq, cb.Seq), Signed: true,
				Err: fmt.Errorf("%w: it signed two different closing records for this match: %s of %s after message %d in record %d, %s of %s after message %d in record %d",
					ErrFalseClaim, ca.Closing, engine.Seat(ca.Seat), ca.Seq, a+1, cb.Closing, engine.Seat(cb.Seat), cb.Seq, b+1)}
			return true
		}
	}
	return false
}

// refutation returns why forfeit claim c is false, and the line that shows
// it, or "" when nothing refutes it. A forfeit claimed after message k is
// refuted by a message its writer signed after k: an honest referee dates
// its claim after every message it has signed, and signs nothing once it
// has stopped; but a member of a parallel group whose base is k or before
// is signed before its sender sees the messages between, so it refutes
// nothing. The accused's own later messages refute nothing: they may
// have been lost on the way.
func refutation(reps []*Report, c *Closing) (string, int) {
	if !isForfeit(c.Closing) {
		return "", 0
	}
	claimant := reps[0].Header.Seat(c.By)
	for o, other := range reps {
		for k, st := range other.Steps {
			if st.Member && st.Base <= c.Seq {
				// A member of a parallel group was signed after its base
				// without waiting for what followed (parallel.go): it does
				// not show that its writer received anything after the base.
				continue
			}
			if st.Seat == claimant && st.Seq > c.Seq && signedAt(other, k) {
				return fmt.Sprintf("record %d holds its own message %d (line %d), signed after the point where it says the match stopped", o+1, st.Seq, st.Line), st.Line
			}
		}
	}
	return "", 0
}

// outweighed finds the first violation claimed on its writer's word alone
// at a place where another record holds a message that passed every check
// (its sender's signature for that place included): the signed message
// outweighs the claim, so the accused is not blamed.
//
// Nor is the claimant named: its closing record says which message number
// it blames, not where in the match that message arrived, and an honest
// one may name a number below its own messages (a signed stale message),
// so anyone holding it can put it after a forged line anywhere. When the
// claimant signed messages that follow the valid one at that place, the
// record itself is shown false: the claimant had that message and went on,
// so no bad one stopped it there. The verdict is then Corrupt, pointing at
// the record. Otherwise it is Disputed: nothing signed shows whether the
// record's writer put the bad message there or its sender sent it over the
// wire and kept the good one.
func (j *Joint) outweighed(reps []*Report) bool {
	for i, r := range reps {
		if r.Verdict != Violated || !needsWitness(r.Violation) {
			continue
		}
		place := acceptedSteps(r)
		for o, other := range reps {
			if o == i || len(other.Steps) <= place || !other.Steps[place].OK || !agreeUpTo(r, other, place) {
				continue
			}
			st, v, who := other.Steps[place], r.Violation, claimant(j.Header, r.Closing)
			claim := fmt.Sprintf("record %d says %s sent a bad message %d (line %d: %v), on the word of %s alone; record %d holds, at that place, message %d (line %d) signed by %s and passing every check, which outweighs the claim",
				i+1, playerName(j.Header, v.Seat), v.Seq, r.Line, v.Err, who, o+1, st.Seq, st.Line, playerName(j.Header, st.Seat))
			j.Claim, j.Record, j.Line = r.Closing, i, r.Line
			if later, ok := signedAfter(other, place, j.Header.Seat(r.Closing.By)); ok {
				j.Verdict = Corrupt
				j.Detail = fmt.Sprintf("%s; and %s signed message %d (line %d of record %d), which follows it: record %d was altered", claim, who, later.Seq, later.Line, o+1, i+1)
				return true
			}
			j.Verdict = Disputed
			j.Detail = claim + ". Nothing signed shows whether the claimant put the bad message there or the sender sent it over the wire and kept another: no result"
			return true
		}
	}
	return false
}

// contested finds the first violation claimed on its writer's word alone
// where another record, holding the same messages as far as both go, ends
// with its own signed claim that the violation's claimant went silent or
// left at that place or before it (an unrefuted timeout or abandoned
// record of the claimant's forfeit: falseClaim runs first). Each rests on
// its writer's word, and the claimant's own messages after the other's
// claim refute nothing (they may have been lost): nothing signed tells a
// junk message from a claimant that stalled and made it up, so neither is
// taken: Disputed. Without this, a seat that went silent could write its
// record on to the place where the match waited for it (or a message
// further, signing its own message there) and put there undecodable bytes
// "from" another seat with its violation record, and the joint audit named
// that seat, whose record held nothing at that place to outweigh the
// claim.
func (j *Joint) contested(reps []*Report) bool {
	for i, r := range reps {
		if r.Verdict != Violated || !needsWitness(r.Violation) || r.Closing == nil {
			continue
		}
		place, claimant := acceptedSteps(r), j.Header.Seat(r.Closing.By)
		for o, other := range reps {
			c := other.Closing
			if o == i || c == nil || (c.Closing != CloseTimeout && c.Closing != CloseAbandoned) ||
				c.Seq > uint64(place) || engine.Seat(c.Seat) != claimant || !agreeUpTo(r, other, min(place, len(other.Steps))) {
				continue
			}
			v := r.Violation
			j.Verdict, j.Claim, j.Record, j.Line = Disputed, r.Closing, i, r.Line
			j.Detail = fmt.Sprintf("record %d says %s sent a bad message %d (line %d: %v), on the word of %s alone; record %d says, on the word of %s, that %s stopped answering (%s after message %d). Nothing signed decides between the two claims: no result",
				i+1, playerName(j.Header, v.Seat), v.Seq, r.Line, v.Err, playerName(j.Header, claimant), o+1, playerName(j.Header, j.Header.Seat(c.By)), playerName(j.Header, claimant), c.Closing, c.Seq)
			return true
		}
	}
	return false
}

// signedAfter returns the first message of r after step k that seat
// signed for its place, if any, and signed after holding step k's: not a
// member of a parallel group based before it (signed at once, see
// refutation).
func signedAfter(r *Report, k int, seat engine.Seat) (AuditStep, bool) {
	for n := k + 1; n < len(r.Steps); n++ {
		if st := r.Steps[n]; st.Member && st.Base < r.Steps[k].Seq {
			continue
		}
		if r.Steps[n].Seat == seat && signedAt(r, n) {
			return r.Steps[n], true
		}
	}
	return AuditStep{}, false
}

// acceptedSteps returns how many steps of r passed every check: they come
// first, and the message after them is where the match stopped.
func acceptedSteps(r *Report) int {
	n := 0
	for n < len(r.Steps) && r.Steps[n].OK {
		n++
	}
	return n
}

// agreeUpTo reports whether a and b hold the same first n messages.
func agreeUpTo(a, b *Report, n int) bool {
	for k := range n {
		if a.Steps[k].Message != b.Steps[k].Message {
			return false
		}
	}
	return true
}

// corrupt takes the first record that is not a faithful transcript.
func (j *Joint) corrupt(reps []*Report) bool {
	for i, r := range reps {
		if r.Verdict == Corrupt {
			j.Verdict, j.Record, j.Line = Corrupt, i, r.Line
			j.Detail = fmt.Sprintf("record %d was altered or damaged at line %d: %s", i+1, r.Line, r.Detail)
			return true
		}
	}
	return false
}

// result compares the results of faithful records whose messages agree
// as far as each goes.
func (j *Joint) result(reps []*Report) {
	first, agree, ended := -1, true, 0
	var aside []string
	for i, r := range reps {
		if admissionSetAside(reps, r) {
			aside = append(aside, fmt.Sprintf("record %d (%s left after message %d)", i+1, playerName(r.Header, engine.Seat(r.Closing.Seat)), r.Closing.Seq))
			continue
		}
		if r.Verdict == Incomplete {
			continue
		}
		ended++
		if first < 0 {
			first = i
		} else if !sameResult(reps[first], r) {
			agree = false
		}
	}
	longest := 0
	for i, r := range reps {
		if len(r.Steps) > len(reps[longest].Steps) {
			longest = i
		}
	}
	switch {
	case first < 0:
		r := reps[longest]
		j.Verdict, j.Record, j.Line = Incomplete, longest, r.Line
		j.Detail = fmt.Sprintf("no record reaches a result; the longest, record %d: %s", longest+1, r.Detail)
	case agree:
		r := reps[first]
		j.Verdict, j.Outcome, j.Record, j.Line = r.Verdict, r.Outcome, first, r.Line
		agreed := fmt.Sprintf("all %d records agree", len(reps))
		if ended < len(reps) {
			agreed = fmt.Sprintf("%d of %d records reach this result", ended, len(reps))
		}
		if ended+len(aside) < len(reps) {
			agreed += "; the others stop earlier, on the same messages"
		}
		if len(aside) > 0 {
			agreed += fmt.Sprintf("; set aside, as its writer's own word that can only hurt itself: %s", strings.Join(aside, ", "))
		}
		j.Detail = agreed
		if r.Verdict != Clean {
			j.Detail = fmt.Sprintf("%s (%s%s)", r.Detail, agreed, claimants(reps))
		}
	default:
		j.Verdict, j.Record, j.Line = Disputed, first, reps[first].Line
		common := slices.MinFunc(reps, func(a, b *Report) int { return len(a.Steps) - len(b.Steps) })
		var claims []string
		for i, r := range reps {
			claims = append(claims, fmt.Sprintf("record %d (%d messages) says %s", i+1, len(r.Steps), r.Summary()))
		}
		j.Detail = fmt.Sprintf("the records agree on their first %d messages and then end differently: %s. What followed reached one side only, so the records cannot tell a lost link from a message held back: no result",
			len(common.Steps), strings.Join(claims, "; "))
	}
}

// admissionSetAside reports whether r ends with its writer's own word
// that it left (an unrefuted left record: refutation runs first) while
// another record reaches a result that rests on no such word. An
// admission can hurt nobody but its writer, so it never disputes another
// record's result: it is set aside, like an incomplete record, and the
// verdict is the one the other records give, as if it were withheld
// (which its writer could always do). Without this a loser could cut its
// record after its own last message and admit that it left there, and a
// clean loss whose last message was the winner's became a dispute; and in
// a 3-4 player match a colluder could give up its share of a win, admitting
// that it left where the others recorded its partner's timeout, to dispute
// the honest seat's.
func admissionSetAside(reps []*Report, r *Report) bool {
	return isAdmission(r) && slices.ContainsFunc(reps, func(o *Report) bool {
		return o.Verdict != Incomplete && !isAdmission(o)
	})
}

// isAdmission reports whether r's verdict is its writer's admission that
// it left.
func isAdmission(r *Report) bool {
	return r.Verdict == Forfeit && r.Closing != nil && r.Closing.Closing == CloseLeft
}

// claimants names, when more than one player wrote the closing records
// of reps, every writer: each claims the same end in its own name.
func claimants(reps []*Report) string {
	var names []string
	seen := map[string]bool{}
	for _, r := range reps {
		if c := r.Closing; r.Verdict == Forfeit && !seen[c.By] {
			seen[c.By] = true
			names = append(names, playerName(r.Header, r.Header.Seat(c.By)))
		}
	}
	if len(names) < 2 {
		return ""
	}
	return "; claimed by each of " + strings.Join(names, ", ")
}

// sameResult reports whether two records tell the same end: the same
// verdict and the same winners (for a forfeit, the winners are every seat
// but the one forfeiting, so they name it). Who wrote the closing record,
// whether it says timeout or abandoned, and after which message do not
// matter: in a group match every other seat records the same forfeit in
// its own name, each when it gave up, and some may have received a message
// of the forfeiting seat that others did not. A claim that one of them
// stopped earlier than it did is refuted before this (see refutation).
func sameResult(a, b *Report) bool {
	return a.Verdict == b.Verdict && a.Outcome.Draw == b.Outcome.Draw && slices.Equal(a.Outcome.Winners, b.Outcome.Winners)
}

// ownWordSetAside returns reps with every record set aside (cut before the
// disputed place, as if its writer had withheld the rest) that is a
// removed seat's own account of its removal: its writer's message k, then
// its claimant's claim of silence at k, named out of turn
// (ErrClaimOverOwn), while another record holds that very claim accepted
// at k after the same messages. The removed seat's message reached none
// of that record's writers: to them the seat was silent, and a seat that
// withholds its message (or whose link lost it) would otherwise frame its
// honest claimant with its own record. A record of a third seat that
// received the message first still names the claimant (a claim that did
// not wait).
func ownWordSetAside(reps []*Report) []*Report {
	out := reps
	for i, r := range reps {
		v := r.Violation
		if r.Verdict != Violated || v == nil || !errors.Is(v.Err, ErrClaimOverOwn) || r.Closing == nil || len(r.Steps) < 2 || v.Seq < 1 {
			continue
		}
		claim, k := r.Steps[len(r.Steps)-1], int(v.Seq)-1
		if k >= len(r.Steps)-1 || r.Steps[k].Seq != v.Seq || r.Header.Seat(r.Closing.By) != r.Steps[k].Seat {
			continue
		}
		if !slices.ContainsFunc(reps, func(o *Report) bool {
			return o != r && len(o.Steps) > k && o.Steps[k].OK && o.Steps[k].Message == claim.Message && agreeUpTo(r, o, k)
		}) {
			continue
		}
		if &out[0] == &reps[0] {
			out = slices.Clone(reps)
		}
		cut := *r
		cut.Steps, cut.Verdict, cut.Violation, cut.Closing = r.Steps[:k], Incomplete, nil, nil
		cut.Detail = fmt.Sprintf("set aside from message %d: %s's own word that its message %d came before its claimant's claim of its silence, which another record holds in that place", v.Seq, playerName(r.Header, r.Steps[k].Seat), v.Seq)
		out[i] = &cut
	}
	return out
}
