package fairness_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// BenchmarkLiveAudit compares the live audit, a line at a time as a
// spectator takes them, with the audit of the whole file (which decodes
// and checks signatures of the lines ahead on every core): the catch-up
// of a late spectator costs about the former.
func BenchmarkLiveAudit(b *testing.B) {
	for _, name := range []string{"ubuild-standard.jsonl", "air-team-4p.jsonl"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
		b.Run("live/"+name, func(b *testing.B) {
			for b.Loop() {
				la, err := fairness.NewLiveAudit(lines[0], games.Spec)
				if err != nil {
					b.Fatal(err)
				}
				for _, l := range lines[1:] {
					if err := la.Add(l); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("file/"+name, func(b *testing.B) {
			for b.Loop() {
				if _, err := fairness.Audit(bytes.NewReader(data), games.Spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
