package tui

import (
	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
)

// sayError tells an error with the players' names for the seats it keeps
// apart ([engine.Worded]).
func (ms *matchScreen) sayError(err error) string {
	return board.Snapshot{Names: ms.names}.SayError(err)
}

// stopWords is the detail of the closing record that stopped the match:
// the words of our own violation's error when it is that error's text,
// else the record's text as signed (a peer's words name no seat for us).
func stopWords(res *fairness.Result) engine.Words {
	if v := res.Violation; v != nil && v.Err != nil && v.Err.Error() == res.Closing.Detail {
		return engine.WordsOf(v.Err)
	}
	return engine.Plain(res.Closing.Detail)
}
