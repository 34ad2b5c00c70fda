package notation_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/notation"
)

// BenchmarkWrite: the notation of a 4-player Air match (840 KB of
// transcript), audit included; BenchmarkParse reads it back.
func BenchmarkWrite(b *testing.B) {
	data, err := os.ReadFile("../testdata/air-team-4p.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var out bytes.Buffer
		if err := notation.Write(&out, bytes.NewReader(data), games.Spec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	data, err := os.ReadFile("testdata/air-team-4p.salvo")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := notation.Parse(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
