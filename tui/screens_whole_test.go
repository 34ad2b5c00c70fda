package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/board"
)

// refusedView is a board whose last decision was refused: its prompt is
// the refusal, then what it asks (as board.Prompt joins them).
type refusedView struct {
	board.View
	refusal string
}

func (v refusedView) Prompt() string { return board.Prompt(v.refusal, v.View.Prompt()) }

// RowsNeeded is the board's own (the match screen asks it).
func (v refusedView) RowsNeeded() int {
	if r, ok := v.View.(rowsNeeder); ok {
		return r.RowsNeeded()
	}
	return 0
}

// longName is a display name of the longest length a peer may have.
func longName(tag string) string {
	n := "Bartholomew-Unsinkable-" + tag
	for len([]rune(n)) < p2p.MaxNameRunes {
		n += "x"
	}
	return n[:p2p.MaxNameRunes]
}

// Every game's play and end screens read whole at 80x24 and 120x40 in the
// states that made lines long: names of the longest length, a refusal
// before the prompt, a long feed line, the link down ("reconnecting · 23 s,
// gives up in 1:37"; at a table "X gone 23 s, gives up in 1:37"), waiting
// for another player, and the end line with a long transcript path.
func TestEveryGameReadsWholeInPlayAndAtTheEnd(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		game, variant string
		players       int
		refusal       string
		reason        string
	}{
		{"ubuild", "", 2, "refused: that square was already fired at in an earlier volley", "sank the whole fleet"},
		{"cards", "", 2, "refused: a peg card goes only on a ship that was hit by a card of its own colour", "sank the whole enemy fleet"},
		{"oceans", "", 2, "refused: a submarine may attack only in an ocean where it was deployed face down", "controls more oceans (5-3) when the deck ran out"},
		{"sea", "", 2, "refused: the Harpoon cannot be launched from the carrier's launch space", "both fleets were destroyed: the undamaged carrier wins"},
		{"air", "", 2, "refused: the plane may not leave the board through its own base edge", "shot down both opposing planes"},
		{"air", "ffa", 3, "refused: the plane may not leave the board through its own base edge", "last squadron flying"},
		{"air", "team", 4, "refused: a wingman must end its move on one of the marked spaces", "first team to eliminate one enemy squadron"},
	} {
		what := fmt.Sprintf("%s %s (%d players)", c.game, c.variant, c.players)
		t.Run(what, func(t *testing.T) {
			if c.players > 2 && raceEnabled {
				t.Skip("a table's shuffle under the race detector takes minutes; the screen's code is the two-player one")
			}
			t.Parallel()
			// A data folder whose path is long, as a home folder can be.
			dir := filepath.Join(t.TempDir(), "a-data-directory-with-a-rather-long-name", "and-another-level-below-it")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			cfg := Config{Offline: true, Name: longName("me"), Game: c.game, Variant: c.variant, Players: c.players, Bot: "random",
				Start: StartPractice, DataDir: dir, GiveUp: 2 * time.Minute}
			var hs *harness
			if c.game == "ubuild" {
				cfg.Start = StartLobby
				hs = firstTurn(t, cfg, 80, 24) // the fleets placed, aiming the first volley
			} else {
				hs = start(t, cfg, 80, 24)
			}
			asked := func(after uint64) func(string) bool {
				return func(string) bool {
					asking := false
					hs.onUI(func() {
						if ms, ok := hs.app.top().(*matchScreen); ok {
							asking = ms.asking() && ms.seq > after
						}
					})
					return asking
				}
			}
			hs.WaitFunc("the player's first decision", 60*time.Second, asked(0))
			if c.game != "ubuild" {
				// Into the match: enter takes what the board offers (the
				// commitments, the first placements) a few times.
				for range 4 {
					var seq uint64
					hs.onUI(func() { seq = hs.app.top().(*matchScreen).seq })
					hs.Keys(tcell.KeyEnter)
					if !hs.Settle(10*time.Second, func([]string) bool { return asked(seq)("") }) {
						break
					}
				}
			}
			var ms *matchScreen
			hs.onUI(func() {
				ms = hs.app.top().(*matchScreen)
				for s := range ms.names {
					if engine.Seat(s) != ms.seat {
						ms.names[s] = longName(fmt.Sprint(s))
					}
				}
				var foes []string
				foes, ms.mates = sides(ms.names, ms.seat, ms.game)
				ms.opponent = opponentsText(foes, engine.NoSeat)
				other := engine.Seat(1 - int(ms.seat)%2)
				ms.feed.add("fire", fmt.Sprintf("%s fired a Sidewinder at %s's fighter two spaces ahead of the carrier: hit, the fighter is destroyed", ms.names[other], ms.names[ms.seat]))
				ms.view = refusedView{View: ms.view, refusal: c.refusal}
			})
			checkWhole(t, hs, what+" in play, a move refused")
			boardKeepsToItsCells(t, hs, what)

			hs.onUI(func() {
				if len(ms.names) > 2 {
					ms.links.away = map[engine.Seat]time.Time{1: time.Now().Add(-23 * time.Second)}
				} else {
					ms.st.net, ms.kind, ms.lostAt = &netConf{}, session.KindReconnecting, time.Now().Add(-23*time.Second)
				}
			})
			checkWhole(t, hs, what+" with the link down")
			for _, size := range [][2]int{{80, 24}, {120, 40}} {
				hs.resize(size[0], size[1])
				if title := hs.line(0); !regexp.MustCompile(`(reconnecting · |gone )2\d s, gives up in 1:3\d`).MatchString(title) {
					t.Errorf("%s at %dx%d: the title does not say the link is down and when the match gives up: %q", what, size[0], size[1], title)
				}
			}

			hs.onUI(func() {
				ms.st.net, ms.kind, ms.links.away = nil, "loopback", nil
				ms.view.Withdraw(ms.req)
				ms.req, ms.waiting, ms.since = nil, true, time.Now().Add(-4*time.Second)
				ms.waitSeat = engine.Seat(1 - int(ms.seat)%2)
				ms.waitNeed = engine.Need{Kind: engine.NeedCommit, Seat: ms.waitSeat, Prompt: "commit your fighters' strengths and the order of your destroyers"}
			})
			checkWhole(t, hs, what+" waiting for another player")

			hs.onUI(func() {
				ms.finish(&fairness.Result{Outcome: engine.Outcome{Done: true, Winners: []engine.Seat{ms.waitSeat}, Reason: c.reason}}, nil)
			})
			hs.WaitFor("you lost")
			checkWhole(t, hs, what+" at its end")
		})
	}
}

// boardKeepsToItsCells checks at 80x24 that the board draws nothing over
// the line between it and the side pane, nor in the gap after it (a long name in U-Build's target
// title ran into the events pane).
func boardKeepsToItsCells(t *testing.T, hs *harness, what string) {
	t.Helper()
	hs.resize(80, 24)
	lines := hs.Lines()
	col := 80 - LogWidth - 1
	for y := 1; y < len(lines)-StatusRows-1; y++ {
		if r := []rune(lines[y]); col+1 >= len(r) || r[col] != '│' || r[col+1] != ' ' {
			t.Errorf("%s: row %d crosses the board's edge: %q", what, y, lines[y])
		}
	}
}
