package tui_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// TestEventFeedTellsTheBotsVolleys plays U-Build against the bot at 80x24
// and 120x40, one shot a turn along the rows, until the event feed has
// told a volley of the bot's with its answers on its line, and one of
// ours.
func TestEventFeedTellsTheBotsVolleys(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			u := tuitest.Start(t, tui.Config{Offline: true, Name: "ann", Bot: "random", BotSeed: 3, Start: tui.StartPractice}, size[0], size[1], opts)
			turns := 0
			step := func() bool {
				txt := u.WaitFunc("a decision or the end", 30*time.Second, func(s string) bool {
					return boardtest.Ended(s) || strings.Contains(s, "Place the Battleship") || strings.Contains(boardtest.KeyBar(s), "fire (")
				})
				switch {
				case boardtest.Ended(txt):
					return true
				case strings.Contains(txt, "Place the Battleship"):
					u.Keys("x", tcell.KeyEnter)
				default:
					// The cursor's next cell; enter fires at it.
					turns++
					if turns%10 == 0 {
						u.Keys(tcell.KeyDown)
					} else {
						u.Keys(tcell.KeyRight)
					}
					u.Keys(tcell.KeyEnter)
				}
				u.TookAnswer(txt, 3*time.Second)
				return false
			}
			volley := `fires at ([A-J]-?\d+(, )?)+ → [A-J]-?\d+: (miss|hit|sunk)`
			u.FeedUntil(tuitest.FeedCheck{Step: step, Limit: 60, Want: []*regexp.Regexp{
				regexp.MustCompile(`bot \(random\)( \(\w+\))? ` + volley),
				regexp.MustCompile(`\bann( \(\w+\))? ` + volley),
			}})
		})
	}
}
