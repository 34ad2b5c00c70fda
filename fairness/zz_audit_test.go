package fairness

import (
	"bytes"
	"os"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
)

func BenchmarkZZAudit(b *testing.B) {
	for _, name := range append([]string{"ubuild"}, perfTranscripts...) {
		data, err := os.ReadFile(perfFile(name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				rep, err := Audit(bytes.NewReader(data), games.Spec)
				if err != nil || rep.Verdict != Clean {
					b.Fatal(err)
				}
			}
		})
	}
}
