package board

import (
	"regexp"

	"github.com/salvo-game/salvo/engine"
)

// Narrator is implemented by views that tell a match's game events in the
// players' words, for the match screen's event feed. The engines' event
// texts speak of seats and of pieces by internal names; the board knows
// how the players see them (names, "your F-22", the squadron colours), so
// the words are the board's, as the moves' words are ([Describer]).
type Narrator interface {
	// Narrate returns the feed line for one game event, or "" when the
	// event is not worth a line to a player (bookkeeping such as a
	// shuffle). s is the snapshot after the message that carried it.
	Narrate(e engine.Event, s Snapshot) string
}

// Narrate tells e with n, or, for a board without a narrator, as the
// engine wrote it with the players' names for the seats it names.
func Narrate(n Narrator, e engine.Event, s Snapshot) string {
	if n == nil {
		return e.Say(s.Name)
	}
	return n.Narrate(e, s)
}

// refereeText matches the texts of the referee's own events (commitments
// checked, openings checked, dice shares revealed, deck keys, shuffles and
// unmaskings proved), which share some kinds ("commit", "roll", "reveal",
// "shuffle", "choose") with game events but tell how a move was verified,
// not what happened in the game. The verification pane shows them.
var refereeText = regexp.MustCompile(`^seat \d+ committed .* \(\d+ leaves\) root |` +
	`^roll \d+ \(.*\) = \[|committed its choice |opened its choice |` +
	`shuffle proof ✓$|published its key share |unmasked \d+ card|` +
	`revealed its preimage for roll |committed dice chain |` +
	`opened \d+ committed value`)

// refereeKinds are the kinds only the referee emits.
var refereeKinds = map[string]bool{"hello": true, "opened": true, "share": true, "deckkey": true, "unmask": true,
	"removed": true} // how a departure was sequenced; the game's own "left" event tells it

// RefereeEvent reports whether e is the referee's account of a check rather
// than a game event: the event feed leaves those to the verification pane.
func RefereeEvent(e engine.Event) bool {
	return refereeKinds[e.Kind] || refereeText.MatchString(e.Text)
}
