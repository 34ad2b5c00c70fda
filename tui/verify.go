package tui

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/style"
)

// openedText matches the words after the seat of the referee's event
// about checked openings ([board.AfterSeat]).
var openedText = regexp.MustCompile(`^ opened (\d+) committed value`)

// openedCount reads how many openings the referee's "opened" event
// checked, from its words after the seat.
func openedCount(e engine.Event) (int, bool) {
	_, rest, ok := board.AfterSeat(e.Words())
	m := openedText.FindStringSubmatch(rest)
	if !ok || m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// logEntry is one line of the verification log, with indented details.
type logEntry struct {
	seq   uint64 // the message it is about; 0 for none
	glyph string
	st    tcell.Style
	text  string
	sub   []style.Seg
}

// verifyLog is the verification pane: every message sent and accepted,
// every commitment, opening and roll checked, as it happens.
type verifyLog struct {
	th      *style.Theme
	entries []logEntry
	sel     int // the selected entry while the pane has the keys
	off     int // first line shown, when not following
	follow  bool
}

func newVerifyLog(th *style.Theme) *verifyLog {
	return &verifyLog{th: th, follow: true}
}

func (l *verifyLog) add(e logEntry) {
	l.entries = append(l.entries, e)
	if l.follow {
		l.sel = len(l.entries) - 1
	}
}

// eventSegs turns a note's events into indented detail lines, naming
// seats with name.
func (l *verifyLog) eventSegs(evs []engine.Event, name func(engine.Seat) string) []style.Seg {
	th := l.th
	var out []style.Seg
	commitSeen := false
	for _, e := range evs {
		text := e.Say(name)
		switch e.Kind {
		case "commit":
			if commitSeen {
				continue // the engine's echo of the referee's commit line
			}
			commitSeen = true
			out = append(out, style.S(style.OK+" "+text, th.Good))
		case "opened":
			if n, ok := openedCount(e); ok {
				plural := "s match"
				if n == 1 {
					plural = " matches"
				}
				text = fmt.Sprintf("%d opening%s %s's commitment", n, plural, name(e.Seat))
			}
			out = append(out, style.S(style.OK+" "+text, th.Good))
		case "hello", "choose":
			out = append(out, style.S(style.OK+" "+text, th.Good))
		case "share", "reveal":
			out = append(out, style.S(strings.TrimSuffix(style.OK+" "+strings.TrimSuffix(text, " ✓"), " "), th.Good))
		case "roll":
			out = append(out, style.S(style.OK+" "+text, th.Good))
		case "hit", "sunk", "fleet sunk":
			out = append(out, style.S(text, th.Hit))
		default:
			out = append(out, style.S(text, th.Base))
		}
	}
	return out
}

// note records a note of the referee.
func (l *verifyLog) note(n fairness.Note, names []string) {
	th := l.th
	name := board.Snapshot{Names: names}.Name
	who, text := name(n.Seat), n.Words().Say(name)
	switch n.Dir {
	case fairness.DirIn:
		l.add(logEntry{seq: n.Seq, glyph: style.OK, st: th.Good,
			text: fmt.Sprintf("#%d %s: signed, state %s agrees", n.Seq, who, n.State.Short()),
			sub:  l.eventSegs(n.Events, name)})
	case fairness.DirLocal:
		for _, s := range l.eventSegs(n.Events, name) {
			st := th.Dim
			if s.Style == th.Hit {
				st = th.Hit
			}
			l.add(logEntry{glyph: "·", st: st, text: strings.TrimPrefix(s.Text, style.OK+" ")})
		}
	case fairness.DirOut:
		l.add(logEntry{seq: n.Seq, glyph: style.Sent, st: th.Dim, text: fmt.Sprintf("#%d signed and sent", n.Seq)})
	case fairness.DirLost:
		l.add(logEntry{glyph: style.Fail, st: th.Bad, text: text})
	case fairness.DirStop:
		if n.OK {
			l.add(logEntry{glyph: style.Ship, st: th.Accent, text: text})
		} else {
			l.add(logEntry{seq: n.Seq, glyph: style.Fail, st: th.Bad, text: text})
		}
	}
}

// lines flattens the entries into wrapped screen lines, each with the
// entry it belongs to.
func (l *verifyLog) lines(w int) ([]style.Seg, []int) {
	var out []style.Seg
	var owner []int
	for i, e := range l.entries {
		for j, t := range style.Wrap(e.glyph+" "+e.text, w, "  ") {
			st := e.st
			if j > 0 && e.st == l.th.Good {
				st = l.th.Base
			}
			out = append(out, style.S(t, st))
			owner = append(owner, i)
		}
		for _, s := range e.sub {
			for _, t := range style.Wrap("  "+s.Text, w, "    ") {
				out = append(out, style.S(t, s.Style))
				owner = append(owner, i)
			}
		}
	}
	return out, owner
}

// draw draws the pane; focused shows the selection.
func (l *verifyLog) draw(scr tcell.Screen, x, y, w, h int, focused bool) {
	th := l.th
	title := "Verification"
	if focused {
		title += " (↑↓ enter raw)"
	}
	style.Print(scr, x, y, w, th.Accent, title)
	y++
	h--
	lines, owner := l.lines(w)
	if len(lines) == 0 {
		style.Print(scr, x, y, w, th.Dim, "nothing yet")
		return
	}
	start := max(0, len(lines)-h)
	if focused || !l.follow {
		// Keep the selected entry in view.
		first, last := -1, -1
		for i, o := range owner {
			if o == l.sel {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		start = min(max(0, l.off), max(0, len(lines)-h))
		if first >= 0 && first < start {
			start = first
		}
		if last >= start+h {
			start = last - h + 1
		}
		l.off = start
	}
	for i := 0; i < h && start+i < len(lines); i++ {
		ln := lines[start+i]
		st := ln.Style
		if focused && owner[start+i] == l.sel {
			st = st.Reverse(true)
			style.Fill(scr, x, y+i, w, 1, th.Selected)
		}
		style.Print(scr, x, y+i, w, st, ln.Text)
	}
}

// move changes the selection.
func (l *verifyLog) move(d int) {
	if len(l.entries) == 0 {
		return
	}
	l.sel = min(max(0, l.sel+d), len(l.entries)-1)
	l.follow = l.sel == len(l.entries)-1
}

// selected returns the selected entry.
func (l *verifyLog) selected() (logEntry, bool) {
	if l.sel < 0 || l.sel >= len(l.entries) {
		return logEntry{}, false
	}
	return l.entries[l.sel], true
}
