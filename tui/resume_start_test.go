package tui

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/style"
)

// TestResumedMatchOpensWhereItStands stops the host's program mid-match
// and takes the match up again in a new one, from the lobby's resume row
// and as `salvo resume` does (StartResume, no key pressed): the match
// screen opens on the real sequence ("seq N" in the title, not "seq 0"),
// its verification pane lists every message the transcript held (not
// "nothing yet"), and the player, not a bot, is asked for the next move.
func TestResumedMatchOpensWhereItStands(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"lobby", "salvo resume"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			dir, key := t.TempDir(), newTestKey(t)
			host, guest := netPair(t, "ubuild", Config{Offline: true, DataDir: dir, Key: key}, Config{Offline: true})
			hd, gd := drive(host, 3), drive(guest, 4)
			waitSeq(t, host, 10)
			hd.halt()
			gd.halt()
			id := ""
			host.onUI(func() { id = matchOf(host.app).st.header().Match })
			host.stop()
			sv, err := session.Store{Dir: filepath.Join(dir, MatchesDir)}.Load(id)
			if err != nil || !sv.InProgress() || sv.Seq < 10 {
				t.Fatalf("the store after the stop: %+v, %v", sv, err)
			}
			cfg := Config{Name: "ann", DataDir: dir, Key: key, Timeout: 20 * time.Second}
			if how == "salvo resume" {
				cfg.Start, cfg.Resume = StartResume, id
			}
			again := start(t, cfg, 100, 30)
			if how == "lobby" {
				again.WaitFor(style.Play + " resume")
				again.Keys(tcell.KeyTab, tcell.KeyTab)
				again.WaitFor("enter resume")
				again.Keys(tcell.KeyEnter)
			}
			again.WaitFor("vs bob", fmt.Sprintf("seq %d", sv.Seq))
			var logged map[uint64]bool
			again.onUI(func() {
				logged = map[uint64]bool{}
				for _, e := range matchOf(again.app).vlog.entries {
					logged[e.seq] = true
				}
			})
			for n := uint64(1); n <= sv.Seq; n++ {
				if !logged[n] {
					t.Fatalf("the verification pane lacks message %d of %d\n%s", n, sv.Seq, again.Dump())
				}
			}
			drive(guest, 5)
			waitAsked(t, again) // the player's turn comes to the player
		})
	}
}
