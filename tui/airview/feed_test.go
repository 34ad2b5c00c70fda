package airview_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// referee are words of the verification pane that the event feed leaves
// to it; colour is a plane named by its squadron's colour, not its player.
var (
	referee = []string{"seat ", "root ", "preimage", "✓", "proof"}
	colour  = regexp.MustCompile(`\b(Blue|Fire|Eagle|Tiger) F-`)
	// shot is a shot on the feed with its result and dice on its line.
	shot = regexp.MustCompile(`'s F-\d\d fires [^→]{0,80} → (hit|miss) \(red dice \[[\d ]+\] = \d+, \d+ needed\)`)
)

// feedUntil plays our side until the feed window (v) shows every pattern
// of want, checking the feed beside the board at each decision.
func feedUntil(t *testing.T, hs *tuitest.UI, limit int, want ...*regexp.Regexp) {
	t.Helper()
	p := &player{hs: hs, seen: map[string]int{}}
	seen := ""
	for i := 0; ; i++ {
		l := hs.WaitLines("a decision or the end", 60*time.Second, func(l []string) bool {
			return boardtest.Ended(strings.Join(l, "\n")) || p.asked(l)
		})
		feed := tuitest.Feed(l)
		for _, bad := range referee {
			if strings.Contains(feed, bad) {
				t.Fatalf("the feed has %q: %s", bad, feed)
			}
		}
		if colour.MatchString(feed) {
			t.Fatalf("the feed names a plane by its colour: %s", feed)
		}
		ended := boardtest.Ended(strings.Join(l, "\n"))
		// The window opens at the newest lines, and a round's lines soon
		// scroll out of it: it is read at every decision, and what it
		// showed before counts too (its frame and wrapping left out).
		seen += " " + strings.Join(strings.Fields(strings.ReplaceAll(hs.FeedWindow(), "│", " ")), " ")
		all := true
		for _, w := range want {
			all = all && w.MatchString(seen)
		}
		if all {
			return
		}
		if ended || i > limit {
			t.Fatalf("the feed window never showed %v\n%s", want, hs.Dump())
		}
		p.act(l)
		hs.TookAnswer(strings.Join(l, "\n"), 3*time.Second)
	}
}

// TestEventFeedTellsTheBotsMovesAndShots plays against the strong bot at
// 80x24 and 120x40 until the event feed has told the bot's flights and a
// shot with who fired, at whom, and its dice.
func TestEventFeedTellsTheBotsMovesAndShots(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 4}, size[0], size[1], opts)
			hs.WaitFor("Practice against a bot")
			hs.Keys("p")
			hs.WaitFor("vs bot (strong)")
			feedUntil(t, hs, 300, regexp.MustCompile(`bot \(strong\)'s F-\d\d flies from`), shot)
		})
	}
}

// TestEventFeedAtATableOfThree names both bots' planes by their players.
func TestEventFeedAtATableOfThree(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "random", BotSeed: 5}, 120, 40, opts)
	hs.WaitFor("players 2")
	hs.Keys("n")
	hs.WaitFor("players 3")
	hs.Keys("p")
	hs.WaitFor("vs bot-1 (random), bot-2 (random)")
	feedUntil(t, hs, 200, regexp.MustCompile(`bot-1 \(random\)'s F-\d\d flies from`), regexp.MustCompile(`bot-2 \(random\)'s F-\d\d flies from`))
}
