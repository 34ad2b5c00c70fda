package oceansview_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// TestEventFeedTellsTheBotsPlays plays against the strong bot at 80x24
// and 120x40 until the event feed has told the bot's plays and ours in
// the players' names.
func TestEventFeedTellsTheBotsPlays(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			u := tuitest.Start(t, tui.Config{Game: gameName, Bot: "strong", BotSeed: 2, Name: "ann", Start: tui.StartPractice}, size[0], size[1], opts)
			p := &player{u: u}
			step := func() bool { _, ended := p.decide(); return ended }
			u.FeedUntil(tuitest.FeedCheck{Step: step, Limit: 200, Want: []*regexp.Regexp{
				regexp.MustCompile(`bot \(strong\) (deploys|plays a card facedown|attacks|discards) `),
				regexp.MustCompile(`\bann (deploys|plays a card facedown|attacks|discards) `),
			}, Never: []*regexp.Regexp{regexp.MustCompile(`deck/\d`)}})
		})
	}
}
