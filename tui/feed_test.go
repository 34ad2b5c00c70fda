package tui

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

func feedTexts(f *eventFeed) []string {
	var out []string
	for _, e := range f.entries {
		out = append(out, e.text)
	}
	return out
}

// TestFeedJoinsEachShotToItsResult follows notes as the referee gives
// them: the referee's checks stay out, a shot's result (in a later
// message) joins the shot's line, names stand for seats, a name from the
// network is escaped, and the match's end is said once.
func TestFeedJoinsEachShotToItsResult(t *testing.T) {
	s := board.Snapshot{Names: []string{"ann", "eve\u202e"}}
	f := newEventFeed(style.New(false), nil)
	ev := func(kind, text string) engine.Event { return enginetest.Event(engine.NoSeat, kind, text) }
	for _, n := range []fairness.Note{
		{Dir: fairness.DirIn, Events: []engine.Event{
			ev("opened", "seat 1 opened 1 committed value(s), every path checks against its root"),
			ev("fire", "seat 1 (Carrier) fires at C-4, D-5"),
		}},
		{Dir: fairness.DirOut},
		{Dir: fairness.DirLocal, Events: []engine.Event{ev("miss", "C-4: miss"), ev("hit", "D-5: hit, seat 0's Cruiser")}},
		{Dir: fairness.DirIn, Events: []engine.Event{ev("draw", "seat 1 draws 1 card(s)"), ev("miss", "a stray result")}},
		{Dir: fairness.DirIn, Events: []engine.Event{ev("fleet sunk", "seat 1 sank the whole fleet of seat 0")}},
		fairness.Note{Dir: fairness.DirStop, OK: true}.WithText(engine.Wordsf("%s sank the whole fleet of %s", engine.Seat(1), engine.Seat(0))),
	} {
		f.note(n, s)
	}
	want := []string{
		`eve\u{202e} (Carrier) fires at C-4, D-5 → C-4: miss; D-5: hit, ann's Cruiser`,
		`eve\u{202e} draws 1 card`,
		`a stray result`,
		`eve\u{202e} sank the whole fleet of ann`,
	}
	if got := feedTexts(f); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("feed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !f.entries[0].hit {
		t.Error("a volley with a hit is not drawn as a hit")
	}
}

// TestFeedKeepsTheNewest bounds the feed.
func TestFeedKeepsTheNewest(t *testing.T) {
	f := newEventFeed(style.New(false), nil)
	for i := range FeedKeep + 10 {
		f.add("turn", strings.Repeat("x", i%3+1))
	}
	if len(f.entries) != FeedKeep {
		t.Fatalf("%d entries kept, want %d", len(f.entries), FeedKeep)
	}
}
