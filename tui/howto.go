package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/tui/howto"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// houseTag starts a house rule on a how-to page: the words say it, so it
// reads the same without colour; howtoIntro, the page's first lines, says
// what the tag means.
const (
	houseTag   = "house rule: "
	howtoIntro = `Rules marked "house rule" are Salvo's own choices, where the rulebook is silent or lost a picture.`
)

// howtoKeys open the how-to page: H everywhere it is offered (no view of a
// game uses it), and F1 as terminals' usual help key.
var howtoKeys = []keys.Key{keys.R('H'), keys.K(tcell.KeyF1)}

// howtoPage is the how-to-play page of a game: a scrollable text over the
// screen, wrapped to the room there is, so it reads at 80x24 as at 120x40.
// ←→ turn to the other games' pages, so the lobby's page is also the
// place to compare games before picking one.
type howtoPage struct {
	a     *App
	games []string
	i     int // the game shown, an index into games
	off   int // the first line shown
	ih    int // lines the last draw had room for
	total int // lines the last draw wrapped the page into
}

// openHowto shows the how-to page of the game with this short name.
func (a *App) openHowto(game string) {
	names := games.Names()
	a.openOverlay(&howtoPage{a: a, games: names, i: max(0, slices.Index(names, game))})
}

// learnGame is implemented by the screens that offer the how-to page of
// their game on the H key (the match; the lobby has it in its menu).
type learnGame interface{ learnGame() string }

func (ms *matchScreen) learnGame() string { return ms.spec.Name }

// learnBindings is the H key of a screen that teaches its game.
func (a *App) learnBindings() []keys.Binding {
	s, ok := a.top().(learnGame)
	if !ok {
		return nil
	}
	game := s.learnGame()
	return []keys.Binding{{Keys: howtoKeys, Label: "H", Hint: "how to play",
		Help: "how to play this game: the goal, set-up, a turn, how it ends, the variants and Salvo's house rules (F1 too)",
		Run:  func() { a.openHowto(game) }}}
}

// lines wraps the page to w cells: headings stand out, bullets hang, and
// a house rule says so in words before its text.
func (h *howtoPage) lines(w int) [][]style.Seg {
	th := h.a.th
	p, err := howto.Lookup(h.games[h.i])
	if err != nil {
		return [][]style.Seg{{style.S(err.Error(), th.Bad)}}
	}
	out := [][]style.Seg{}
	for _, l := range style.Wrap(howtoIntro, w, "") {
		out = append(out, []style.Seg{style.S(l, th.Dim)})
	}
	for _, b := range p.Blocks {
		lead, indent, st := "", "", th.Base
		switch b.Kind {
		case howto.Heading:
			out = append(out, nil, []style.Seg{style.S(b.Text, th.Accent.Bold(true))})
			continue
		case howto.Bullet:
			lead, indent = "• ", "  "
		}
		text := lead + b.Text
		if b.House {
			text = lead + houseTag + b.Text
		}
		for i, l := range style.Wrap(text, w, indent) {
			if i == 0 && b.House && strings.HasPrefix(l, lead+houseTag) {
				n := len(lead) + len(houseTag)
				out = append(out, []style.Seg{style.S(l[:len(lead)], st), style.S(l[len(lead):n], th.Warn), style.S(l[n:], st)})
				continue
			}
			out = append(out, []style.Seg{style.S(l, st)})
		}
	}
	return out
}

func (h *howtoPage) title() string {
	e, _ := games.Lookup(h.games[h.i])
	return "How to play " + e.Spec.Title
}

func (h *howtoPage) draw(scr tcell.Screen, x, y, w, h0 int) {
	th := h.a.th
	// A page to read, not a dialog: it takes the whole screen (the one
	// below would only show through as stray frame corners), with a
	// margin, and at most 100 columns wide so that lines stay easy to
	// follow.
	style.Fill(scr, x, y, w, h0, th.Base)
	bw := min(w-4, 100)
	bx, by, bh := x+(w-bw)/2, y, h0
	ix, iy, iw, ih := boxed(scr, th, bx, by, bw, bh, h.title(), th.Accent)
	lines := h.lines(iw - 2)
	h.ih, h.total = ih, len(lines)
	h.off = max(0, min(h.off, len(lines)-ih))
	for i := 0; i < ih && h.off+i < len(lines); i++ {
		style.PrintSegs(scr, ix+1, iy+i, iw-2, lines[h.off+i]...)
	}
	if len(lines) > ih {
		pos := fmt.Sprintf(" %d/%d ", min(h.off+ih, len(lines)), len(lines))
		style.Print(scr, bx+bw-2-style.Width(pos), by+bh-1, style.Width(pos), th.Dim, pos)
	}
}

// scroll moves the page by d lines (draw keeps it in range).
func (h *howtoPage) scroll(d int) { h.off = max(0, h.off+d) }

// turn shows the next (d = 1) or previous (d = -1) game's page.
func (h *howtoPage) turn(d int) {
	h.i = (h.i + d + len(h.games)) % len(h.games)
	h.off = 0
}

func (h *howtoPage) bindings() []keys.Binding {
	page := func() int { return max(1, h.ih-1) }
	return []keys.Binding{
		{Keys: []keys.Key{keyEsc, keys.R('q'), keys.R('H'), keys.K(tcell.KeyF1)}, Label: "esc", Hint: "close", Help: "close the page", Run: h.a.closeOverlay},
		{Keys: []keys.Key{keys.K(tcell.KeyDown), keys.R('j')}, Label: "↑↓", Hint: "scroll", Help: "scroll a line (j and k too)", Run: func() { h.scroll(1) }},
		{Keys: []keys.Key{keys.K(tcell.KeyUp), keys.R('k')}, Label: "↑", Hint: "scroll", Hidden: true, Run: func() { h.scroll(-1) }},
		{Keys: []keys.Key{keys.K(tcell.KeyPgDn), keys.R(' ')}, Label: "space", Hint: "page", Help: "scroll a page down (pgdn too; pgup goes back)", Run: func() { h.scroll(page()) }},
		{Keys: []keys.Key{keys.K(tcell.KeyPgUp), keys.R('b')}, Label: "pgup", Hint: "page up", Hidden: true, Run: func() { h.scroll(-page()) }},
		{Keys: []keys.Key{keys.K(tcell.KeyRight)}, Label: "←→", Hint: "other game", Help: "the how-to page of the next game (← the previous one)", Run: func() { h.turn(1) }},
		{Keys: []keys.Key{keys.K(tcell.KeyLeft)}, Label: "←", Hint: "other game", Hidden: true, Run: func() { h.turn(-1) }},
	}
}

func (h *howtoPage) key(*tcell.EventKey) {}
func (h *howtoPage) paste(string)        {}
func (h *howtoPage) typing() bool        { return false }
