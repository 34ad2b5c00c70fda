package oceansview_test

import (
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
	tuitest.FeedAtSizes(t, tui.Config{Game: gameName, Bot: "strong", BotSeed: 2, Name: "ann", Start: tui.StartPractice}, opts,
		func(u *tuitest.UI) func() bool {
			p := &player{u: u}
			return func() bool { _, ended := p.decide(); return ended }
		},
		tuitest.FeedCheck{Limit: 200, Want: []*regexp.Regexp{
			regexp.MustCompile(`bot \(strong\) (deploys|plays a card facedown|attacks|discards) `),
			regexp.MustCompile(`\bann (deploys|plays a card facedown|attacks|discards) `),
		}, Never: []*regexp.Regexp{regexp.MustCompile(`deck/\d`)}})
}
