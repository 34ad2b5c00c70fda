package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// dialogRect centres a dialog of at most w×h in the screen rectangle.
func dialogRect(x, y, w, h, dw, dh int) (int, int, int, int) {
	dw = min(dw, w-2)
	dh = min(dh, h-2)
	return x + (w-dw)/2, y + (h-dh)/2, dw, dh
}

var (
	keyEsc   = keys.K(tcell.KeyEscape)
	keyEnter = keys.K(tcell.KeyEnter)
)

// confirm asks a yes/no question before something that cannot be undone.
type confirm struct {
	a           *App
	title, text string
	yes         string
	run         func()
	no          func() // run on "no", if set
}

func newConfirm(a *App, title, text, yes string, run func()) *confirm {
	return &confirm{a: a, title: title, text: text, yes: yes, run: run}
}

func (c *confirm) draw(scr tcell.Screen, x, y, w, h int) {
	th := c.a.th
	lines := style.Wrap(c.text, 56, "")
	bx, by, bw, bh := dialogRect(x, y, w, h, 60, len(lines)+5)
	style.Fill(scr, bx, by, bw, bh, th.Base)
	ix, iy, iw, _ := boxed(scr, th, bx, by, bw, bh, c.title, th.Warn)
	for i, l := range lines {
		style.Print(scr, ix+1, iy+1+i, iw-2, th.Base, l)
	}
	style.PrintSegs(scr, ix+1, iy+len(lines)+2, iw-2,
		style.S("y", th.BarKey), style.S(" "+c.yes+"   ", th.Base), style.S("n", th.BarKey), style.S(" no", th.Base))
}

func (c *confirm) bindings() []keys.Binding {
	return []keys.Binding{
		{Keys: []keys.Key{keys.R('y'), keys.R('Y')}, Label: "y", Hint: c.yes, Help: "yes: " + c.yes, Run: func() {
			c.a.closeOverlay()
			c.run()
		}},
		{Keys: []keys.Key{keys.R('n'), keys.R('N'), keyEsc}, Label: "n", Hint: "no", Help: "no, go back", Run: func() {
			c.a.closeOverlay()
			if c.no != nil {
				c.no()
			}
		}},
	}
}

func (c *confirm) key(*tcell.EventKey) {}
func (c *confirm) paste(string)        {}
func (c *confirm) typing() bool        { return false }

// help lists the keys in force with their full help; typing filters the
// list, enter runs the selected one.
type help struct {
	a     *App
	all   []keys.Binding
	field *tview.InputField
	sel   int
}

func newHelp(a *App, bs []keys.Binding) *help {
	h := &help{a: a, all: helpEntries(bs), field: newField(a.th, "filter: ", "type to filter")}
	h.field.Focus(nil)
	return h
}

// helpEntries are the bindings the help lists: those with a help text,
// each line once (a family of keys such as "1-5", one binding a key,
// shares one line).
func helpEntries(bs []keys.Binding) []keys.Binding {
	var shown []keys.Binding
	seen := map[[2]string]bool{}
	for _, b := range bs {
		line := [2]string{b.Label, b.Help}
		if b.Help == "" || seen[line] {
			continue
		}
		seen[line] = true
		shown = append(shown, b)
	}
	return shown
}

func (h *help) list() []keys.Binding { return keys.Filter(h.all, h.field.GetText()) }

func (h *help) draw(scr tcell.Screen, x, y, w, h0 int) {
	th := h.a.th
	bx, by, bw, bh := dialogRect(x, y, w, h0, 76, len(h.all)*2+6)
	style.Fill(scr, bx, by, bw, bh, th.Base)
	ix, iy, iw, ih := boxed(scr, th, bx, by, bw, bh, "Keys in force", th.Accent)
	h.field.SetRect(ix+1, iy, iw-2, 1)
	h.field.Draw(scr)
	list := h.list()
	h.sel = min(h.sel, max(0, len(list)-1))
	row := iy + 2
	for i, b := range list {
		if row >= iy+ih {
			break
		}
		st := th.Base
		if i == h.sel {
			st = th.Selected
		}
		lines := style.Wrap(b.Help, iw-16, "")
		style.Fill(scr, ix, row, iw, 1, st)
		style.PrintSegs(scr, ix+1, row, iw-2, style.S(style.Pad(b.Label, 12), th.BarKey), style.S(" "+lines[0], st))
		row++
		for _, l := range lines[1:] {
			if row >= iy+ih {
				break
			}
			style.Print(scr, ix+14, row, iw-15, th.Dim, l)
			row++
		}
	}
	if len(list) == 0 {
		style.Print(scr, ix+1, row, iw-2, th.Dim, "no key matches")
	}
}

func (h *help) bindings() []keys.Binding {
	return []keys.Binding{
		{Keys: []keys.Key{keyEsc}, Label: "esc", Hint: "close", Help: "close the help", Run: h.a.closeOverlay},
		{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "run", Help: "close the help and run the selected key", Run: func() {
			list := h.list()
			h.a.closeOverlay()
			if h.sel < len(list) && list[h.sel].Run != nil {
				list[h.sel].Run()
			}
		}},
		{Keys: []keys.Key{keys.K(tcell.KeyUp)}, Label: "↑↓", Hint: "select", Help: "select a key", Run: func() { h.sel = max(0, h.sel-1) }},
		{Keys: []keys.Key{keys.K(tcell.KeyDown)}, Label: "↓", Hint: "select", Hidden: true, Run: func() { h.sel++ }},
	}
}

