package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/style"
)

// A practice match's transcript is named as every transcript is
// (session.TranscriptName: date-time, game, opponent, match ID digits),
// and the end line shows that name.
func TestPracticeTranscriptHasTheCommonName(t *testing.T) {
	t.Parallel()
	hs := firstTurn(t, Config{Offline: true, Bot: "random"}, 140, 40)
	var want string
	hs.onUI(func() {
		ms := hs.app.top().(*matchScreen)
		want = filepath.Join(hs.app.cfg.DataDir, MatchesDir, session.TranscriptName(ms.st.header(), ms.seat))
		ms.finish(&fairness.Result{}, nil)
	})
	hs.WaitFor(filepath.Base(want))
	if !strings.Contains(filepath.Base(want), "-ubuild-vs-") {
		t.Fatalf("transcript name %s", want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("no transcript under the common name: %v", err)
	}
}

// Recent matches lists and audits transcripts whatever their names: the
// common scheme, a practice match of an older Salvo, a network match an
// older Salvo named by its 64-digit match ID.
func TestRecentMatchesListOldAndNewNames(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(botMatch(t, "", 11))
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := fairness.ReadTranscript(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	md := filepath.Join(dir, MatchesDir)
	if err := os.MkdirAll(md, 0o700); err != nil {
		t.Fatal(err)
	}
	names := []string{session.TranscriptName(h, 0), "20251001-101010-ubuild-vs-bob-" + h.Match[:8] + ".jsonl", h.Match + ".jsonl"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(md, n), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hs := start(t, Config{Offline: true, DataDir: dir}, 120, 40)
	txt := hs.WaitFor("Practice against a bot")
	hs.WaitFunc("three clean records", 10*time.Second, func(s string) bool { txt = s; return strings.Count(s, style.OK+" clean") == 3 })
	if strings.Count(txt, "U-Build vs bob") != 3 {
		t.Fatalf("the three transcripts are not all listed\n%s", txt)
	}
	hs.Keys("a")
	hs.WaitFor("pick a match in Recent matches")
	for i := range names {
		if i > 0 {
			hs.Keys(tcell.KeyDown)
		}
		hs.Keys(tcell.KeyEnter)
		hs.WaitFor("Audit · ", style.OK+" clean")
		hs.Keys("q")
		hs.WaitFor("Practice against a bot")
	}
}
