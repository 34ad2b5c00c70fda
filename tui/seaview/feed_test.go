package seaview_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/tuitest"
)

var (
	// botMove is the feed telling a move of the bot's pieces.
	botMove = regexp.MustCompile(`bot \(strong\)'s (fighter|destroyer) \d+ (flew|moved|fires|launched)`)
	// botTurn is the whole feed telling the bot's turn: its start, then
	// what its pieces did.
	botTurn = regexp.MustCompile(`(?s)turn \d+: bot \(strong\).*bot \(strong\)'s (fighter|destroyer) \d+ (flew|moved|fires|launched)`)
)

// TestEventFeedTellsTheBotsTurn plays against the strong bot at 80x24
// and 120x40 until the event feed beside the board tells a whole turn of
// the bot's in the players' names, with no check of the referee's in it.
func TestEventFeedTellsTheBotsTurn(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 2, Start: tui.StartPractice}, size[0], size[1], opts)
			p := &player{hs: hs, seen: map[string]int{}}
			for {
				l := p.next()
				feed := tuitest.Feed(l)
				for _, bad := range []string{"seat ", "root ", "preimage", "✓"} {
					if strings.Contains(feed, bad) {
						t.Fatalf("the feed has %q: %s", bad, feed)
					}
				}
				if botMove.MatchString(feed) || boardtest.Ended(strings.Join(l, "\n")) {
					// v shows the whole feed: the bot's turn from its start.
					if botTurn.MatchString(hs.FeedWindow()) {
						return
					}
				}
				if boardtest.Ended(strings.Join(l, "\n")) || p.decisions > 80 {
					t.Fatalf("the feed never told a turn of the bot's: %s\n%s", feed, hs.Dump())
				}
				p.seen[p.act(l)]++
				p.decisions++
				p.sync()
			}
		})
	}
}