func (h *help) key(ev *tcell.EventKey) {
	h.field.InputHandler()(ev, func(tview.Primitive) {})
	h.sel = 0
}
func (h *help) paste(t string) { h.field.PasteHandler()(t, func(tview.Primitive) {}) }
func (h *help) typing() bool   { return true }

// textBox shows lines of text (a raw message, details) with scrolling.
type textBox struct {
	a     *App
	title string
	lines []style.Seg
	off   int
	ih    int
}

func newTextBox(a *App, title string, lines []style.Seg) *textBox {
	return &textBox{a: a, title: title, lines: lines}
}

func (t *textBox) draw(scr tcell.Screen, x, y, w, h int) {
	th := t.a.th
	bx, by, bw, bh := dialogRect(x, y, w, h, 96, h-2)
	style.Fill(scr, bx, by, bw, bh, th.Base)
	ix, iy, iw, ih := boxed(scr, th, bx, by, bw, bh, t.title, th.Accent)
	var wrapped []style.Seg
	for _, l := range t.lines {
		for _, wl := range style.Wrap(l.Text, iw-2, "    ") {
			wrapped = append(wrapped, style.S(wl, l.Style))
		}
	}
	t.ih = ih
	t.off = min(t.off, max(0, len(wrapped)-ih))
	for i := 0; i < ih && t.off+i < len(wrapped); i++ {
		l := wrapped[t.off+i]
		style.Print(scr, ix+1, iy+i, iw-2, l.Style, l.Text)
	}
	if len(wrapped) > ih {
		style.Print(scr, bx+bw-12, by+bh-1, 10, th.Dim, fmt.Sprintf(" %d/%d ", min(t.off+ih, len(wrapped)), len(wrapped)))
	}
}

func (t *textBox) bindings() []keys.Binding {
	scroll := func(d int) func() { return func() { t.off = max(0, t.off+d) } }
	return []keys.Binding{
		{Keys: []keys.Key{keyEsc, keyEnter, keys.R('q')}, Label: "esc", Hint: "close", Help: "close this window", Run: t.a.closeOverlay},
		{Keys: []keys.Key{keys.K(tcell.KeyUp), keys.R('k')}, Label: "↑↓", Hint: "scroll", Help: "scroll a line", Run: scroll(-1)},
		{Keys: []keys.Key{keys.K(tcell.KeyDown), keys.R('j')}, Label: "↓", Hint: "scroll", Hidden: true, Run: scroll(1)},
		{Keys: []keys.Key{keys.K(tcell.KeyPgUp)}, Label: "pgup", Hint: "page", Hidden: true, Help: "scroll a page up", Run: func() { scroll(-max(1, t.ih-1))() }},
		{Keys: []keys.Key{keys.K(tcell.KeyPgDn)}, Label: "pgdn", Hint: "page", Hidden: true, Help: "scroll a page down", Run: func() { scroll(max(1, t.ih-1))() }},
	}
}

func (t *textBox) key(*tcell.EventKey) {}
func (t *textBox) paste(string)        {}
func (t *textBox) typing() bool        { return false }

// prompt asks for one line of text, checking it as it is typed.
type prompt struct {
	a      *App
	title  string
	field  *tview.InputField
	check  func(string) (string, bool) // a message about the text, and whether it will do
	accept func(string)
}

func newPrompt(a *App, title, label, initial string, check func(string) (string, bool), accept func(string)) *prompt {
	p := &prompt{a: a, title: title, field: newField(a.th, label, ""), check: check, accept: accept}
	p.field.SetText(initial)
	p.field.Focus(nil)
	return p
}

func (p *prompt) draw(scr tcell.Screen, x, y, w, h int) {
	th := p.a.th
	bx, by, bw, bh := dialogRect(x, y, w, h, 90, 6)
	style.Fill(scr, bx, by, bw, bh, th.Base)
	ix, iy, iw, _ := boxed(scr, th, bx, by, bw, bh, p.title, th.Accent)
	p.field.SetRect(ix+1, iy+1, iw-2, 1)
	p.field.Draw(scr)
	msg, ok := p.check(p.field.GetText())
	st, g := th.Bad, style.Fail
	if ok {
		st, g = th.Good, style.OK
	}
	style.Print(scr, ix+1, iy+2, iw-2, st, style.Truncate(g+" "+msg, iw-2))
}

func (p *prompt) bindings() []keys.Binding {
	return []keys.Binding{
		{Keys: []keys.Key{keyEnter}, Label: "enter", Hint: "open", Help: "accept the text", Run: func() {
			if _, ok := p.check(p.field.GetText()); ok {
				p.a.closeOverlay()
				p.accept(p.field.GetText())
			}
		}},
		{Keys: []keys.Key{keyEsc}, Label: "esc", Hint: "cancel", Help: "close without doing anything", Run: p.a.closeOverlay},
	}
}

func (p *prompt) key(ev *tcell.EventKey) { p.field.InputHandler()(ev, func(tview.Primitive) {}) }
func (p *prompt) paste(t string)         { p.field.PasteHandler()(t, func(tview.Primitive) {}) }
func (p *prompt) typing() bool           { return true }

// newField returns a one-line text field in the theme's colours.
func newField(th *style.Theme, label, placeholder string) *tview.InputField {
	f := tview.NewInputField().SetLabel(label).SetPlaceholder(placeholder)
	f.SetLabelStyle(th.Accent)
	f.SetFieldStyle(th.Base.Underline(true))
	f.SetPlaceholderStyle(th.Dim)
	f.SetBackgroundColor(tcell.ColorDefault)
	return f
}
