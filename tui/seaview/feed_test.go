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
	// botTurn is the feed telling the bot's turn: its start, then what
	// its pieces did.
	botTurn = regexp.MustCompile(`turn \d+: bot \(strong\) .*bot \(strong\)'s (fighter|destroyer) \d+ (flew|moved|fires|launched)`)
	// shot is a destroyer's shot with whose piece it fires at and the
	// die of its result on its line.
	shot = regexp.MustCompile(`'s destroyer \d fires at (ann|bot \(strong\))'s \w+( \d+)?, \d+ spaces? away → (hit|missed) with a \d`)
)

// TestEventFeedTellsTheBotsTurn plays against the strong bot at 80x24
// and 120x40 until the event feed has told a whole turn of the bot's and
// a destroyer's shot in the players' names.
func TestEventFeedTellsTheBotsTurn(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "strong", BotSeed: 2, Start: tui.StartPractice}, size[0], size[1], opts)
			p := &player{hs: hs, seen: map[string]int{}}
			step := func() bool {
				l := p.next()
				if boardtest.Ended(strings.Join(l, "\n")) {
					return true
				}
				p.seen[p.act(l)]++
				p.decisions++
				p.sync()
				return false
			}
			hs.FeedUntil(tuitest.FeedCheck{Step: step, Limit: 80, Want: []*regexp.Regexp{botTurn, shot}})
		})
	}
}
