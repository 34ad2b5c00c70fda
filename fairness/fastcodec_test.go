package fairness

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The fast decoders decide nothing of their own: whatever they accept, the
// slow path (decodeCanonical, the decoder every recorded match was read
// with) accepts too, as the same value; whatever they give up on goes to
// the slow path. These tests hold them to that.

// checkFastEnvelope fails t if fastEnvelope accepts data and the slow path
// does not read it as the same envelope.
func checkFastEnvelope(t *testing.T, data []byte) bool {
	fast, ok := fastEnvelope(data)
	if !ok {
		return false
	}
	var slow Envelope
	if err := decodeCanonical(data, &slow); err != nil {
		t.Fatalf("%.120q: the fast path accepts it, the slow path refuses: %v", data, err)
	}
	if !reflect.DeepEqual(*fast, slow) {
		t.Fatalf("%.120q: the fast path reads %+v, the slow path %+v", data, *fast, slow)
	}
	return true
}

// checkFastBody is checkFastEnvelope for bodies.
func checkFastBody(t *testing.T, data []byte) bool {
	fast, ok := fastBody(data)
	if !ok {
		return false
	}
	var slow Body
	if err := decodeCanonical(data, &slow); err != nil {
		t.Fatalf("%.120q: the fast path accepts it, the slow path refuses: %v", data, err)
	}
	if !reflect.DeepEqual(*fast, slow) {
		t.Fatalf("%.120q: the fast path reads %+v, the slow path %+v", data, *fast, slow)
	}
	return true
}

// checkFastLine fails t if fastLine accepts data and DecodeEnvelope and
// DecodeBody, the path of every other line, do not read it as the same
// envelope, body and signature.
func checkFastLine(t *testing.T, data []byte) bool {
	e, body, sig, ok := fastLine(data)
	if !ok {
		return false
	}
	slow, err := DecodeEnvelope(data)
	if err != nil {
		t.Fatalf("%.120q: fastLine accepts it, DecodeEnvelope refuses: %v", data, err)
	}
	slowBody, err := DecodeBody(slow.Body)
	if err != nil {
		t.Fatalf("%.120q: fastLine accepts it, DecodeBody refuses: %v", data, err)
	}
	slowSig, err := canonicalBase64(slow.Sig)
	if err != nil {
		t.Fatalf("%.120q: fastLine accepts it, the signature is not canonical: %v", data, err)
	}
	if !reflect.DeepEqual(e, slow) || !reflect.DeepEqual(body, slowBody) || !bytes.Equal(sig, slowSig) {
		t.Fatalf("%.120q: fastLine reads %+v %+v %x, the slow path %+v %+v %x", data, e, body, sig, slow, slowBody, slowSig)
	}
	return true
}

// perfRecords returns the lines of the audit benchmark's transcripts.
func perfRecords(t testing.TB) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "perf", "*.jsonl"))
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

// TestFastDecodeReadsRecordedLines: every envelope and body of the golden
// and benchmark transcripts takes the fast path (else it would save
// nothing) and reads as the slow path reads it.
func TestFastDecodeReadsRecordedLines(t *testing.T) {
	n := 0
	for _, l := range append(goldenRecords(t), perfRecords(t)...) {
		if lineKind(l) != "envelope" || bytes.HasPrefix(l, []byte(`{"salvo":`)) {
			continue
		}
		e, err := DecodeEnvelope(l)
		if err != nil {
			continue // the golden set keeps a few broken lines on purpose
		}
		if !checkFastEnvelope(t, l) {
			t.Fatalf("%.120q: the fast path gives up on a recorded envelope", l)
		}
		if _, err := DecodeBody(e.Body); err == nil && !checkFastBody(t, e.Body) {
			t.Fatalf("%.120q: the fast path gives up on a recorded body", e.Body)
		}
		if _, err := DecodeBody(e.Body); err == nil && !checkFastLine(t, l) {
			t.Fatalf("%.120q: fastLine gives up on a recorded line", l)
		}
		n++
	}
	if n < 1000 {
		t.Fatalf("only %d envelopes read", n)
	}
}

