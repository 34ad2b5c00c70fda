package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/fairness/untrusted"
)

// TestViewerShowsANotationUnverified: the viewer opens a match notation on
// its own (at 80x24 too), lists its messages with what they say, and says
// on screen that none of it is checked.
func TestViewerShowsANotationUnverified(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "fairness", "notation", "testdata", "oceans-standard-2p.salvo")
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, size[0], size[1])
		hs.WaitFor("Notation, UNVERIFIED", "UNVERIFIED: this is a match notation", "? unverified")
		hs.Keys("g") // the header, then the first message with a move
		for range 7 {
			hs.Keys("n")
		}
		hs.WaitFor("move deploy leaf=2 ocean=0", "ann deploys an Aircraft Carrier")
		if strings.Contains(hs.Text(), "✓") {
			t.Fatalf("a tick on an unverified notation:\n%s", hs.Text())
		}
	}
}

// TestViewerNotationHostileTags: a notation whose tags hold terminal
// escapes and bidi controls (quoted, as the format allows) shows them
// escaped, never raw.
func TestViewerNotationHostileTags(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "fairness", "notation", "testdata", "ubuild-standard.salvo"))
	if err != nil {
		t.Fatal(err)
	}
	evil := strings.Replace(string(raw), `[Player1 "bot-b"]`, `[Player1 "\x1b[2J\u202eclean"]`, 1)
	evil = strings.Replace(evil, `[Result "bot-b`, `[Result "\x1b[1A\r`, 1)
	path := filepath.Join(t.TempDir(), "evil.salvo")
	if err := os.WriteFile(path, []byte(evil), 0o600); err != nil {
		t.Fatal(err)
	}
	hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, 160, 40)
	hs.WaitFor("UNVERIFIED", `\u{1b}[2J\u{202e}clean`)
	for i, c := range hs.cells() {
		for _, r := range string(c.Bytes) {
			if untrusted.Hidden(r) {
				t.Fatalf("cell %d holds raw %U\n%s", i, r, hs.Text())
			}
		}
	}
}

// TestAuditPromptTakesANotation: the lobby's "Audit a match record" prompt
// takes a notation as well as a transcript, and says it will be shown
// unverified.
func TestAuditPromptTakesANotation(t *testing.T) {
	msg, ok := checkTranscriptPath(filepath.Join("..", "fairness", "notation", "testdata", "air-team-4p.salvo"))
	if !ok || !strings.Contains(msg, "notation of air: shown unverified") {
		t.Fatalf("got %q, %v", msg, ok)
	}
	bad := filepath.Join(t.TempDir(), "bad.salvo")
	if err := os.WriteFile(bad, []byte("[Notation \"salvo-notation/1\"]\nfoo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg, ok := checkTranscriptPath(bad); ok || !strings.Contains(msg, "line 2") {
		t.Fatalf("a bad notation: got %q, %v", msg, ok)
	}
}
