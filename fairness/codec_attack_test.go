package fairness_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// goldenLines returns the lines of a golden transcript, each with its "\n".
func goldenLines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	return lines[:len(lines)-1]
}

// lastLineOfSeat returns the index of the last line holding an envelope sent
// by seat: a re-spelling there breaks no later message's chain link.
func lastLineOfSeat(t testing.TB, lines []string, seat int) int {
	t.Helper()
	var h fairness.Header
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	from := `"from":"` + h.Players[seat].Peer + `"`
	var found []int
	for i, l := range lines[1:] {
		if strings.HasPrefix(l, `{"match":`) && strings.Contains(l, from) {
			found = append(found, i+1)
		}
	}
	if len(found) == 0 {
		t.Fatalf("no envelope of seat %d", seat)
	}
	return found[len(found)-1]
}

// The re-spellings an attacker can make of a transcript line without
// touching what it says: each keeps a lenient decoder's reading of the line
// (and so its signature valid), and the first two change the message ID.
var respellings = map[string]func(t testing.TB, line string) string{
	// The last base64 digit before "==" carries 4 bits that decode to
	// nothing: setting one gives another text for the same signature.
	"signature padding bits": func(t testing.TB, line string) string {
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
		i := strings.Index(line, `=="}`)
		if i < 0 {
			t.Fatalf("no padded signature at the end of %.60q", line)
		}
		d := strings.IndexByte(alphabet, line[i-1])
		return line[:i-1] + string(alphabet[d^1]) + line[i:]
	},
	// A lenient base64 decoder skips line breaks.
	"signature with CRLF inside": func(t testing.TB, line string) string {
		i := strings.LastIndex(line, `"sig":"`) + len(`"sig":"`) + 20
		return line[:i] + `\r\n` + line[i:]
	},
	// encoding/json keeps the last of two equal keys.
	"duplicate key": func(t testing.TB, line string) string {
		seq := regexp.MustCompile(`"seq":[0-9]+`).FindString(line)
		if seq == "" {
			t.Fatalf("no seq in %.60q", line)
		}
		return strings.TrimSuffix(line, "}\n") + "," + seq + "}\n"
	},
	// encoding/json matches field names whatever their case.
	"cased key": func(t testing.TB, line string) string {
		return strings.Replace(line, `"sig":`, `"Sig":`, 1)
	},
	// Unknown fields.
	"unknown key": func(t testing.TB, line string) string {
		return strings.TrimSuffix(line, "}\n") + `,"note":"x"}` + "\n"
	},
	// Whitespace between tokens.
	"space after colon": func(t testing.TB, line string) string {
		return strings.Replace(line, `"sig":`, `"sig": `, 1)
	},
}

// TestAttackSignatureRespelling: a transcript line spelled in any other way
// than the one Salvo writes is refused, naming the line, so one signature
// never stands for two message IDs. On main a re-spelled signature audited
// clean, and audited together with the other player's faithful record the
// joint audit called the honest signer an equivocator.
func TestAttackSignatureRespelling(t *testing.T) {
	orig := goldenLines(t, "ubuild-standard.jsonl")
	k := lastLineOfSeat(t, orig, 1) // a message of seat 1, the honest signer
	for name, respell := range respellings {
		t.Run(name, func(t *testing.T) {
			copied := append([]string(nil), orig...)
			copied[k] = respell(t, orig[k])
			if copied[k] == orig[k] {
				t.Fatal("the re-spelling changed nothing")
			}
			rep, err := fairness.Audit(strings.NewReader(strings.Join(copied, "")), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			honest, err := fairness.Audit(strings.NewReader(strings.Join(orig, "")), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			j, err := fairness.AuditJoint([]*fairness.Report{rep, honest})
			if err != nil {
				t.Fatal(err)
			}
			if j.Verdict == fairness.Violated && j.Violation.Seat == 1 {
				t.Errorf("joint audit names the honest signer: %s", j.Summary())
			}
			if rep.Verdict != fairness.Corrupt || rep.Line != k+1 || !strings.Contains(rep.Detail, "line ") {
				t.Fatalf("re-spelled line %d: %s (line %d); want corrupt at that line", k+1, rep.Summary(), rep.Line)
			}
			t.Logf("refused: %s", rep.Detail)
		})
	}
}

// The closing record and the header are refused too when re-spelled.
func TestAttackRespelledClosingAndHeader(t *testing.T) {
	orig := goldenLines(t, "ubuild-miss-on-hit.jsonl")
	last := len(orig) - 1
	for name, respell := range respellings {
		t.Run("closing/"+name, func(t *testing.T) {
			copied := append([]string(nil), orig...)
			copied[last] = respell(t, orig[last])
			rep, err := fairness.Audit(strings.NewReader(strings.Join(copied, "")), games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != fairness.Corrupt || rep.Line != last+1 {
				t.Fatalf("re-spelled closing: %s (line %d); want corrupt at line %d", rep.Summary(), rep.Line, last+1)
			}
		})
	}
	header := map[string]func(string) string{
		"cased key": func(l string) string { return strings.Replace(l, `"game":`, `"Game":`, 1) },
		"duplicate key": func(l string) string {
			return strings.Replace(l, `"game":"ubuild",`, `"game":"ubuild","game":"ubuild",`, 1)
		},
		"space": func(l string) string { return strings.Replace(l, `,"game"`, `, "game"`, 1) },
	}
	for name, respell := range header {
		t.Run("header/"+name, func(t *testing.T) {
			copied := append([]string{respell(orig[0])}, orig[1:]...)
			_, err := fairness.Audit(strings.NewReader(strings.Join(copied, "")), games.Spec)
			if err == nil || !strings.Contains(err.Error(), "line 1") {
				t.Fatalf("re-spelled header: err %v; want it refused naming line 1", err)
			}
		})
	}
}

// Every golden transcript, written by main's code, reads back byte for byte
// in the one form: the stricter decoding costs no old record.
func TestGoldenTranscriptsAreCanonical(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, tr, err := fairness.ReadTranscript(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for {
			ln, err := tr.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("%s: %v", f, err)
				}
				break
			}
			if ln.Envelope != nil {
				if _, err := fairness.DecodeBody(ln.Envelope.Body); err != nil {
					t.Fatalf("%s line %d: %v", f, ln.No, err)
				}
			}
		}
		if rep := auditFile(t, f); rep.Verdict == fairness.Corrupt {
			t.Fatalf("%s: %s", f, rep.Summary())
		}
	}
}
