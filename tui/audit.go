package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// auditScreen steps through a transcript: the list of messages, the board
// as it stood after the selected one with both players' hidden data (every
// value the match opened), and the audit's verdict.
type auditScreen struct {
	base
	a         *App
	path      string
	data      *replayed
	err       error
	sel       int
	view      board.View
	describer board.Describer
	names     []string
	known     board.Known
	searching bool
	field     *tview.InputField
	note      string
	listOff   int
	list      paneRows
	live      *liveWatch // set when the viewer follows a match as a spectator (watch.go)
}

// openAudit opens the audit viewer on a transcript.
func (a *App) openAudit(path string) {
	as := &auditScreen{a: a, path: path, field: newField(a.th, "/", "search the messages")}
	a.closeOverlay()
	a.push(as)
	a.goBack(func() {
		data, err := openRecord(path)
		a.post(func() { as.loaded(data, err) })
	})
}

func (as *auditScreen) loaded(data *replayed, err error) {
	as.data, as.err = data, err
	if err != nil {
		return
	}
	as.names = playerNames(data.header)
	as.known = board.Known{}
	as.known.Merge(data.report.Revealed)
	env := board.Env{Theme: as.a.th, Spec: data.spec, Variant: data.header.Variant, Rand: as.a.rand}
	if f, ok := board.Lookup(data.spec.Name); ok {
		as.view = f(env)
	} else {
		as.view = newPlainView(as.a.th)
	}
	as.describer, _ = as.view.(board.Describer)
	as.sel = len(data.steps) - 1
	if data.firstBad >= 0 {
		as.sel = data.firstBad
	}
	as.show()
}

// say tells w with the players' names for the seats it names.
func (as *auditScreen) say(w engine.Words) string { return board.Snapshot{Names: as.names}.Say(w) }

func (as *auditScreen) show() {
	if as.data == nil || as.sel < 0 || as.sel >= len(as.data.steps) {
		return
	}
	st := as.data.steps[as.sel]
	if st.game != nil {
		as.view.Show(board.Snapshot{Game: st.game, Seat: 0, Secrets: as.known, Names: as.names, Spectator: true})
	}
}

func (as *auditScreen) step(d int) {
	if as.data == nil || len(as.data.steps) == 0 {
		return
	}
	as.sel = min(max(0, as.sel+d), len(as.data.steps)-1)
	as.note = ""
	as.show()
}

func (as *auditScreen) jump(i int) {
	as.sel = 0
	as.step(i)
}

func (as *auditScreen) firstViolation() {
	if as.data == nil {
		return
	}
	if as.data.firstBad < 0 {
		as.note = "no violation: every message passed every check"
		return
	}
	as.jump(as.data.firstBad)
}

// search selects the next step (after the selected one, wrapping) whose
// text contains the query.
func (as *auditScreen) search() {
	q := strings.ToLower(strings.TrimSpace(as.field.GetText()))
	as.searching = false
	as.field.Blur()
	if q == "" || as.data == nil {
		return
	}
	n := len(as.data.steps)
	for k := 1; k <= n; k++ {
		i := (as.sel + k) % n
		if strings.Contains(strings.ToLower(as.data.steps[i].said(as.say)), q) || strings.Contains(as.data.steps[i].text(), q) {
			as.jump(i)
			as.note = fmt.Sprintf("%q found at step %d (/ enter searches again)", q, i)
			return
		}
	}
	as.note = fmt.Sprintf("no step matches %q", q)
}

func (as *auditScreen) typing() bool { return as.searching }

func (as *auditScreen) key(ev *tcell.EventKey) {
	if as.searching {
		as.field.InputHandler()(ev, func(tview.Primitive) {})
	}
}

func (as *auditScreen) paste(t string) {
	if as.searching {
		as.field.PasteHandler()(t, func(tview.Primitive) {})
	}
}

