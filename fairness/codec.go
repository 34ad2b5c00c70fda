package fairness

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
)

// strictUnmarshal decodes JSON rejecting unknown fields and trailing data.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("trailing data after JSON value")
	}
	return nil
}

// decodeCanonical decodes b into v and accepts b only in the one byte form
// Salvo writes v in, the one marshalCompact gives for the decoded value.
//
// Why: a message's ID hashes the text of its signature, and a record is
// evidence only if nobody but its signer can make another record that says
// the same thing differently. JSON and base64 offer many spellings of one
// value (field names in any case, repeated fields of which the last wins,
// whitespace, escapes, base64 padding bits and line breaks); comparing the
// bytes with their re-encoding refuses all of them at once, including any
// nobody listed. Measured, it costs less than a hand-written scanner would
// save (see BenchmarkAudit). Only a refusal pays for finding out why.
//
// Unknown fields and trailing data need no check of their own on the way
// in (the re-encoding lacks them); a refusal reads b again to say why.
func decodeCanonical(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	buf := scratch.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxScratch {
			scratch.Put(buf)
		}
	}()
	c, err := encodeCompact(buf, v)
	if err != nil {
		return fmt.Errorf("re-encode: %w", err)
	}
	if !bytes.Equal(b, c) {
		if err := strictUnmarshal(b, reflect.New(reflect.TypeOf(v).Elem()).Interface()); err != nil {
			return err
		}
		return explainSpelling(b, c)
	}
	return nil
}

// marshalCompact encodes v as compact JSON without HTML escaping, the one
// form in which Salvo signs and stores JSON.
func marshalCompact(v any) ([]byte, error) { return encodeCompact(new(bytes.Buffer), v) }

// encodeCompact encodes v as marshalCompact does, into buf (reset first).
func encodeCompact(buf *bytes.Buffer, v any) ([]byte, error) {
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// scratch holds buffers for decodeCanonical's re-encodings, which are only
// compared and dropped; buffers grown past maxScratch (by a rare large
// line) are not kept.
var scratch = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxScratch = 64 << 10

// canonicalBase64 decodes s, standard base64 with padding, accepting only
// the one text that encodes those bytes: no line breaks, no padding bits
// set. A signature's text is hashed into its message's ID.
func canonicalBase64(s string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if base64.StdEncoding.EncodeToString(b) != s {
		return nil, errors.New("not canonical base64 (line breaks or padding bits)")
	}
	return b, nil
}

// explainSpelling says why b, which decodes, is not its canonical form c:
// the first repeated or wrongly cased field name, or else the field whose
// value is spelled differently.
func explainSpelling(b, c []byte) error {
	diff := int64(0)
	for int(diff) < min(len(b), len(c)) && b[diff] == c[diff] {
		diff++
	}
	w := spellingWalker{dec: json.NewDecoder(bytes.NewReader(b)), diff: diff}
	if err := w.value(); err != nil {
		return err
	}
	if w.field != "" {
		return fmt.Errorf("field %q is not in canonical form: %s where Salvo writes %s", w.field, excerpt(b, diff), excerpt(c, diff))
	}
	return fmt.Errorf("not in canonical form at byte %d: %s where Salvo writes %s", diff, excerpt(b, diff), excerpt(c, diff))
}

// excerpt quotes a few bytes of b from i.
func excerpt(b []byte, i int64) string {
	if int(i) >= len(b) {
		return "the end"
	}
	return fmt.Sprintf("%q", b[i:min(len(b), int(i)+16)])
}

// spellingWalker walks a decoded JSON value's tokens, refusing repeated and
// wrongly cased field names, and finds the innermost field whose bytes hold
// offset diff.
type spellingWalker struct {
	dec   *json.Decoder
	diff  int64
	field string
}

func (w *spellingWalker) value() error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for w.dec.More() {
			start := w.dec.InputOffset()
			key, err := w.dec.Token()
			if err != nil {
				return err
			}
			k, _ := key.(string)
			if seen[k] {
				return fmt.Errorf("field %q appears twice", k)
			}
			seen[k] = true
			if want, ok := knownFields()[strings.ToLower(k)]; ok && want != k {
				return fmt.Errorf("field %q is not spelled %q", k, want)
			}
			if err := w.value(); err != nil {
				return err
			}
			if w.field == "" && start <= w.diff && w.diff < w.dec.InputOffset() {
				w.field = k
			}
		}
	case json.Delim('['):
		for w.dec.More() {
			if err := w.value(); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = w.dec.Token() // the closing delimiter
	return err
}

// knownFields maps the lower-cased JSON name of every field of a transcript
// line to its one spelling.
var knownFields = sync.OnceValue(func() map[string]string {
	names := map[string]string{}
	for _, v := range []any{Header{}, Envelope{}, Body{}, Closing{}, Raw{}} {
		collectFields(reflect.TypeOf(v), names, map[reflect.Type]bool{})
	}
	return names
})

func collectFields(t reflect.Type, names map[string]string, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		if name != "-" {
			names[strings.ToLower(name)] = name
		}
		collectFields(f.Type, names, seen)
	}
}

func decodeDigest(s string) (Digest, error) {
	var d Digest
	if len(s) != 2*len(d) {
		return d, fmt.Errorf("want %d hex digits, got %d", 2*len(d), len(s))
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return d, fmt.Errorf("bad hex: %w", err)
	}
	return d, nil
}

func hexDigest(d Digest) string { return hex.EncodeToString(d[:]) }

// hexIs reports whether s is hexDigest(d), without writing it: every
// message is compared with the match ID, the previous message and the
// state hash, and each hexDigest was a new string an audit dropped at once
// (issue 15).
func hexIs(s string, d Digest) bool {
	const digits = "0123456789abcdef"
	if len(s) != hex.EncodedLen(len(d)) {
		return false
	}
	for i, b := range d {
		if s[2*i] != digits[b>>4] || s[2*i+1] != digits[b&0x0f] {
			return false
		}
	}
	return true
}
