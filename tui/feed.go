package tui

import (
	"regexp"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// FeedKeep is how many lines the event feed keeps: a long match's oldest
// lines go (the verification log and the transcript keep everything).
const FeedKeep = 400

// FeedRecent is how far back the feed looks for a line the referee's end
// note would repeat.
const FeedRecent = 4

// FeedMinRows is the fewest rows the feed is drawn in: a shorter side
// column shows the verification pane alone (the v key still opens the
// feed).
const FeedMinRows = 4

// feedEntry is one line of the event feed.
type feedEntry struct {
	text string
	kind string // the first event's kind: its colour, and whether results join it
	hit  bool   // a result on the line is a hit
	// open is set on a shot whose result may still come: the dice or the
	// answer arrive in a later message, and join the shot's line.
	open bool
}

// eventFeed is the match screen's account of what every player and bot
// did and what came of it, one line per event in the players' words (the
// board's [board.Narrator]), with each shot's result on the shot's line.
// The verification pane beside it tells how each message was checked.
type eventFeed struct {
	th       *style.Theme
	narrator board.Narrator
	entries  []feedEntry
}

func newEventFeed(th *style.Theme, view board.View) *eventFeed {
	n, _ := view.(board.Narrator)
	return &eventFeed{th: th, narrator: n}
}

// shotKinds start a line that the next results join; resultKinds are those
// results (a gun's dice, a volley's answers).
var (
	shotKinds   = map[string]bool{"fire": true}
	resultKinds = map[string]bool{"hit": true, "miss": true, "sunk": true}
)

// note takes the game events of one referee note: a message accepted from
// another player or bot ("in"), our own inputs ("local"), the match's end.
// s is the snapshot after it, for the players' names.
func (f *eventFeed) note(n fairness.Note, s board.Snapshot) {
	switch n.Dir {
	case fairness.DirIn, fairness.DirLocal:
		for _, e := range n.Events {
			if board.RefereeEvent(e) {
				continue
			}
			if t := board.Narrate(f.narrator, e, s); t != "" {
				f.add(e.Kind, t)
			}
		}
	case fairness.DirStop:
		// The referee's "match over" line, unless the game's own end
		// event said it just before.
		if t := untrusted.Escape(s.Say(n.Words())); n.OK && !f.recent(t) {
			f.add("end", t)
		}
	}
}

// add puts one narrated event on the feed: a result joins the open shot
// before it, anything else starts a line.
func (f *eventFeed) add(kind, text string) {
	// Names and texts that came from the network: escaped before they are
	// measured, so that the wrapping counts what is drawn.
	text = plurals(untrusted.Escape(text))
	hit := kind == "hit" || kind == "sunk"
	if last := len(f.entries) - 1; last >= 0 && resultKinds[kind] && f.entries[last].open {
		e := &f.entries[last]
		sep := " → "
		if e.joined() {
			sep = "; "
		}
		e.text += sep + text
		e.hit = e.hit || hit
		e.kind = "fire+"
		return
	}
	if last := len(f.entries) - 1; last >= 0 {
		f.entries[last].open = false
	}
	f.entries = append(f.entries, feedEntry{text: text, kind: kind, hit: hit, open: shotKinds[kind]})
	if len(f.entries) > FeedKeep {
		f.entries = f.entries[len(f.entries)-FeedKeep:]
	}
}

// pluralWord matches the engines' "2 card(s)".
var pluralWord = regexp.MustCompile(`\b(\d+) (\pL+)\(s\)`)

// plurals writes "1 card" and "2 cards" for "1 card(s)", "2 card(s)".
func plurals(text string) string {
	return pluralWord.ReplaceAllStringFunc(text, func(w string) string {
		m := pluralWord.FindStringSubmatch(w)
		if m[1] == "1" {
			return m[1] + " " + m[2]
		}
		return m[1] + " " + m[2] + "s"
	})
}

// recent reports whether one of the last few lines reads text.
func (f *eventFeed) recent(text string) bool {
	for i := len(f.entries) - 1; i >= 0 && i >= len(f.entries)-FeedRecent; i-- {
		if f.entries[i].text == text {
			return true
		}
	}
	return false
}

// joined reports whether a result has joined the shot's line already.
func (e feedEntry) joined() bool { return e.kind == "fire+" }

// style is the colour of a line: hits stand out, turns and rounds head
// what follows them.
func (f *eventFeed) style(e feedEntry) tcell.Style {
	switch {
	case e.hit:
		return f.th.Hit
	case e.kind == "turn" || e.kind == "round" || e.kind == "end":
		return f.th.Accent
	}
	return f.th.Base
}

// segs is the whole feed, a segment per line, oldest first.
func (f *eventFeed) segs() []style.Seg {
	out := make([]style.Seg, len(f.entries))
	for i, e := range f.entries {
		out[i] = style.S(e.text, f.style(e))
	}
	return out
}

// lines wraps the whole feed to width w, oldest first.
func (f *eventFeed) lines(w int) []style.Seg {
	var out []style.Seg
	for _, e := range f.segs() {
		for _, t := range style.Wrap(e.Text, w, "  ") {
			out = append(out, style.S(t, e.Style))
		}
	}
	return out
}

// draw draws the feed's newest lines in h rows, under its title.
func (f *eventFeed) draw(scr tcell.Screen, x, y, w, h int) {
	if h <= 0 {
		return
	}
	n := style.Print(scr, x, y, w, f.th.Accent, "Events")
	style.Print(scr, x+n, y, w-n, f.th.Dim, " (v: all)")
	lines := f.lines(w)
	if len(lines) == 0 {
		if h > 1 {
			style.Print(scr, x, y+1, w, f.th.Dim, "nothing yet")
		}
		return
	}
	start := max(0, len(lines)-(h-1))
	for i := 0; i < h-1 && start+i < len(lines); i++ {
		style.Print(scr, x, y+1+i, w, lines[start+i].Style, lines[start+i].Text)
	}
}

// drawSide draws the column beside the board: the event feed above the
// verification pane, each in about half the rows (the pane alone while it
// has the keys, as it then lists the messages to pick from).
func (ms *matchScreen) drawSide(scr tcell.Screen, x, y, w, h int) {
	if ms.logFocus || h < FeedMinRows*2 {
		ms.vlog.draw(scr, x, y, w, h, ms.logFocus)
		return
	}
	fh := h / 2
	ms.feed.draw(scr, x, y, w, fh)
	ms.vlog.draw(scr, x, y+fh, w, h-fh, false)
}

// feedBinding opens the whole event feed in a scrolling window.
func (ms *matchScreen) feedBinding() keys.Binding {
	return keys.Binding{Keys: []keys.Key{keys.R('v')}, Label: "v", Hint: "events",
		Help: "read the whole event feed: every move of every player and bot, and what came of it",
		Run: func() {
			lines := ms.feed.segs()
			if len(lines) == 0 {
				lines = []style.Seg{style.S("nothing yet", ms.a.th.Dim)}
			}
			box := newTextBox(ms.a, "Events", lines)
			box.off = len(ms.feed.entries) * 8 // opens at the newest (the box clamps it)
			ms.a.openOverlay(box)
		}}
}