func (as *auditScreen) bindings() []keys.Binding {
	if as.searching {
		return []keys.Binding{
			{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "find", Help: "select the next message that contains the text", Run: as.search},
			{Keys: []keys.Key{keyEsc}, Label: "esc", Hint: "cancel", Help: "stop searching", Run: func() { as.searching = false; as.field.Blur() }},
		}
	}
	return []keys.Binding{
		{Keys: []keys.Key{keys.R('n'), keys.K(tcell.KeyDown), keys.R('j')}, Label: "n", Hint: "next", Help: "the next message (↓ too)", Run: func() { as.step(1) }},
		{Keys: []keys.Key{keys.R('p'), keys.K(tcell.KeyUp), keys.R('k')}, Label: "p", Hint: "previous", Help: "the previous message (↑ too)", Run: func() { as.step(-1) }},
		{Keys: []keys.Key{keys.R('v')}, Label: "v", Hint: "first violation", Help: "jump to the first message that failed a check", Run: as.firstViolation},
		{Keys: []keys.Key{keys.R('/')}, Label: "/", Hint: "search", Help: "search the messages' inputs, events and errors", Run: func() { as.searching = true; as.field.Focus(nil) }},
		{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "raw", Help: "show the selected message as signed, with the commitments its openings answer", Run: as.openDetail},
		{Keys: []keys.Key{keys.R('g'), keys.K(tcell.KeyHome)}, Label: "g", Hint: "first", Hidden: true, Help: "the first step (the header)", Run: func() { as.jump(0) }},
		{Keys: []keys.Key{keys.R('G'), keys.K(tcell.KeyEnd)}, Label: "G", Hint: "last", Hidden: true, Help: "the last step", Run: func() { as.jump(1 << 30) }},
		{Keys: []keys.Key{keys.R('q'), keyEsc}, Label: "q", Hint: "back", Pin: true, Help: "leave the audit viewer", Run: as.a.pop},
	}
}

func (as *auditScreen) openDetail() {
	if as.data == nil || as.sel >= len(as.data.steps) {
		return
	}
	st := as.data.steps[as.sel]
	if st.kind != "message" {
		return
	}
	h, m, err := findMessage(as.path, st.seq)
	if err != nil {
		as.a.openOverlay(newTextBox(as.a, "Message", []style.Seg{style.S(err.Error(), as.a.th.Bad)}))
		return
	}
	as.a.openOverlay(newTextBox(as.a, fmt.Sprintf("Message %d", st.seq), messageLines(as.a, h, m, as.describer, board.Snapshot{Names: as.names}.Name)))
}

func (as *auditScreen) draw(scr tcell.Screen, x, y, w, h int) {
	a, th := as.a, as.a.th
	left := []style.Seg{style.S(as.liveHeading(), th.Base)}
	if as.data != nil {
		hd := as.data.header
		left = append(left, style.S(fmt.Sprintf(" · %s (%s) · %s", shortTitle(as.data.spec.Title), hd.Variant, strings.Join(as.names, " vs ")), th.Base))
	}
	titleBar(scr, th, x, y, w, left, nil)
	if as.err != nil {
		for i, l := range style.Wrap(style.Fail+" cannot audit "+as.path+": "+as.err.Error(), w-4, "  ") {
			style.Print(scr, x+2, y+2+i, w-4, th.Bad, l)
		}
		return
	}
	if as.data == nil {
		wait := " replaying and re-checking every message…"
		if as.live != nil {
			wait = " " + as.live.status
			if text, ok := as.liveVerdict(nil); ok {
				for i, l := range style.Wrap(text, w-4, "  ") {
					style.Print(scr, x+2, y+2+i, w-4, th.Bad, l)
				}
				return
			}
		}
		style.Print(scr, x+2, y+2, w-4, th.Warn, a.spinner()+wait)
		return
	}
	// Verdict.
	rep := as.data.report
	vst, glyph := th.Good, style.OK
	switch {
	case as.data.unverified:
		vst, glyph = th.Warn, "?"
	case rep.Verdict != fairness.Clean:
		vst, glyph = th.Bad, style.Fail
	}
	verdict := glyph + " " + rep.Summary()
	if text, ok := as.liveVerdict(rep); ok {
		verdict, vst = text, th.Good
		if as.live.stopped != "" {
			vst = th.Bad
		}
	}
	// The verdict may take an eighth of the screen (at least two lines):
	// a forfeit's or a refused claim's reasons run long.
	vl := style.Wrap(verdict, w-2, "  ")
	if n := max(2, h/8); len(vl) > n {
		vl = vl[:n]
		vl[n-1] = style.Truncate(vl[n-1], w-3)
	}
	for i, l := range vl {
		style.Print(scr, x+1, y+1+i, w-2, vst, l)
	}
	top := y + 1 + len(vl)
	bodyH := h - (top - y) - 1
	// Message list.
	listW := 30
	as.drawList(scr, x, top, listW, bodyH)
	for j := top; j < top+bodyH; j++ {
		scr.Put(x+listW, j, "│", th.Dim)
	}
	// Board and events.
	bx, bw := x+listW+2, w-listW-3
	boardH := min(bodyH, 20)
	if bodyH-boardH < 3 {
		boardH = bodyH
	}
	ey := top + boardH
	if as.data.unverified {
		ey = top + as.drawUnverified(scr, bx, top, bw)
	} else {
		as.view.SetRect(bx, top, bw, boardH)
		as.view.Draw(scr)
	}
	st := as.data.steps[as.sel]
	var lines []style.Seg
	if st.err.String() != "" {
		for _, l := range style.Wrap(style.Fail+" "+as.say(ruleWords(st.err)), bw, "  ") {
			lines = append(lines, style.S(l, th.Bad))
		}
	}
	for _, e := range st.events {
		for _, l := range style.Wrap("· "+as.say(e.Words()), bw, "  ") {
			lines = append(lines, style.S(l, th.Base))
		}
	}
	for i := 0; i < len(lines) && ey+i < top+bodyH; i++ {
		style.Print(scr, bx, ey+i, bw, lines[i].Style, lines[i].Text)
	}
	// Status line: search field or position.
	sy := y + h - 1
	if as.searching {
		as.field.SetRect(x+1, sy, w-2, 1)
		as.field.Draw(scr)
		return
	}
	pos := fmt.Sprintf("step %d of %d · line %d", as.sel, len(as.data.steps)-1, st.line)
	if as.note != "" {
		pos += " · " + as.note
	}
	style.Print(scr, x+1, sy, w-2, th.Dim, pos)
}

