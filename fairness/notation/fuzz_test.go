package notation_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/fairness/notation"
)

// FuzzParse: whatever the input, Parse never panics, and a notation it
// accepts writes back to a text it reads as the same notation (comments,
// tags, messages, items and reveals alike), within the line limit.
//
// Run it for longer with: go test ./fairness/notation -run '^$' -fuzz FuzzParse -fuzztime=2000x
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.salvo")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		// The head of each golden notation: its tags and first messages,
		// small enough for the fuzzer to mutate quickly.
		lines := strings.SplitAfterN(string(b), "\n", 60)
		f.Add(strings.Join(lines[:len(lines)-1], ""))
		f.Add(lines[len(lines)-1][:min(2000, len(lines[len(lines)-1]))])
	}
	f.Add("[Notation \"salvo-notation/1\"]\n; c\n1. a\n  ; d\n  > e\nreveal a g ? 1 x00\n; tail\n")
	f.Fuzz(func(t *testing.T, s string) {
		n, err := notation.Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		var b strings.Builder
		if _, err := n.WriteTo(&b); err != nil {
			return // a tag value that requoting grew past the line limit
		}
		text := b.String()
		back, err := notation.Parse(strings.NewReader(text))
		if err != nil {
			t.Fatalf("Parse(Write(Parse(s))): %v\n%s", err, text)
		}
		if back.String() != text {
			t.Fatalf("Write(Parse(n)) != n for n = %q", text)
		}
		if err := notation.Check(back, n); err != nil {
			t.Fatalf("a notation differs from its own rewrite: %v", err)
		}
	})
}
