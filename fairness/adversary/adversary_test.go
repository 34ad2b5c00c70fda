package adversary

import (
	"encoding/json"
	"flag"
	"fmt"
	mrand "math/rand/v2"
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

var (
	long    = flag.Bool("long", false, "run the adversary suite for -long-for instead of its CI budget")
	longFor = flag.Duration("long-for", 3*time.Minute, "how long -long runs the adversary suite")
	seed    = flag.Uint64("seed", 0, "the adversary's seed (0: a new one, printed)")
	without = flag.String("without", "", "mutation kinds to leave out, comma-separated (respell-sig,respell-json,…)")
)

// ciRecords is how many rewritten records the default run tries per
// match: a few seconds in all (fewer under the race detector).
func ciRecords(m *match) int {
	n := 10
	if len(m.h.Players) > 2 {
		n = 2
	}
	if raceEnabled {
		n = max(1, n/2)
	}
	return n
}

// stats counts what a run tried.
type stats struct {
	records, mutations int
	verdicts           map[fairness.Verdict]int
	refused            int // records that are not even readable transcripts
}

// TestAdversaryRewritesItsOwnRecord is the property test: for every game,
// an adversary holding one seat's key (two colluding seats' keys in 3-4
// player Air) rewrites its own record at random, and the joint audit with
// the honest records must never name an honest player, never give the
// adversary a result that the honest record refutes, and never call clean
// a record whose content differs from the honest one.
func TestAdversaryRewritesItsOwnRecord(t *testing.T) {
	ms, err := honestMatches()
	if err != nil {
		t.Fatal(err)
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay the mutations with -seed %d)", s, s)
	for _, m := range ms {
		var vs []string
		for _, r := range m.reports {
			vs = append(vs, string(r.Verdict))
		}
		t.Logf("honest %s: %d messages; records %s", m.name, len(m.reports[0].Steps), strings.Join(vs, ", "))
	}
	r := mrand.New(mrand.NewPCG(s, 12))
	st := &stats{verdicts: map[fairness.Verdict]int{}}
	start := time.Now()
	deadline := start.Add(*longFor)
	for round := 0; ; round++ {
		for _, m := range ms {
			if !*long && round >= ciRecords(m) {
				continue
			}
			for _, seats := range adversaries(m, r) {
				checkOne(t, m, seats, r.Uint64(), st)
			}
		}
		if *long && time.Now().After(deadline) || !*long && round >= ciRecords(ms[0]) {
			break
		}
	}
	took := time.Since(start)
	t.Logf("%d rewritten records, %d mutations in %v (%.0f mutations a minute); verdicts %v; %d unreadable",
		st.records, st.mutations, took.Round(time.Millisecond), float64(st.mutations)/took.Minutes(), st.verdicts, st.refused)
}

// adversaries picks who rewrites this time: one seat, or in a match of
// three or more, sometimes two colluding seats.
func adversaries(m *match, r *mrand.Rand) [][]engine.Seat {
	n := len(m.h.Players)
	one := engine.Seat(r.IntN(n))
	out := [][]engine.Seat{{one}}
	if n > 2 {
		other := engine.Seat((int(one) + 1 + r.IntN(n-1)) % n)
		out = append(out, []engine.Seat{one, other})
	}
	return out
}

// entry is one record of a joint audit: a rewritten one (forged: its
// index) or a seat's honest one (forged: -1).
type entry struct {
	rep    *fairness.Report
	forged int
	seat   engine.Seat
}

// checkOne lets the adversary holding seats rewrite its record(s), each
// from its own honest record, with the PRNG seeded by s, and checks the
// joint audits.
func checkOne(t *testing.T, m *match, seats []engine.Seat, s uint64, st *stats) {
	t.Helper()
	r := mrand.New(mrand.NewPCG(s, 34))
	var forged, done [][]string
	for i, seat := range seats {
		a := &adversary{m: m, seats: seats, r: r, base: m.records[seat], baseRep: m.reports[seat], lines: slices.Clone(m.records[seat])}
		if i > 0 && r.IntN(2) == 0 {
			// Colluders may keep the very same record.
			forged, done = append(forged, forged[0]), append(done, []string{"the same record as the first colluder"})
			continue
		}
		st.mutations += a.rewrite()
		forged, done = append(forged, a.lines), append(done, a.done)
	}
	st.records++
	var all []entry
	for i, lines := range forged {
		rep, err := fairness.Audit(strings.NewReader(strings.Join(lines, "\n")+"\n"), games.Spec)
		if err != nil {
			st.refused++
			return // not a transcript at all: nothing can be concluded from it
		}
		all = append(all, entry{rep: rep, forged: i, seat: seats[i]})
	}
	for seat := range m.h.Players {
		if !slices.Contains(seats, engine.Seat(seat)) {
			all = append(all, entry{rep: m.reports[seat], forged: -1, seat: engine.Seat(seat)})
		}
	}
	for _, set := range jointSets(all, len(forged)) {
		reps := make([]*fairness.Report, len(set))
		for i, e := range set {
			reps[i] = e.rep
		}
		j, err := fairness.AuditJoint(reps)
		if err != nil {
			continue // records of different matches (a rewritten header)
		}
		st.verdicts[j.Verdict]++
		if why := broken(m, seats, forged, set, j); why != "" {
			fail(t, m, seats, s, forged, done, all, j, why)
			return // one report per rewritten record
		}
	}
}

// jointSets lists the sets of records audited together: all of them,
// rewritten ones first and last, and each rewritten record with each
// honest one, both ways.
func jointSets(all []entry, forged int) [][]entry {
	sets := [][]entry{all, append(slices.Clone(all[forged:]), all[:forged]...)}
	for _, f := range all[:forged] {
		for _, h := range all[forged:] {
			sets = append(sets, []entry{f, h}, []entry{h, f})
		}
	}
	return sets
}

// broken returns which invariant the joint verdict j on set breaks, or "".
func broken(m *match, seats []engine.Seat, forged [][]string, set []entry, j *fairness.Joint) string {
	if j.Verdict == fairness.Violated && !slices.Contains(seats, j.Violation.Seat) && !unreached(set, j.Violation) {
		return "it names an honest player"
	}
	for _, e := range set {
		switch {
		case e.forged >= 0:
			if j.Verdict == fairness.Clean && e.rep.Verdict == fairness.Clean && !sameContent(forged[e.forged], m.records[e.seat]) {
				return fmt.Sprintf("it calls clean rewritten record %d, whose content differs from seat %d's honest one", e.forged+1, e.seat)
			}
			if c := e.rep.Closing; c != nil && j.Verdict != fairness.Violated {
				if by := ownAfter(m, set, c); by >= 0 {
					return fmt.Sprintf("it leaves standing seat %d's %s claim after message %d, though seat %d's honest record holds the claimant's own later messages", m.h.Seat(c.By), c.Closing, c.Seq, by)
				}
			}
		case j.Verdict == fairness.Clean || j.Verdict == fairness.Forfeit:
			if r := e.rep; (r.Verdict == fairness.Clean || r.Verdict == fairness.Forfeit) &&
				(j.Verdict != r.Verdict || j.Outcome.Draw != r.Outcome.Draw || !slices.Equal(j.Outcome.Winners, r.Outcome.Winners)) {
				return fmt.Sprintf("it gives a result that seat %d's honest record refutes (%s)", e.seat, r.Summary())
			}
		}
	}
	return ""
}

// unreached reports whether violation v rests on its claimant's word about
// a place no honest record of set reaches. Nothing there can outweigh it:
// the verdict says whose word it rests on, and any record that reaches the
// place, the accused's own first, refutes it (THREAT-MODEL, inherent
// limits). Only a match in which a seat went silent or left early has
// records that stop short of another's claim.
func unreached(set []entry, v *fairness.Violation) bool {
	if !v.OnWord() {
		return false
	}
	for _, e := range set {
		if e.forged >= 0 {
			continue
		}
		for _, st := range e.rep.Steps {
			if st.Seq >= v.Seq {
				return false
			}
		}
	}
	return true
}

// ownAfter returns the seat of an honest record of set that holds a
// message of the writer of forfeit claim c after the point it claims, or
// -1. A member of a parallel group based at or before that point does not
// count: it was signed without seeing what followed its base.
func ownAfter(m *match, set []entry, c *fairness.Closing) engine.Seat {
	if c.Closing != fairness.CloseTimeout && c.Closing != fairness.CloseAbandoned && c.Closing != fairness.CloseLeft {
		return -1
	}
	for _, e := range set {
		if e.forged >= 0 {
			continue
		}
		for _, st := range e.rep.Steps {
			if st.Member && st.Base <= c.Seq {
				continue // signed without seeing past its base: no sign of going on
			}
			if st.OK && st.Seq > c.Seq && st.Seat == m.h.Seat(c.By) {
				return e.seat
			}
		}
	}
	return -1
}

// sameContent reports whether two records hold the same lines, as the
// auditor reads them (spaces around a line are not content), the header's
// creation time aside (it is no part of the match ID: an unsigned note).
func sameContent(a, b []string) bool {
	norm := func(lines []string) []string {
		var out []string
		for i, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			if i == 0 {
				var h fairness.Header
				if json.Unmarshal([]byte(l), &h) == nil {
					h.Created = ""
					l = encode(h)
				}
			}
			out = append(out, l)
		}
		return out
	}
	return slices.Equal(norm(a), norm(b))
}

