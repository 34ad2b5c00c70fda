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

var (
	// colour is a plane named by its squadron's colour, not its player.
	colour = regexp.MustCompile(`\b(Blue|Fire|Eagle|Tiger) F-`)
	// shot is a shot on the feed with its result and dice on its line.
	shot = regexp.MustCompile(`'s F-\d\d fires [^→]{0,80} → (hit|miss) \(red dice \[[\d ]+\] = \d+, \d+ needed\)`)
)

// feedUntil plays our side until the event feed has shown every pattern
// of want.
func feedUntil(hs *tuitest.UI, limit int, want ...*regexp.Regexp) {
	p := &player{hs: hs, seen: map[string]int{}}
	step := func() bool {
		l := hs.WaitLines("a decision or the end", 60*time.Second, func(l []string) bool {
			return boardtest.Ended(strings.Join(l, "\n")) || p.asked(l)
		})
		if boardtest.Ended(strings.Join(l, "\n")) {
			return true
		}
		p.act(l)
		hs.TookAnswer(strings.Join(l, "\n"), 3*time.Second)
		return false
	}
	hs.FeedUntil(tuitest.FeedCheck{Step: step, Limit: limit, Want: want, Never: []*regexp.Regexp{colour}})
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
			feedUntil(hs, 300, regexp.MustCompile(`bot \(strong\)'s F-\d\d flies from`), shot)
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
	feedUntil(hs, 200, regexp.MustCompile(`bot-1 \(random\)'s F-\d\d flies from`), regexp.MustCompile(`bot-2 \(random\)'s F-\d\d flies from`))
}