// TestFastDecodeGivesUpOnOtherSpellings: each way of writing a recorded
// line other than its one form sends it to the slow path, which refuses it
// as before.
func TestFastDecodeGivesUpOnOtherSpellings(t *testing.T) {
	env := []byte(`{"match":"m","seq":7,"from":"p","prev":"q","body":{"inputs":[{"t":"move","move":{"a":[1,-2.5e3,true,null,"x"]},"open":[{"slot":{"owner":1,"name":"grid","index":3},"value":"0a","salt":"` + hex64 + `","path":["` + hex64 + `"]}]}],"state":"s"},"sig":"AAAA"}`)
	if !checkFastEnvelope(t, env) {
		t.Fatal("the fast path gives up on the one form")
	}
	e, _ := fastEnvelope(env)
	if !checkFastBody(t, e.Body) {
		t.Fatal("the fast path gives up on the one form of a body")
	}
	for _, c := range []struct{ name, from, to string }{
		{"a space", `"seq":7`, `"seq": 7`},
		{"a case-folded name", `"seq"`, `"Seq"`},
		{"a repeated field", `"seq":7,`, `"seq":7,"seq":7,`},
		{"an unknown field", `"seq":7,`, `"seq":7,"x":1,`},
		{"fields reordered", `"seq":7,"from":"p"`, `"from":"p","seq":7`},
		{"a leading zero", `"seq":7`, `"seq":07`},
		{"a fraction", `"seq":7`, `"seq":7.0`},
		{"an exponent", `"seq":7`, `"seq":7e0`},
		{"a negative seq", `"seq":7`, `"seq":-7`},
		{"an escape", `"from":"p"`, `"from":"\u0070"`},
		{"non-ASCII", `"from":"p"`, "\"from\":\"\u00e9\""},
		{"a space in the body", `"state":"s"`, `"state": "s"`},
		{"a space in a move", `{"a":[1,`, `{"a": [1,`},
		{"upper-case hex", `"value":"0a"`, `"value":"0A"`},
		{"odd hex", `"value":"0a"`, `"value":"0a0"`},
		{"a short salt", `"salt":"` + hex64[:2], `"salt":"`},
		{"an empty omitempty field", `"t":"move",`, `"t":"move","name":"",`},
		{"a zero omitempty field", `"t":"move",`, `"t":"move","size":0,`},
		{"an empty open list", `"move":{`, `"open":[],"move":{`},
		{"a null path", `"path":["` + hex64 + `"]`, `"path":null`},
		{"trailing data", `"sig":"AAAA"}`, `"sig":"AAAA"} `},
		{"a minus zero", `"owner":1`, `"owner":-0`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := bytes.Replace(env, []byte(c.from), []byte(c.to), 1)
			if bytes.Equal(b, env) {
				t.Fatalf("%q is not in the line", c.from)
			}
			checkFastEnvelope(t, b)
			checkFastLine(t, b)
			if e, ok := fastEnvelope(b); ok {
				// A change inside the body: the body's own decoders.
				checkFastBody(t, e.Body)
			}
		})
	}
	// Base64 of the deck fields: padding bits set, or a missing pad.
	for _, sh := range []string{`"AB=="`, `"AA="`, `"A"`, `""`} {
		b := []byte(`{"inputs":[{"t":"unmask","shares":[` + sh + `]}],"state":"s"}`)
		checkFastBody(t, b)
	}
}

const hex64 = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

// FuzzFastDecode: for any input, the fast path accepts only what the slow
// path reads as the same value.
func FuzzFastDecode(f *testing.F) {
	seedLines(f)
	for _, l := range goldenRecords(f) {
		if e, err := DecodeEnvelope(l); err == nil {
			f.Add([]byte(e.Body))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastEnvelope(t, data)
		checkFastBody(t, data)
		checkFastLine(t, data)
	})
}
