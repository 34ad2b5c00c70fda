package airview_test

import (
	"testing"

	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/tuitest"
)

// TestTeamTitleNamesTheTeammateApart seats a team table of four: the title
// lists the two opponents after "vs" and the teammate after "with" (it
// listed all three as opponents).
func TestTeamTitleNamesTheTeammateApart(t *testing.T) {
	t.Parallel()
	hs := tuitest.Start(t, tui.Config{Name: "ann", Bot: "random", BotSeed: 3}, 120, 40, opts)
	hs.Keys("n", "n")
	hs.WaitFor("players 4")
	hs.Keys("v")
	hs.WaitFor("variant ffa")
	hs.Keys("v")
	hs.WaitFor("variant team")
	hs.Keys("p")
	hs.WaitFor("vs bot-1 (random), bot-2 (random) · with bot-3 (random) · ")
}
