package fairness_test

import (
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// liveAudit feeds a record's lines one at a time to a live audit and
// returns it with the first bad line it named (nil if none).
func liveAudit(t *testing.T, lines []string) (*fairness.LiveAudit, *fairness.BadLine) {
	t.Helper()
	la, err := fairness.NewLiveAudit([]byte(lines[0]), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, ln := range lines[1:] {
		if err := la.Add([]byte(ln)); err != nil {
			var bad *fairness.BadLine
			if !errors.As(err, &bad) {
				t.Fatalf("Add: %v is no *BadLine", err)
			}
			return la, bad
		}
	}
	return la, nil
}

// A live audit that takes every golden transcript line by line reaches
// the verdict, outcome and steps of the audit of the whole file: it is
// the same checker, not a second one.
func TestLiveAuditAgreesWithAudit(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(paths) < 10 {
		t.Fatalf("golden transcripts: %v (%d)", err, len(paths))
	}
	for _, p := range paths {
		name := filepath.Base(p)
		t.Run(name, func(t *testing.T) {
			if raceEnabled && !longFlag() && strings.HasPrefix(name, "air-") && !strings.HasSuffix(name, "-2p.jsonl") {
				t.Skip("a 3-4 player Air record under the race detector takes half a minute: run with -long")
			}
			want := auditFile(t, p)
			la, bad := liveAudit(t, goldenLines(t, name))
			got := la.Report()
			if got.Verdict != want.Verdict || got.Summary() != want.Summary() || len(got.Steps) != len(want.Steps) {
				t.Fatalf("live: %s (%d steps); file: %s (%d steps)", got.Summary(), len(got.Steps), want.Summary(), len(want.Steps))
			}
			if (bad != nil) != (want.Verdict == fairness.Violated || want.Verdict == fairness.Corrupt) {
				t.Fatalf("bad line %v for a %s record", bad, want.Verdict)
			}
			if want.Verdict == fairness.Clean && (!la.Ended() || len(got.Revealed) == 0) {
				t.Fatalf("a clean record: ended %v, %d values revealed", la.Ended(), len(got.Revealed))
			}
		})
	}
}

// A live audit fed a line with a flipped byte, a line dropped, two lines
// swapped or a line after the end stops at that line and names it, with
// the sender the line claims and what failed.
func TestLiveAuditNamesTheBadLine(t *testing.T) {
	lines := goldenLines(t, "ubuild-standard.jsonl")
	flip := func(i int, at string) []string {
		c := append([]string(nil), lines...)
		k := strings.Index(c[i], at) + len(at)
		b := []byte(c[i])
		b[k] ^= 0x01
		c[i] = string(b)
		return c
	}
	var swapped []string
	swapped = append(swapped, lines[:4]...)
	swapped = append(swapped, lines[5], lines[4])
	swapped = append(swapped, lines[6:]...)
	cases := []struct {
		name  string
		lines []string
		line  int
		says  string
	}{
		{"flipped signature", flip(6, `"sig":"`), 7, "seat"},
		{"flipped syntax", flip(5, `"seq"`), 6, "unknown"},
		{"dropped", append(append([]string(nil), lines[:4]...), lines[5:]...), 5, "seat"},
		{"swapped", swapped, 5, "seat"},
		{"after the end", append(append([]string(nil), lines...), lines[3]), len(lines) + 1, "line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, bad := liveAudit(t, c.lines)
			if bad == nil {
				t.Fatal("a tampered record passed")
			}
			if bad.Line != c.line || !strings.Contains(bad.Error(), c.says) || bad.Reason == "" {
				t.Fatalf("named %v; want line %d", bad, c.line)
			}
			t.Log(bad)
		})
	}
}

// longFlag reports whether -long was given (registered by screen_test.go).
func longFlag() bool {
	f := flag.Lookup("long")
	return f != nil && f.Value.String() == "true"
}

// The host's choice to allow spectators is part of the match ID: a
// watchable header has an ID of its own, and a header whose watch field
// was turned on (or off) afterwards no longer matches its ID, so no relay
// can make a match watchable that its players agreed to play unwatched.
// Older headers keep their IDs (every golden transcript audits as before).
func TestWatchIsSignedIntoTheMatchID(t *testing.T) {
	lines := goldenLines(t, "ubuild-standard.jsonl")
	la, err := fairness.NewLiveAudit([]byte(lines[0]), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	h := la.Header()
	w, err := h.Watchable()
	if err != nil || !w.Watch || w.Match == h.Match {
		t.Fatalf("watchable header: %+v %v", w, err)
	}
	on := strings.TrimSuffix(strings.TrimSpace(lines[0]), "}") + `,"watch":true}`
	if _, err := fairness.NewLiveAudit([]byte(on), games.Spec); err == nil || !strings.Contains(err.Error(), "match ID") {
		t.Fatalf("a header with watch turned on after the fact: %v", err)
	}
	if id, _ := w.ComputeID(); id == (fairness.Digest{}) {
		t.Fatal("no ID")
	}
	back := w
	back.Watch = false
	if _, err := fairness.NewMatch(mustSpec(t, "ubuild"), back); err == nil {
		t.Fatal("a watchable header with watch turned off was taken")
	}
}

func mustSpec(t *testing.T, name string) engine.Spec {
	t.Helper()
	s, ok := games.Spec(name)
	if !ok {
		t.Fatal(name)
	}
	return s
}
