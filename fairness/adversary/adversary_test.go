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
	n := 12
	if len(m.h.Players) > 2 {
		n = 2
	}
	if raceEnabled {
		n = max(1, n/4)
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

// checkOne lets the adversary holding seats rewrite its record(s), with
// the PRNG seeded by s, and checks the joint audits.
func checkOne(t *testing.T, m *match, seats []engine.Seat, s uint64, st *stats) {
	t.Helper()
	r := mrand.New(mrand.NewPCG(s, 34))
	var forged [][]string
	var done [][]string
	for i := range seats {
		a := &adversary{m: m, seats: seats, r: r, lines: slices.Clone(m.lines)}
		if i > 0 && r.IntN(2) == 0 {
			// Colluders may keep the very same record.
			forged, done = append(forged, forged[0]), append(done, []string{"the same record as the first colluder"})
			continue
		}
		st.mutations += a.rewrite()
		forged, done = append(forged, a.lines), append(done, a.done)
	}
	st.records++
	var reps []*fairness.Report
	for _, lines := range forged {
		rep, err := fairness.Audit(strings.NewReader(strings.Join(lines, "\n")+"\n"), games.Spec)
		if err != nil {
			st.refused++
			return // not a transcript at all: nothing can be concluded from it
		}
		reps = append(reps, rep)
	}
	for _, set := range jointSets(len(reps), len(m.h.Players)-len(seats)) {
		var in []*fairness.Report
		var inForged [][]string
		for _, i := range set {
			if i < 0 {
				in = append(in, m.report)
				continue
			}
			in, inForged = append(in, reps[i]), append(inForged, forged[i])
		}
		j, err := fairness.AuditJoint(in)
		if err != nil {
			continue // records of different matches (a rewritten header)
		}
		st.verdicts[j.Verdict]++
		if why := broken(m, seats, inForged, rewritten(in, m.report), j); why != "" {
			fail(t, m, seats, s, forged, done, reps, j, fmt.Sprintf("records %v (-1: honest): %s", set, why))
			return // one report per rewritten record
		}
	}
}

// jointSets lists the sets of records audited together, as indexes of
// the rewritten records and -1 for each honest one: all of them, in both
// orders, and each rewritten record with one honest record, both ways.
func jointSets(rewritten, honest int) [][]int {
	var all, allHonestFirst []int
	for i := range rewritten {
		all = append(all, i)
	}
	for range honest {
		all, allHonestFirst = append(all, -1), append(allHonestFirst, -1)
	}
	allHonestFirst = append(allHonestFirst, all[:rewritten]...)
	sets := [][]int{all, allHonestFirst}
	for i := range rewritten {
		sets = append(sets, []int{i, -1}, []int{-1, i})
	}
	return sets
}

// rewritten returns the reports of set that are not the honest one.
func rewritten(set []*fairness.Report, honest *fairness.Report) []*fairness.Report {
	var out []*fairness.Report
	for _, r := range set {
		if r != honest {
			out = append(out, r)
		}
	}
	return out
}

// broken returns which invariant the joint verdict j breaks, or "".
func broken(m *match, seats []engine.Seat, forged [][]string, reps []*fairness.Report, j *fairness.Joint) string {
	switch j.Verdict {
	case fairness.Violated:
		if !slices.Contains(seats, j.Violation.Seat) {
			return "it names an honest player"
		}
	case fairness.Clean:
		if o := m.report.Outcome; j.Outcome.Draw != o.Draw || !slices.Equal(j.Outcome.Winners, o.Winners) {
			return "it gives a result the honest record refutes"
		}
		for i, rep := range reps {
			if rep.Verdict == fairness.Clean && !sameContent(forged[i], m.lines) {
				return fmt.Sprintf("it calls clean rewritten record %d, whose content differs from the honest one", i+1)
			}
		}
	case fairness.Forfeit, fairness.Incomplete:
		return "it gives a result the honest record refutes"
	}
	for _, rep := range reps {
		if c := rep.Closing; c != nil && j.Verdict != fairness.Violated && ownAfter(m, c) {
			return fmt.Sprintf("it leaves standing seat %d's %s claim after message %d, though the honest record holds that seat's own later messages", m.h.Seat(c.By), c.Closing, c.Seq)
		}
	}
	return ""
}

// ownAfter reports whether the honest record holds a message of the
// writer of forfeit claim c after the point it claims.
func ownAfter(m *match, c *fairness.Closing) bool {
	if c.Closing != fairness.CloseTimeout && c.Closing != fairness.CloseAbandoned {
		return false
	}
	for _, st := range m.report.Steps {
		if st.Seq > c.Seq && st.Seat == m.h.Seat(c.By) {
			return true
		}
	}
	return false
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
func fail(t *testing.T, m *match, seats []engine.Seat, s uint64, forged [][]string, done [][]string, reps []*fairness.Report, j *fairness.Joint, why string) {
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
		_ = os.WriteFile(filepath.Join(dir, "honest.jsonl"), []byte(strings.Join(m.lines, "\n")+"\n"), 0o600)
		for i, lines := range forged {
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("forged%d.jsonl", i+1)), []byte(strings.Join(lines, "\n")+"\n"), 0o600)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n  match %s, adversary seats %v, record seed %d; records kept in %s\n", why, j.Summary(), m.name, seats, s, dir)
	for i := range forged {
		fmt.Fprintf(&b, "  rewritten record %d: %s\n", i+1, reps[i].Summary())
		for _, d := range done[i] {
			fmt.Fprintf(&b, "    - %s\n", d)
		}
	}
	t.Error(b.String())
}
