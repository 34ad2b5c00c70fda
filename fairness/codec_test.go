package fairness

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenRecords returns every line of every golden transcript, without its
// line break.
func goldenRecords(t testing.TB) [][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))...)
	}
	return out
}

// reencoded returns the one form of what a parsed line holds.
func reencoded(t testing.TB, ln Line) []byte {
	t.Helper()
	var v any = ln.Envelope
	switch {
	case ln.Closing != nil:
		v = ln.Closing
	case ln.Raw != nil:
		v = ln.Raw
	}
	b, err := marshalCompact(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkLine is the property every transcript line's decoding keeps: a line
// either fails to decode or is the one form of what it decodes to, so no
// other bytes can stand for the same record (and the same signature).
func checkLine(t *testing.T, b []byte) {
	ln, err := parseLine(2, b)
	if err != nil {
		if !strings.Contains(err.Error(), "line 2") {
			t.Fatalf("error does not name the line: %v", err)
		}
		return
	}
	if c := reencoded(t, ln); !bytes.Equal(c, b) {
		t.Fatalf("%.80q decodes, but its one form is %.80q", b, c)
	}
	if ln.Envelope != nil {
		if _, err := DecodeBody(ln.Envelope.Body); err == nil {
			checkBody(t, ln.Envelope.Body)
		}
	}
}

func checkBody(t *testing.T, b []byte) {
	body, err := DecodeBody(b)
	if err != nil {
		return
	}
	c, err := marshalCompact(body)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(c, b) {
		t.Fatalf("body %.80q decodes, but its one form is %.80q", b, c)
	}
}

// mutate changes b at random: a byte replaced, inserted, removed or its
// letter case flipped, or a piece of it repeated.
func mutate(r *rand.Rand, b []byte) []byte {
	const pick = "\\\"{}[],:= \r\nAa0+/"
	b = bytes.Clone(b)
	if len(b) == 0 {
		return []byte{pick[r.IntN(len(pick))]}
	}
	i := r.IntN(len(b))
	switch r.IntN(5) {
	case 0:
		b[i] = byte(r.IntN(256))
	case 1:
		b = append(b[:i], append([]byte{pick[r.IntN(len(pick))]}, b[i:]...)...)
	case 2:
		b = append(b[:i], b[i+1:]...)
	case 3:
		b[i] ^= 0x20
	default:
		j := min(len(b), i+1+r.IntN(40))
		b = append(b[:j], append(bytes.Clone(b[i:j]), b[j:]...)...)
	}
	return b
}

// TestLineMutationsKeepOneForm: random mutations of real transcript lines
// either fail to decode or give a line that is the one form of its value.
func TestLineMutationsKeepOneForm(t *testing.T) {
	lines := goldenRecords(t)
	r := rand.New(rand.NewPCG(12, 5))
	decoded := 0
	for range 3000 {
		l := lines[1+r.IntN(len(lines)-1)]
		if bytes.HasPrefix(l, []byte(`{"salvo":`)) {
			continue
		}
		m := mutate(r, l)
		for range r.IntN(3) {
			m = mutate(r, m)
		}
		if _, err := parseLine(2, m); err == nil {
			decoded++
		}
		checkLine(t, m)
	}
	t.Logf("%d of the mutated lines decode, each in its one form", decoded)
}

// Fuzz targets: each decoder either refuses its input or reads it as the
// one form of what it decodes to. The seed corpus is the golden
// transcripts' lines and a few re-spellings.
func seedLines(f *testing.F) {
	for _, l := range goldenRecords(f) {
		f.Add(l)
		f.Add(bytes.Replace(l, []byte(`"sig":`), []byte(`"Sig":`), 1))
		f.Add(bytes.Replace(l, []byte(`=="}`), []byte(`\r\n=="}`), 1))
	}
}

func FuzzParseLine(f *testing.F) {
	seedLines(f)
	f.Fuzz(checkLine)
}

func FuzzDecodeBody(f *testing.F) {
	for _, l := range goldenRecords(f) {
		if e, err := DecodeEnvelope(l); err == nil {
			f.Add([]byte(e.Body))
			f.Add(bytes.Replace(e.Body, []byte(`"t":`), []byte(`"T":`), 1))
		}
	}
	f.Fuzz(checkBody)
}

func FuzzReadTranscriptHeader(f *testing.F) {
	for _, l := range goldenRecords(f) {
		if bytes.HasPrefix(l, []byte(`{"salvo":`)) {
			f.Add(l)
			f.Add(bytes.Replace(l, []byte(`"game":`), []byte(`"game":"x","game":`), 1))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		h, _, err := ReadTranscript(bytes.NewReader(b))
		if err != nil {
			return
		}
		c, err := marshalCompact(h)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := bytes.Cut(b, []byte("\n"))
		if !bytes.Equal(c, bytes.TrimSuffix(first, []byte("\r"))) {
			t.Fatalf("header %.80q reads, but its one form is %.80q", first, c)
		}
	})
}
