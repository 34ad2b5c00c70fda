package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
)

// one golden transcript per game.
var notationGoldens = map[string]string{
	"ubuild": "ubuild-custom.jsonl",
	"cards":  "cards-beginner-2p.jsonl",
	"oceans": "oceans-standard-2p.jsonl",
	"sea":    "sea-standard-2p.jsonl",
	"air":    "air-team-4p.jsonl",
}

// TestExportThenAuditNotation: for every game, salvo export writes a
// notation that salvo audit --notation confirms (exit 0); one with a move,
// the result or a tag changed fails (exit 1) naming the changed line.
func TestExportThenAuditNotation(t *testing.T) {
	for _, g := range games.Names() {
		file, ok := notationGoldens[g]
		if !ok {
			t.Fatalf("no golden transcript for %s here", g)
		}
		t.Run(g, func(t *testing.T) {
			transcript := filepath.Join("..", "..", "fairness", "testdata", file)
			note := filepath.Join(t.TempDir(), g+".salvo")
			var out, errb bytes.Buffer
			if code := run([]string{"export", transcript, "-o", note}, &out, &errb); code != exitOK {
				t.Fatalf("export: exit %d: %s", code, errb.String())
			}
			if code := run([]string{"audit", "--notation", note, transcript}, &out, &errb); code != exitOK || !strings.Contains(out.String(), "says exactly what") {
				t.Fatalf("audit --notation of a fresh export: exit %d: %s%s", code, out.String(), errb.String())
			}
			text, err := os.ReadFile(note)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct{ what, prefix, old, new string }{
				{"move", "  move ", "move ", "move pass "},
				{"result", "[Result ", `"`, `"not `},
				{"tag", "[Game ", g, g + "2"},
			} {
				bad, line := changeLine(t, string(text), c.prefix, c.old, c.new)
				if err := os.WriteFile(note, []byte(bad), 0o600); err != nil {
					t.Fatal(err)
				}
				out.Reset()
				code := run([]string{"audit", "--notation", note, transcript}, &out, &errb)
				if code != exitViolation || !strings.Contains(out.String(), "line "+strconv.Itoa(line)+" says") {
					t.Fatalf("%s changed at line %d: exit %d: %s", c.what, line, code, out.String())
				}
			}
		})
	}
}

func changeLine(t *testing.T, text, prefix, old, new string) (string, int) {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = strings.Replace(l, old, new, 1)
			return strings.Join(lines, "\n"), i + 1
		}
	}
	t.Fatalf("no line starts with %q", prefix)
	return "", 0
}

// TestExportUsage: export wants one transcript; a file that is not one is
// exit 2, and so is a notation that does not parse, naming its line.
func TestExportUsage(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk")
	if err := os.WriteFile(junk, []byte("[Notation \"salvo-notation/1\"]\n\x1b[2J\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"export"}, &out, &errb); code != exitUsage {
		t.Fatalf("export without a file: exit %d", code)
	}
	if code := run([]string{"export", junk}, &out, &errb); code != exitUsage {
		t.Fatalf("export of a non-transcript: exit %d", code)
	}
	errb.Reset()
	golden := filepath.Join("..", "..", "fairness", "testdata", "ubuild-standard.jsonl")
	if code := run([]string{"audit", "--notation", junk, golden}, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "line 2: character U+001B") {
		t.Fatalf("audit --notation of a bad notation: exit %d: %s", code, errb.String())
	}
	assertTerminalSafe(t, errb.String())
	if code := run([]string{"audit", "--notation", junk, golden, golden}, &out, &errb); code != exitUsage {
		t.Fatalf("audit --notation with two transcripts: exit %d", code)
	}
}

// TestExportHostileName: a transcript whose player's name holds terminal
// escapes and bidi controls exports to a notation with none of them raw,
// which audits clean against it.
func TestExportHostileName(t *testing.T) {
	path := hostiletest.CraftedNameTranscript(t)
	var out, errb bytes.Buffer
	if code := run([]string{"export", path}, &out, &errb); code != exitOK {
		t.Fatalf("export: exit %d: %s", code, errb.String())
	}
	assertTerminalSafe(t, out.String())
	if !strings.Contains(out.String(), `[Label1 "seat1"]`) {
		t.Fatalf("the hostile name labels its seat:\n%s", out.String())
	}
	note := filepath.Join(t.TempDir(), "n.salvo")
	if err := os.WriteFile(note, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"audit", "--notation", note, path}, &out, &errb); code != exitOK {
		t.Fatalf("audit --notation: exit %d: %s", code, out.String())
	}
}
