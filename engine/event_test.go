package engine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// An event keeps the seats its text names apart from the words, so an
// interface names them without searching the text: a player called
// "seat 2", or a piece numbered like a seat, is never taken for one.
func TestEventfKeepsSeatsApart(t *testing.T) {
	name := func(s engine.Seat) string { return []string{"seat 2", "bob"}[s] }
	for _, c := range []struct {
		e          engine.Event
		text, said string
	}{
		{engine.Eventf(1, "hit", "%s's %s hits %s's Cruiser", engine.Seat(1), "fighter 0", engine.Seat(0)),
			"seat 1's fighter 0 hits seat 0's Cruiser", "bob's fighter 0 hits seat 2's Cruiser"},
		{engine.Eventf(0, "roll", "%v rolled %d, seat %d waits", engine.Seat(0), 6, engine.Seat(1)),
			"seat 0 rolled 6, seat 1 waits", "seat 2 rolled 6, seat 1 waits"},
		{engine.Eventf(engine.NoSeat, "deal", "no seat named"), "no seat named", "no seat named"},
		{engine.Eventf(0, "odd", "%s says %s", engine.Seat(0), "a\x00b"), "seat 0 says a\x00b", "seat 0 says a\x00b"},
		{engine.Event{Kind: "plain", Text: "seat 1 typed by hand"}, "seat 1 typed by hand", "seat 1 typed by hand"},
	} {
		if c.e.Text != c.text || c.e.Say(name) != c.said {
			t.Errorf("Text %q, Say %q; want %q, %q", c.e.Text, c.e.Say(name), c.text, c.said)
		}
	}
	if want := fmt.Sprintf("%s wins", engine.Seat(1)); engine.Eventf(1, "win", "%s wins", engine.Seat(1)).Say(engine.Seat.String) != want {
		t.Error("Say with Seat.String is not the text")
	}
}

// Words keep their seats apart through everything that builds on them:
// nested words, errors wrapped by Errorf or by fmt.Errorf, outcomes,
// prompts and refusals; String is always the text as fmt would write it
// with each seat as "seat N", the bytes hashes and transcripts hold.
func TestWordsKeepSeatsApart(t *testing.T) {
	name := func(s engine.Seat) string { return []string{"seat 1", "bob"}[s] }
	s0, s1 := engine.Seat(0), engine.Seat(1)
	ill := engine.Illegal("input from %s, the match needs %s", s1, s0)
	for _, c := range []struct {
		w          engine.Words
		text, said string
	}{
		{engine.Wordsf("%s's deck ran out", s0), "seat 0's deck ran out", "seat 1's deck ran out"},
		{engine.Wordsf("match over: %s", engine.Wordsf("%s resigned", s1)), "match over: seat 1 resigned", "match over: bob resigned"},
		{engine.Wordsf("%v says %s", s0, "seat 1"), "seat 0 says seat 1", "seat 1 says seat 1"},
		{engine.Wordsf("%s says %s", s0, "a\x00\x02"), "seat 0 says a\x00\x02", "seat 0 says a\x00\x02"},
		{engine.WordsOf(ill), "illegal input: input from seat 1, the match needs seat 0", "illegal input: input from bob, the match needs seat 1"},
		{engine.WordsOf(fmt.Errorf("reply: %w", ill)), "reply: illegal input: input from seat 1, the match needs seat 0", "reply: illegal input: input from bob, the match needs seat 1"},
		{engine.WordsOf(engine.Errorf("input %d: %w", 2, ill)), "input 2: illegal input: input from seat 1, the match needs seat 0", "input 2: illegal input: input from bob, the match needs seat 1"},
		{engine.WordsOf(&engine.Fault{Seat: s1, Err: ill}), "seat 1: illegal input: input from seat 1, the match needs seat 0", "bob: illegal input: input from bob, the match needs seat 1"},
		{engine.WordsOf(errors.New("seat 1 typed by hand")), "seat 1 typed by hand", "seat 1 typed by hand"},
		{engine.Outcome{}.WithReason(engine.Wordsf("%s wins", s1)).Why(), "seat 1 wins", "bob wins"},
		{engine.Need{}.WithPrompt(engine.Wordsf("%s fires", s0)).Asks(), "seat 0 fires", "seat 1 fires"},
		{engine.Wordsf("slot %s opened twice", engine.Slot{Owner: s1, Name: "grid", Index: 3}), "slot seat 1/grid[3] opened twice", "slot bob/grid[3] opened twice"},
		{engine.Wordsf("%s plays a Ace", s1).Edit(func(t string) string { return strings.ReplaceAll(t, "a A", "an A") }), "seat 1 plays an Ace", "bob plays an Ace"},
	} {
		if c.w.String() != c.text || c.w.Say(name) != c.said {
			t.Errorf("String %q, Say %q; want %q, %q", c.w.String(), c.w.Say(name), c.text, c.said)
		}
	}
	if err := engine.Errorf("input %d: %w", 2, ill); !errors.Is(err, engine.ErrIllegal) || err.Error() != fmt.Errorf("input %d: %w", 2, ill).Error() {
		t.Errorf("Errorf is not fmt.Errorf: %v", err)
	}
	// A reason changed by hand after it was set is said as it now reads.
	o := engine.Outcome{}.WithReason(engine.Wordsf("%s wins", s1))
	o.Reason = "seat 1 typed by hand"
	if got := o.Why().Say(name); got != o.Reason {
		t.Errorf("a stale reason is said %q", got)
	}
	parts := engine.Wordsf("%s hits %s", s0, s1).Parts()
	if len(parts) != 3 || !parts[0].IsSeat || parts[0].Seat != 0 || parts[1].Text != " hits " || parts[2].Seat != 1 {
		t.Errorf("Parts = %+v", parts)
	}
}
