package board

import (
	"errors"

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

// Say returns words (an error's, a reason, a prompt, a referee's note)
// with each seat they name written by [Snapshot.Name]. The words keep
// their seats apart ([engine.Words]): nothing here searches text for
// "seat N", so a player named "seat 2" is shown as it is named.
func (s Snapshot) Say(w engine.Words) string { return w.Say(s.Name) }

// SayError is [Snapshot.Say] for an error: its text with the seats it
// keeps apart ([engine.Worded]) named by their players.
func (s Snapshot) SayError(err error) string { return engine.Say(err, s.Name) }

// Refusal puts a refused decision's error in one line for the prompt:
// "refused: " and the rule, the reason of the engine's [*engine.IllegalError]
// (the layers of context around it dropped), or the whole error when it is
// no rule of the game's, or "not allowed" when the reason is empty. The
// seats it names are named by their players.
func (s Snapshot) Refusal(err error) string {
	if err == nil {
		return ""
	}
	text := s.SayError(err)
	if ill, ok := errors.AsType[*engine.IllegalError](err); ok {
		text = s.Say(ill.Why())
	}
	if text == "" {
		text = "not allowed"
	}
	return "refused: " + text
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
// is put in words (s's, [Snapshot.Refusal]) into *msg, where the view
// shows it and the player can try again; a decision taken clears *msg.
func Send(r *Request, d engine.Decision, s Snapshot, msg *string) bool {
	if r == nil {
		return false
	}
	if err := r.Reply(d); err != nil {
		*msg = s.Refusal(err)
		return false
	}
	*msg = ""
	return true
}
