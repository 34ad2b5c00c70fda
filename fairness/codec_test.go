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

// Everything TranscriptWriter writes reads back, in particular a raw
// record of a full-size message (which the line limit must fit) and a
// name that JSON escapes.
func TestWrittenLinesReadBack(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	h.Players[1].Name = "bob <\u2028\"\x01>"
	path := filepath.Join(t.TempDir(), "t.jsonl")
	w, err := CreateTranscript(path, h)
	if err != nil {
		t.Fatal(err)
	}
	e := &Envelope{Match: h.Match, Seq: 1, Prev: h.Match, Body: []byte(`{"inputs":[{"t":"deckkey","name":"d","key":"AAE="}],"state":"00"}`)}
	if err := e.Sign(keys[0]); err != nil {
		t.Fatal(err)
	}
	raw := bytes.Repeat([]byte{0xff, '\n', '"'}, MaxEnvelope/3)
	c := &Closing{Closing: CloseViolation, Match: h.Match, Seat: 1, Seq: 1, Detail: "undecodable \x00"}
	if err := c.Sign(keys[0]); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{w.Envelope(e), w.Raw(raw, "someone"), w.WriteClosing(c), w.Close()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, tr, err := ReadTranscript(f)
	if err != nil || got.Players[1].Name != h.Players[1].Name {
		t.Fatalf("header: %v %q", err, got.Players[1].Name)
	}
	for i := range 3 {
		ln, err := tr.Next()
		if err != nil {
			t.Fatalf("line %d: %v", i+2, err)
		}
		if i == 1 {
			if b, _ := canonicalBase64(ln.Raw.Raw); !bytes.Equal(b, raw) {
				t.Fatal("the raw record's bytes changed")
			}
		}
	}
}

// A body's []byte, hex and digest fields are read in one spelling only,
// like every field: base64 without padding bits or line breaks, lower-case
// hex.
func TestBodyFieldsOneSpelling(t *testing.T) {
	const good = `{"inputs":[{"t":"deckkey","name":"d","key":"AAE="}],"state":"00"}`
	if _, err := DecodeBody([]byte(good)); err != nil {
		t.Fatalf("the one form refused: %v", err)
	}
	salt := strings.Repeat("ab", 32)
	open := `{"inputs":[{"t":"open","open":[{"slot":{"owner":0,"name":"g","index":1},"value":"0a","salt":"` + salt + `","path":[]}]}],"state":"00"}`
	if _, err := DecodeBody([]byte(open)); err != nil {
		t.Fatalf("the one form refused: %v", err)
	}
	for name, b := range map[string]string{
		"base64 padding bits": strings.Replace(good, `"AAE="`, `"AAF="`, 1),
		"base64 line break":   strings.Replace(good, `"AAE="`, `"AA\r\nE="`, 1),
		"cased key":           strings.Replace(good, `"key"`, `"Key"`, 1),
		"repeated key":        strings.Replace(good, `"t":"deckkey"`, `"t":"move","t":"deckkey"`, 1),
		"unknown key":         strings.Replace(good, `"state"`, `"extra":1,"state"`, 1),
		"zero written out":    strings.Replace(good, `"name":"d"`, `"name":"d","size":0`, 1),
		"escaped letter":      strings.Replace(good, `"deckkey"`, `"deck\u006bey"`, 1),
		"upper-case hex":      strings.Replace(open, `"0a"`, `"0A"`, 1),
		"upper-case salt":     strings.Replace(open, salt, strings.ToUpper(salt), 1),
	} {
		_, err := DecodeBody([]byte(b))
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		t.Logf("%s: %v", name, err)
	}
}
