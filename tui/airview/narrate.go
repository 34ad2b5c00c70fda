package airview

import (
	"regexp"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board"
)

// squadronWord matches a squadron's colour in the engine's texts, with the
// plane or the word "squadron" after it: "the Fire F-22", "Blue squadron",
// "Tiger" (in "Tiger draws 2 cards").
var squadronWord = regexp.MustCompile(`(?:\bthe )?\b(Blue|Fire|Eagle|Tiger)\b( F-35| F-22| squadron)?`)

// diceResult matches the engine's text of a fire roll: its dice, their sum
// and the range it had to reach.
var (
	hitText  = regexp.MustCompile(`^red dice (\[[\d ]*\]): (\d+) reaches (\d+) spaces: a hit on .*$`)
	missText = regexp.MustCompile(`^red dice (\[[\d ]*\]): (\d+) falls short of (\d+) spaces: a miss$`)
)

// weaponWords gives the engine's weapon names their articles.
var weaponWords = strings.NewReplacer(" fires missile at ", " fires a missile at ", " fires cannon at ", " fires its cannon at ")

// oneDie is the engine's "1 dice" of a maneuver.
var oneDie = regexp.MustCompile(`\b1 dice\b`)

// Narrate tells an Air event with the players' names in place of the
// squadron colours ("Carol's F-22 fires AIM-9 at Bob's F-35"). A fire
// roll becomes the shot's result ("hit (red dice [3 4] = 7, 5 needed)"):
// the feed puts it on the line of the shot, which says who fired at whom.
func (v *View) Narrate(e engine.Event, s board.Snapshot) string { return Narrate(e, s) }

// Narrate is [View.Narrate] without a view, for tests and the audit.
func Narrate(e engine.Event, s board.Snapshot) string {
	switch e.Kind {
	case "hit":
		if m := hitText.FindStringSubmatch(e.Text); m != nil {
			return "hit (red dice " + m[1] + " = " + m[2] + ", " + m[3] + " needed)"
		}
	case "miss":
		if m := missText.FindStringSubmatch(e.Text); m != nil {
			return "miss (red dice " + m[1] + " = " + m[2] + ", " + m[3] + " needed)"
		}
	case "shuffle":
		return "" // the first shuffle of the deck, before anyone plays
	case "fire":
		return s.Say(e.Words().Edit(func(t string) string { return squadrons(weaponWords.Replace(t), s) }))
	case "left":
		// "Dave left: their planes leave the board; play goes on"
		return s.Say(e.Words().Edit(func(t string) string {
			return strings.Replace(squadrons(t, s), ": its planes", ": their planes", 1)
		}))
	}
	return s.Say(e.Words().Edit(func(t string) string { return squadrons(oneDie.ReplaceAllString(t, "1 die"), s) }))
}

// squadrons puts each squadron's player in place of its colour.
func squadrons(text string, s board.Snapshot) string {
	return squadronWord.ReplaceAllStringFunc(text, func(w string) string {
		m := squadronWord.FindStringSubmatch(w)
		seat := engine.NoSeat
		for i, c := range air.Squadron {
			if c == m[1] {
				seat = engine.Seat(i)
			}
		}
		if seat == engine.NoSeat || int(seat) >= len(s.Names) {
			return w // a colour no player flies: kept as the engine said it
		}
		who := s.Name(seat)
		if m[2] == "" {
			return who
		}
		return who + "'s" + m[2]
	})
}