// maxFailures bounds the failures a run reports in full (each keeps its
// records in a temporary directory).
const maxFailures = 8

var failures int

// fail reports a broken invariant with everything needed to replay it, and
// keeps the records for `salvo audit`.
func fail(t *testing.T, m *match, seats []engine.Seat, s uint64, forged, done [][]string, all []entry, j *fairness.Joint, why string) {
	t.Helper()
	failures++
	if failures > maxFailures {
		if failures == maxFailures+1 {
			t.Error("more failures: not shown")
		}
		return
	}
	dir, err := os.MkdirTemp("", "salvo-adversary-failure-")
	if err == nil {
		for seat, lines := range m.records {
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("honest-seat%d.jsonl", seat)), []byte(strings.Join(lines, "\n")+"\n"), 0o600)
		}
		for i, lines := range forged {
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("forged%d.jsonl", i+1)), []byte(strings.Join(lines, "\n")+"\n"), 0o600)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n  match %s, adversary seats %v, record seed %d; records kept in %s\n", why, j.Summary(), m.name, seats, s, dir)
	for i := range forged {
		fmt.Fprintf(&b, "  rewritten record %d (seat %d): %s\n", i+1, seats[i], all[i].rep.Summary())
		for _, d := range done[i] {
			fmt.Fprintf(&b, "    - %s\n", d)
		}
	}
	t.Error(b.String())
}
