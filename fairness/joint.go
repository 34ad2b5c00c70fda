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
// an auditor can hold all their records side by side, which proves more in
// two ways. First, a player who signed two different messages for the same
// place in the match (same match, same seq, after the same message) is
// caught: an honest referee writes every message to its transcript, synced,
// before sending it, and never signs that place again, so two versions
// mean the player sent one and kept another. Second, when every record is
// faithful but their endings differ (each side gave up waiting for the
// other after a lost link), the auditor says so instead of picking one.

// ErrNotSameMatch is returned by AuditJoint for records of different
// matches.
var ErrNotSameMatch = errors.New("not records of the same match")

// ErrEquivocation is wrapped by the violation of a player who signed two
// different messages for one place in a match.
var ErrEquivocation = errors.New("signed two different messages for one place in the match")

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
	Record    int            // the record the verdict points at, from 0
	Line      int            // and its line (0: none)
	Detail    string         // one sentence explaining the verdict
}

// Summary returns the verdict line that `salvo audit` prints for records
// audited together; records are numbered from 1 as given.
func (j *Joint) Summary() string {
	switch j.Verdict {
	case Clean:
		return fmt.Sprintf("clean: %s (%s)", describeOutcome(j.Header, j.Outcome), j.Detail)
	case Violated:
		v := j.Violation
		return fmt.Sprintf("violation by %s, message %d (record %d, line %d): %v", playerName(j.Header, v.Seat), v.Seq, j.Record+1, j.Line, v.Err)
	}
	return fmt.Sprintf("%s: %s", j.Verdict, j.Detail)
}

// AuditJoint reads the audits of several records of one match, each
// written by a different player, together. In order, it looks for:
//
//   - a player who signed two versions of one message (Violated, with
//     ErrEquivocation; the earliest such message);
//   - a violation one record proves by itself (Violated: the earliest);
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
	if j.equivocation(reps) || j.violation(reps) || j.corrupt(reps) {
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

// violation takes the earliest violation a record proves by itself.
func (j *Joint) violation(reps []*Report) bool {
	found := false
	for i, r := range reps {
		if r.Verdict != Violated || found && j.Violation.Seq <= r.Violation.Seq {
			continue
		}
		found = true
		j.Verdict, j.Violation, j.Record, j.Line = Violated, r.Violation, i, r.Line
	}
	return found
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
	for i, r := range reps {
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
			agreed = fmt.Sprintf("%d of %d records reach this result; the others stop earlier, on the same messages", ended, len(reps))
		}
		j.Detail = agreed
		if r.Verdict != Clean {
			j.Detail = fmt.Sprintf("%s (%s)", r.Detail, agreed)
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

// sameResult reports whether two records reach the same result: the same
// verdict and winners, and for a forfeit the same closing record.
func sameResult(a, b *Report) bool {
	if a.Verdict != b.Verdict || a.Outcome.Draw != b.Outcome.Draw || !slices.Equal(a.Outcome.Winners, b.Outcome.Winners) {
		return false
	}
	if a.Verdict != Forfeit {
		return true
	}
	ca, cb := a.Closing, b.Closing
	return ca.By == cb.By && ca.Seat == cb.Seat && ca.Seq == cb.Seq && ca.Closing == cb.Closing
}