// drawUnverified says, where a transcript's board would be, that a
// notation on its own is unchecked, and returns the rows it took.
func (as *auditScreen) drawUnverified(scr tcell.Screen, x, y, w int) int {
	th := as.a.th
	lines := style.Wrap("UNVERIFIED: this is a match notation, text that anyone can write. Nothing on this screen has been checked: no signature, no roll, no hidden value. salvo audit --notation "+filepath.Base(as.path)+" TRANSCRIPT checks it against the signed transcript.", w, "")
	for i, l := range lines {
		style.Print(scr, x, y+i, w, th.Warn, l)
	}
	return len(lines) + 1
}

func (as *auditScreen) drawList(scr tcell.Screen, x, y, w, h int) {
	th := as.a.th
	style.Print(scr, x+1, y, w-1, th.Accent, "Messages: who sent what")
	y++
	h--
	steps := as.data.steps
	if as.sel < as.listOff {
		as.listOff = as.sel
	}
	if as.sel >= as.listOff+h {
		as.listOff = as.sel - h + 1
	}
	as.list = paneRows{x, y, w, h, as.listOff}
	for i := 0; i < h && as.listOff+i < len(steps); i++ {
		k := as.listOff + i
		s := steps[k]
		glyph, gst := style.OK, th.Good
		switch {
		case as.data.unverified: // nothing was checked: no tick
			glyph, gst = "·", th.Dim
			if !s.ok {
				glyph, gst = "!", th.Warn
			}
		case !s.ok:
			glyph, gst = style.Fail, th.Bad
		}
		var text string
		switch s.kind {
		case "header":
			text = "header: the match starts"
		case "closing":
			text = "closing record"
		case "raw":
			text = "undecodable message"
		default:
			who := board.Snapshot{Names: as.names}.Name(s.seat)
			if s.seat == engine.NoSeat {
				who = "?"
			}
			text = fmt.Sprintf("%3d %s %s", s.seq, style.Pad(who, 9), strings.Join(s.inputs, ","))
		}
		st := th.Base
		if k == as.sel {
			st = th.Selected
			style.Fill(scr, x, y+i, w, 1, st)
			gst = st
		}
		style.PrintSegs(scr, x+1, y+i, w-1, style.S(glyph+" ", gst), style.S(text, st))
	}
}

// mouse selects a message with a click.
func (as *auditScreen) mouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	if as.data == nil {
		return false
	}
	mx, my := ev.Position()
	r := as.list
	if mx < r.x || mx >= r.x+r.w || my < r.y || my >= r.y+r.h {
		return false
	}
	switch action {
	case tview.MouseLeftClick:
		as.jump(r.first + my - r.y)
	case tview.MouseScrollUp:
		as.step(-1)
	case tview.MouseScrollDown:
		as.step(1)
	}
	return true
}
