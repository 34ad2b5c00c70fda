package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/howto"
	"github.com/salvo-game/salvo/tui/keys"
)

// pageWords is every word the how-to page of game must show, in order: the
// note on house rules, then each heading and block with its bullet and
// house mark.
func pageWords(t *testing.T, game string) []string {
	t.Helper()
	p, err := howto.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(howtoIntro)
	for _, bl := range p.Blocks {
		b.WriteString(" ")
		if bl.Kind == howto.Bullet {
			b.WriteString("• ")
		}
		if bl.House {
			b.WriteString(houseTag)
		}
		b.WriteString(bl.Text)
	}
	return strings.Fields(b.String())
}

// readHowto reads the open how-to page from the screen, scrolling through
// it a page at a time, and checks that its words are the page's words:
// none cut at the frame, none lost between two screens. It checks the
// title, the frame's line counter and the key bar too.
func readHowto(t *testing.T, hs *harness, game string) {
	t.Helper()
	e, _ := games.Lookup(game)
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		hs.resize(size[0], size[1])
		shown := map[int]string{}
		total := 0
		for off := 0; ; {
			// The page's fields are the tview goroutine's: read them there.
			var lines []string
			open, shownAt, ih := false, 0, 0
			hs.onUI(func() {
				hp, ok := hs.app.overlay.(*howtoPage)
				if !ok {
					return
				}
				hp.off = off
				hs.app.tv.ForceDraw()
				cells, w, h := hs.scr.GetContents()
				lines = boardtest.Lines(cells, w, h)
				open, shownAt, ih, total = true, hp.off, hp.ih, hp.total
			})
			if !open {
				t.Fatalf("no how-to page open\n%s", hs.Dump())
			}
			title := "How to play " + e.Spec.Title
			if !strings.Contains(strings.Join(lines, "\n"), title) {
				t.Fatalf("%dx%d: no title %q\n%s", size[0], size[1], title, hs.Dump())
			}
			if bad := cutLines(lines, size[0]); len(bad) > 0 {
				t.Errorf("%s how-to at %dx%d cuts %q", game, size[0], size[1], bad)
			}
			for i, l := range boxInner(lines, title) {
				shown[shownAt+i] = l
			}
			if shownAt+ih >= total {
				break
			}
			off = shownAt + ih - 1
		}
		var got []string
		for i := range total {
			got = append(got, strings.Fields(shown[i])...)
		}
		if want := pageWords(t, game); !slices.Equal(got, want) {
			t.Errorf("%s how-to at %dx%d does not read whole:\n got %q\nwant %q", game, size[0], size[1], got, want)
		}
	}
}

// boxInner returns the text inside the frame whose top edge holds title.
func boxInner(lines []string, title string) []string {
	top := -1
	for y, l := range lines {
		if strings.Contains(l, title) {
			top = y
			break
		}
	}
	if top < 0 {
		return nil
	}
	// The lobby's panes have corners on the same row: take the frame's,
	// the nearest ones either side of the title.
	row := []rune(lines[top])
	at := len([]rune(lines[top][:strings.Index(lines[top], title)]))
	left, right := -1, slices.Index(row[at:], '┐')
	for i := at - 1; i >= 0 && left < 0; i-- {
		if row[i] == '┌' {
			left = i
		}
	}
	if left < 0 || right < 0 {
		return nil
	}
	right += at
	var out []string
	for _, l := range lines[top+1:] {
		r := []rune(l)
		if left < 0 || right >= len(r) || r[left] == '└' {
			break
		}
		out = append(out, strings.TrimSpace(string(r[left+1:right])))
	}
	return out
}

// The lobby's how-to page is the selected game's, reads whole at 80x24
// and 120x40, and ←→ turn to every other game's page.
func TestHowToFromTheLobby(t *testing.T) {
	t.Parallel()
	hs := start(t, Config{Offline: true}, 80, 24)
	hs.WaitFor("How to play  H")
	hs.Keys("g") // the second game is selected: its page opens
	hs.WaitFor("Card Game (coordinate cards)")
	hs.Keys("H")
	hs.WaitFor("How to play Battleship Card Game (coordinate cards)")
	names := games.Names()
	for i := range names {
		game := names[(1+i)%len(names)]
		readHowto(t, hs, game)
		hs.Keys(tcell.KeyRight)
		e, _ := games.Lookup(names[(2+i)%len(names)])
		hs.WaitFor("How to play " + e.Spec.Title)
	}
	hs.Keys(tcell.KeyEscape)
	hs.WaitGone("How to play Battleship")
}

// Every game's match offers its how-to page on H (on the key bar or behind
// its "more" marker, and in the ? help), and a legend of its signs on g.
func TestHowToAndLegendFromEveryMatch(t *testing.T) {
	t.Parallel()
	legendShows := map[string]string{
		"ubuild": "Legend (g hides it)",
		"cards":  "facedown card",
		"oceans": "Legend (g hides it)",
		"sea":    "Legend (g hides it)",
		"air":    "B5↑ a plane",
	}
	for _, game := range games.Names() {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			hs := start(t, Config{Offline: true, Game: game, Bot: "random", Start: StartPractice}, 80, 24)
			hs.WaitFor("vs bot")
			var bs []keys.Binding
			var help []keys.Binding
			hs.onUI(func() { bs = hs.app.bindings(); help = helpEntries(bs) })
			find := func(bs []keys.Binding, label, hint string) bool {
				return slices.ContainsFunc(bs, func(b keys.Binding) bool { return b.Label == label && b.Hint == hint })
			}
			if !find(help, "H", "how to play") {
				t.Errorf("the ? help of a %s match has no H how to play", game)
			}
			if !find(bs, "g", "legend") {
				t.Errorf("a %s match has no g legend key", game)
			}
			bar := hs.line(-1)
			for _, k := range []string{"H how to play", "g legend"} {
				if !strings.Contains(bar, k) && !strings.Contains(bar, keys.MoreMarker) {
					t.Errorf("the key bar drops %q without a trace: %q", k, bar)
				}
			}
			hs.Keys("H")
			e, _ := games.Lookup(game)
			hs.WaitFor("How to play " + e.Spec.Title)
			readHowto(t, hs, game)
			hs.Keys(tcell.KeyEscape)
			hs.WaitGone("How to play " + e.Spec.Title)
			hs.resize(80, 24)
			hs.Keys("g")
			hs.WaitFor(legendShows[game])
		})
	}
}
