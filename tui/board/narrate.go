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

// refereeText matches the words of the referee's own events (commitments
// checked, openings checked, dice shares revealed, deck keys, shuffles and
// unmaskings proved), which share some kinds ("commit", "roll", "reveal",
// "shuffle", "choose") with game events but tell how a move was verified,
// not what happened in the game. The verification pane shows them. It
// reads the words without their seats (Unseated), never a seat's name.
var refereeText = regexp.MustCompile(`^ committed .* \(\d+ leaves\) root |` +
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
	return refereeKinds[e.Kind] || refereeText.MatchString(Unseated(e.Words()))
}

// Unseated returns w with the seats it names left out: the engine's own
// wording, for a view that reads it (what a referee's event checked, the
// card a play names), where no player's name can be taken for a word.
func Unseated(w engine.Words) string {
	return w.Say(func(engine.Seat) string { return "" })
}

// AfterSeat returns the words of w after the seat they begin with
// ("seat 1 plays …" gives 1 and " plays …"), the seats among them left
// out; false when w does not begin with a seat.
func AfterSeat(w engine.Words) (engine.Seat, string, bool) {
	parts := w.Parts()
	if len(parts) == 0 || !parts[0].IsSeat {
		return engine.NoSeat, "", false
	}
	return parts[0].Seat, Unseated(w), true
}
