package tuitest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

func TestConfigFillsOnlyWhatIsUnset(t *testing.T) {
	t.Parallel()
	cfg := Config(t, tui.Config{}, "air")
	if !cfg.Offline || cfg.DataDir == "" || len(cfg.ListenAddrs) != 1 || cfg.ListenAddrs[0] != Loopback ||
		cfg.Rand == nil || cfg.Theme == nil || cfg.Game != "air" {
		t.Fatalf("defaults not filled: %+v", cfg)
	}
	th := style.New(true)
	own := tui.Config{DataDir: "d", ListenAddrs: []string{"x"}, Theme: th, Game: "sea"}
	cfg = Config(t, own, "air")
	if cfg.DataDir != "d" || cfg.ListenAddrs[0] != "x" || cfg.Theme != th || cfg.Game != "sea" {
		t.Fatalf("a value of the test's own was replaced: %+v", cfg)
	}
}

func TestPromptAndAsks(t *testing.T) {
	t.Parallel()
	l := []string{"title", "board", "  Your turn: fire  ", "enter fire · q leave"}
	if got := Prompt(l); got != "Your turn: fire" {
		t.Fatalf("Prompt = %q", got)
	}
	if !Asks(boardtest.Join(l)) {
		t.Fatal("a key bar offering enter does not ask")
	}
	if Asks("title\nwaiting for bob\nq leave\n") {
		t.Fatal("a screen without enter asks")
	}
	if !Asks("title\nyou won\nq leave\n") {
		t.Fatal("the end of the match is not reported")
	}
}

func TestCaptureWritesOnceWhenAsked(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TUITEST_CAPTURE", dir)
	u := &UI{W: 80, H: 24}
	u.Capture("TUITEST_CAPTURE", "end", []string{"a", "b"})
	u.Capture("TUITEST_CAPTURE", "end", []string{"c"})
	b, err := os.ReadFile(filepath.Join(dir, "80x24-end.txt"))
	if err != nil || string(b) != "a\nb\n" {
		t.Fatalf("capture %q, %v", b, err)
	}
	u.Capture("TUITEST_UNSET", "none", []string{"x"})
}

func TestSeqReadsTheTitleBarOnly(t *testing.T) {
	for _, tc := range []struct{ screen, want string }{
		{" U-Build · vs bot · your turn            seq 41 ✓ in sync\nbody seq 7\n", "41"},
		{" Salvo                 you: ann\n seq 9 in the body\n", ""},
		{"", ""},
	} {
		if got := Seq(tc.screen); got != tc.want {
			t.Errorf("Seq(%q) = %q, want %q", tc.screen, got, tc.want)
		}
	}
}
