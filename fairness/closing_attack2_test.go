package fairness

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// An attack on the honest receiver's own record: a frame that does not
// decode is kept as a raw line and the receiver signs a violation record
// whose detail is the decoder's error. encoding/json quotes an unknown
// field's name in its error, and reads each byte of invalid UTF-8 in it as
// U+FFFD, three bytes: a frame of a megabyte made the detail three, a line
// over the transcript's line bound, so the receiver's record, its only
// evidence of the violation, no longer audited. A closing record's detail
// is bounded when it is signed (MaxDetail).
func TestAttack2JunkFrameErrorBreaksTheTranscript(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	m, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "seat0.jsonl")
	tw, err := CreateTranscript(path, h)
	if err != nil {
		t.Fatal(err)
	}
	ours, _ := fairnesstest.Pipe()
	ref, err := NewReferee(Config{Match: m, Seat: 0, Key: keys[0], Transport: ours, Transcript: tw, Timeout: time.Minute,
		Agent: &peekBot{r: rand.New(rand.NewPCG(1, 0))}})
	if err != nil {
		t.Fatal(err)
	}
	junk := `{"` + strings.Repeat("\x80", MaxEnvelope-16) + `":1}`
	ours.Deliver([]byte(junk))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := ref.Run(ctx)
	tw.Close()
	if err != nil || res.Closing == nil || res.Closing.Closing != CloseViolation {
		t.Fatalf("the referee: %+v, %v", res, err)
	}
	rep := auditFile(t, path)
	if rep.Verdict != Violated || rep.Violation.Seat != 1 {
		t.Fatalf("the receiver's record: %s", rep.Summary())
	}
	if n := len(res.Closing.Detail); n > MaxDetail {
		t.Fatalf("the violation record's detail is %d bytes, over %d", n, MaxDetail)
	}
	t.Logf("the receiver's record: %.200s", rep.Summary())

}

// A closing record signed with any detail reads back from its transcript
// line and verifies: a detail that is not valid UTF-8 (which the line's
// JSON would write otherwise) or too long is bounded before it is signed,
// cut at a character boundary.
func TestAttack2ClosingDetailReadsBackSigned(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	for name, detail := range map[string]string{
		"invalid UTF-8":      "bad \xff\xfe bytes",
		"long, multi-byte":   strings.Repeat("é", MaxDetail),
		"long, U+2028":       strings.Repeat("\u2028", MaxEnvelope/3),
		"exactly the bound":  strings.Repeat("a", MaxDetail),
		"ordinary":           "connection lost: peer closed the match stream",
		"control characters": strings.Repeat("\x1b[2J", 400),
	} {
		t.Run(name, func(t *testing.T) {
			c := &Closing{Closing: CloseTimeout, Match: h.Match, Seat: 1, Seq: 3, Detail: detail}
			if err := c.Sign(keys[0]); err != nil {
				t.Fatal(err)
			}
			if len(c.Detail) > MaxDetail || !utf8.ValidString(c.Detail) {
				t.Fatalf("signed detail of %d bytes, valid UTF-8 %v", len(c.Detail), utf8.ValidString(c.Detail))
			}
			b := mustJSON(t, c)
			if len(b) > maxLine {
				t.Fatalf("a line of %d bytes", len(b))
			}
			ln, err := parseLine(2, b)
			if err != nil || ln.Closing == nil {
				t.Fatalf("the line does not read back: %v", err)
			}
			if err := ln.Closing.Verify(); err != nil {
				t.Fatalf("the line read back does not verify: %v", err)
			}
		})
	}
}
