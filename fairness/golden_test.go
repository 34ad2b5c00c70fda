package fairness_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// The files in testdata are transcripts of real matches (selfplay over
// loopback libp2p). They must keep auditing as they did when they were
// recorded: a change that makes an old transcript fail is a change of the
// protocol or of the rules, and needs a new format or rules version.
func TestGoldenTranscripts(t *testing.T) {
	cases := map[string]struct {
		verdict fairness.Verdict
		says    string
	}{
		"ubuild-standard.jsonl":    {fairness.Clean, "sank the whole fleet"},
		"ubuild-custom.jsonl":      {fairness.Clean, "sank the whole fleet"},
		"ubuild-classic.jsonl":     {fairness.Clean, "sank the whole fleet"},
		"ubuild-miss-on-hit.jsonl": {fairness.Violated, "seat 1"},
	}
	for name, want := range cases {
		t.Run(name, func(t *testing.T) {
			rep := auditFile(t, filepath.Join("testdata", name))
			if rep.Verdict != want.verdict || !strings.Contains(rep.Summary(), want.says) {
				t.Fatalf("audit: %s; want %s mentioning %q", rep.Summary(), want.verdict, want.says)
			}
		})
	}
}

func auditFile(t testing.TB, path string) *fairness.Report {
	t.Helper()
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// BenchmarkAudit measures the audit of each golden transcript: every
// signature, chain link, opening (200 cells and their paths), dice
// preimage, engine replay and state hash. Target: under 5 ms a full match.
// It is the yardstick for the cost of reading transcripts strictly and
// streaming them.
func BenchmarkAudit(b *testing.B) {
	for _, c := range []struct {
		name    string
		verdict fairness.Verdict
	}{
		{"standard", fairness.Clean},
		{"classic", fairness.Clean},
		{"custom", fairness.Clean},
		{"miss-on-hit", fairness.Violated},
	} {
		data, err := os.ReadFile(filepath.Join("testdata", "ubuild-"+c.name+".jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			cpu := cpuTime()
			for b.Loop() {
				rep, err := fairness.Audit(bytes.NewReader(data), games.Spec)
				if err != nil || rep.Verdict != c.verdict {
					b.Fatalf("%v %v", err, rep)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// A real U-Build transcript that is cut short, edited, reordered or has a
// line repeated never audits clean, and the edit is never blamed on a
// player.
func TestTamperedGoldenTranscripts(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "ubuild-standard.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1]
	n := len(lines)
	join := func(parts ...[]string) string { return strings.Join(slices.Concat(parts...), "") }
	swap := func(i int) string {
		c := slices.Clone(lines)
		c[i], c[i+1] = c[i+1], c[i]
		return join(c)
	}
	edit := func(i int, from, to string) string {
		c := slices.Clone(lines)
		if !strings.Contains(c[i], from) {
			t.Fatalf("line %d has no %q", i+1, from)
		}
		c[i] = strings.Replace(c[i], from, to, 1)
		return join(c)
	}
	cases := map[string]string{
		"last line cut":       join(lines[:n-1]),
		"cut in the middle":   join(lines[:n/2]),
		"half a line":         join(lines[:n-1]) + lines[n-1][:len(lines[n-1])/2],
		"answer edited":       edit(6, `"result":"miss"`, `"result":"hit"`),
		"move edited":         edit(5, `"shots":["`, `"shots":["A-1","`),
		"salt edited":         edit(6, `"salt":"`, `"salt":"00`),
		"two lines swapped":   swap(4),
		"first two swapped":   swap(1),
		"line repeated":       join(lines[:5], lines[4:5], lines[5:]),
		"last line repeated":  join(lines, lines[n-1:]),
		"line dropped":        join(lines[:4], lines[5:]),
		"header variant":      edit(0, `"variant":"standard"`, `"variant":"classic"`),
		"spliced other match": join(lines[:3], strings.SplitAfter(mustRead(t, "ubuild-custom.jsonl"), "\n")[3:6], lines[6:]),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			rep, err := fairness.Audit(strings.NewReader(text), games.Spec)
			if err != nil {
				return // unreadable: not clean either
			}
			if rep.Verdict == fairness.Clean || rep.Verdict == fairness.Violated {
				t.Fatalf("tampered transcript: %s", rep.Summary())
			}
		})
	}
}

func mustRead(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// FuzzAuditJoint audits two records together: never a panic, never an
// error but for records of different matches, and never clean unless one
// of the records is clean by itself.
func FuzzAuditJoint(f *testing.F) {
	std, err := os.ReadFile(filepath.Join("testdata", "ubuild-standard.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	cheat, err := os.ReadFile(filepath.Join("testdata", "ubuild-miss-on-hit.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(std, std)
	f.Add(std, std[:len(std)/2])
	f.Add(std, cheat)
	f.Add(cheat, cheat[:len(cheat)*2/3])
	f.Fuzz(func(t *testing.T, a, b []byte) {
		ra, err := fairness.Audit(bytes.NewReader(a), games.Spec)
		if err != nil {
			return
		}
		rb, err := fairness.Audit(bytes.NewReader(b), games.Spec)
		if err != nil {
			return
		}
		j, err := fairness.AuditJoint([]*fairness.Report{ra, rb})
		if err != nil {
			if !errors.Is(err, fairness.ErrNotSameMatch) {
				t.Fatalf("joint audit: %v", err)
			}
			return
		}
		if j.Verdict == fairness.Clean && ra.Verdict != fairness.Clean && rb.Verdict != fairness.Clean {
			t.Fatalf("joint verdict clean, records %s and %s", ra.Verdict, rb.Verdict)
		}
		if j.Summary() == "" {
			t.Fatal("empty summary")
		}
	})
}
