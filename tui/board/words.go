package board

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// Prompt joins the view's one-off message and the prompt of what it
// expects now, either of which may be empty.
func Prompt(msg, prompt string) string {
	switch {
	case msg == "":
		return prompt
	case prompt == "":
		return msg
	}
	return msg + " — " + prompt
}

// Who names seat in a sentence: "you" when it is local (the seat the view
// plays) in a live match, else the player's display name.
func (s Snapshot) Who(seat, local engine.Seat) string {
	if !s.Spectator && seat == local {
		return "you"
	}
	return s.Name(seat)
}

// seatWord matches "seat N" in free texts: errors, reasons, prompts and
// the referee's notes. An engine's events keep their seats apart
// ([engine.Eventf]), and a board names those with [engine.Event.Say] and
// [Snapshot.Name]; a seat the interface holds as a value it names with
// Name, never by writing it out for Say to find.
var seatWord = regexp.MustCompile(`\bseat (\d+)\b`)

// Say puts the players' names (as [Snapshot.Name] gives them) in place of
// each "seat N" in text; a seat without a name stays "seat N".
func (s Snapshot) Say(text string) string {
	return seatWord.ReplaceAllStringFunc(text, func(w string) string {
		n, err := strconv.Atoi(strings.TrimPrefix(w, "seat "))
		if err != nil {
			return w
		}
		return s.Name(engine.Seat(n))
	})
}

// Refusal puts a refused decision's error in one line for the prompt:
// "refused: " and the rule, the reason of the engine's [*engine.IllegalError]
// (the layers of context around it dropped), or the whole error when it is
// no rule of the game's, or "not allowed" when the reason is empty.
func Refusal(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if ill, ok := errors.AsType[*engine.IllegalError](err); ok {
		s = ill.Reason
	}
	if s == "" {
		s = "not allowed"
	}
	return "refused: " + s
}

// Possessive turns "you" (as [Snapshot.Who] says it) into "your" and a
// name into "name's".
func Possessive(who string) string {
	if who == "you" {
		return "your"
	}
	return who + "'s"
}

// Verb picks the form of a verb that agrees with who: plural for "you"
// (as [Snapshot.Who] says it), else singular.
func Verb(who, plural, singular string) string {
	if who == "you" {
		return plural
	}
	return singular
}

// Send hands the decision d to r, the request being answered (nil when
// nothing is asked), and reports whether the referee took it: a refusal
// is put in words into *msg, where the view shows it and the player can
// try again; a decision taken clears *msg.
func Send(r *Request, d engine.Decision, msg *string) bool {
	if r == nil {
		return false
	}
	if err := r.Reply(d); err != nil {
		*msg = Refusal(err)
		return false
	}
	*msg = ""
	return true
}
