package fairness

import (
	"bytes"
	"encoding/json"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// EncodeEnvelope's plain copying writes exactly what the JSON encoder
// writes: every recorded envelope comes out as its line, and random
// envelopes with every kind of awkward text (quotes, backslashes, control
// and non-ASCII bytes, HTML characters, whitespace in and around the
// body, bodies that are no JSON) give the encoder's bytes or its refusal.
func TestEncodeEnvelopeIsTheEncoders(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	perf, _ := filepath.Glob(filepath.Join("testdata", "perf", "*.jsonl"))
	lines := 0
	for _, path := range append(files, perf...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n"))[1:] {
			e, err := DecodeEnvelope(l)
			if err != nil {
				continue
			}
			got, err := EncodeEnvelope(e)
			if err != nil || !bytes.Equal(got, l) {
				t.Fatalf("%s: %v\n got %s\nwant %s", path, err, got, l)
			}
			lines++
		}
	}
	if lines < 1000 {
		t.Fatalf("only %d envelopes", lines)
	}
	rng := mrand.New(mrand.NewPCG(15, 8))
	texts := []string{"", "abc", `a"b`, `a\b`, "a\nb", "\x01", "é", "<&>", "\u2028", "\xff", "12D3KooW", " "}
	bodies := []string{`{"inputs":[],"state":"s"}`, `{"a": 1}`, "{\"a\":\"x y\"}", `{"a":"<&>\u2028"}`, " {}", "{}\n", `{`, ``, `null`, `{"a":"\xff"}`, `[1,2]`}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	for range 3000 {
		e := &Envelope{Match: pick(texts), Seq: rng.Uint64N(1 << 40), From: pick(texts), Prev: pick(texts), Body: json.RawMessage(pick(bodies)), Sig: pick(texts)}
		want, werr := marshalCompact(e)
		got, gerr := EncodeEnvelope(e)
		if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("%+v: encoder %s (%v), EncodeEnvelope %s (%v)", e, want, werr, got, gerr)
		}
	}
}
