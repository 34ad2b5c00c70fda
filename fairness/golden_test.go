package fairness_test

import (
	"os"
	"path/filepath"
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
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := fairness.Audit(f, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// BenchmarkAudit measures the audit of one full U-Build transcript: every
// signature, chain link, opening (200 cells and their paths), dice
// preimage, engine replay and state hash. Target: under 5 ms.
func BenchmarkAudit(b *testing.B) {
	for _, v := range []string{"standard", "classic"} {
		path := filepath.Join("testdata", "ubuild-"+v+".jsonl")
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(v, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				rep, err := fairness.Audit(strings.NewReader(string(data)), games.Spec)
				if err != nil || rep.Verdict != fairness.Clean {
					b.Fatalf("%v %v", err, rep)
				}
			}
		})
	}
}
