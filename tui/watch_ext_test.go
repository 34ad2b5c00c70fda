package tui_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/p2p/watch/watchtest"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// The interface watches a match as a spectator (salvo watch CODE) at
// 80x24: opened before the match starts, it waits, follows it live in the
// audit viewer (shown while the host's referee is held at its 8th
// message) and ends on the result, with the hidden values revealed;
// the record it kept is the players' transcript, line for line.
func TestWatchScreenFollowsAMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var ui *tuitest.UI
	var live string // the screen while the match waited (the host's referee held at its 8th message)
	_, paths := watchtest.PlayTwo(t, ctx, "ubuild", true, func(n int, p *session.Pair) {
		switch n {
		case 0:
			ui = tuitest.Start(t, tui.Config{Start: tui.StartWatch, Code: p.Hosts[0].InviteCode(), Name: "eve"}, 80, 24, opts)
		case 8:
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if s := ui.Text(); strings.Contains(s, "Watching · live") && strings.Contains(s, "every one checked") {
					live = s
					return
				}
			}
		}
	})
	if live == "" || !strings.Contains(live, "every one checked") {
		t.Fatalf("the match in progress was not shown live:\n%s", live)
	}
	ui.WaitFor("Watched", "clean", "won")
	files, err := filepath.Glob(filepath.Join(ui.Dir, tui.MatchesDir, tui.WatchedDir, "*.jsonl"))
	if err != nil || len(files) != 1 {
		t.Fatalf("watched records: %v %v", files, err)
	}
	got, _ := os.ReadFile(files[0])
	want, _ := os.ReadFile(paths[0])
	if !bytes.Equal(got, want) {
		t.Fatalf("the spectator's record (%d bytes) is not the host's transcript (%d bytes)", len(got), len(want))
	}
}

// A watch of a match its host did not open to spectators says so.
func TestWatchScreenRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var ui *tuitest.UI
	watchtest.PlayTwo(t, ctx, "ubuild", false, func(n int, p *session.Pair) {
		if n == 0 {
			ui = tuitest.Start(t, tui.Config{Start: tui.StartWatch, Code: p.Hosts[0].InviteCode(), Name: "eve"}, 80, 24, opts)
		}
	})
	ui.WaitFor("Watched", "does not allow watching")
}
