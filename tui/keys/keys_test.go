package keys

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/style"
)

func ev(k tcell.Key, r rune) *tcell.EventKey { return tcell.NewEventKey(k, r, tcell.ModNone) }

func TestKeyMatches(t *testing.T) {
	tests := []struct {
		name string
		key  Key
		ev   *tcell.EventKey
		want bool
	}{
		{"a rune", R('q'), ev(tcell.KeyRune, 'q'), true},
		{"another rune", R('q'), ev(tcell.KeyRune, 'Q'), false},
		{"a special key", K(tcell.KeyEnter), ev(tcell.KeyEnter, 0), true},
		{"a rune is not a special key", K(tcell.KeyEnter), ev(tcell.KeyRune, 'e'), false},
		{"space is a rune", R(' '), ev(tcell.KeyRune, ' '), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.key.Matches(tc.ev); got != tc.want {
				t.Fatalf("got %v", got)
			}
		})
	}
}

func TestDispatchRunsTheFirstMatch(t *testing.T) {
	var ran []string
	bs := []Binding{
		{Keys: []Key{R('a')}, Run: func() { ran = append(ran, "first a") }},
		{Keys: []Key{R('a'), R('b')}, Run: func() { ran = append(ran, "second") }},
		{Keys: []Key{R('c')}}, // no Run: not dispatched
	}
	if !Dispatch(bs, ev(tcell.KeyRune, 'a')) || !Dispatch(bs, ev(tcell.KeyRune, 'b')) {
		t.Fatal("a binding did not run")
	}
	if Dispatch(bs, ev(tcell.KeyRune, 'c')) || Dispatch(bs, ev(tcell.KeyRune, 'z')) {
		t.Fatal("dispatched without a Run")
	}
	if strings.Join(ran, ",") != "first a,second" {
		t.Fatalf("ran %v", ran)
	}
}

func TestMergeShadowsLaterKeys(t *testing.T) {
	view := []Binding{{Keys: []Key{R('l'), K(tcell.KeyRight)}, Hint: "right"}}
	screen := []Binding{{Keys: []Key{R('l')}, Hint: "log"}, {Keys: []Key{R('q'), R('l')}, Hint: "quit"}}
	got := Merge(view, screen)
	if len(got) != 2 || got[0].Hint != "right" || got[1].Hint != "quit" {
		t.Fatalf("merged %+v", got)
	}
	if len(got[1].Keys) != 1 || got[1].Keys[0] != R('q') {
		t.Fatalf("quit keeps %v, want only q", got[1].Keys)
	}
}

func TestFilter(t *testing.T) {
	bs := []Binding{{Label: "g", Hint: "game", Help: "the next game"}, {Label: "v", Hint: "variant", Help: "the next variant"}}
	if got := Filter(bs, "VAR"); len(got) != 1 || got[0].Label != "v" {
		t.Fatalf("filter VAR: %+v", got)
	}
	if got := Filter(bs, "  "); len(got) != 2 {
		t.Fatalf("an empty filter dropped bindings: %+v", got)
	}
}

func TestBarDrawsPinnedHintsAndRunsClicks(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(40, 1)
	quit := 0
	bs := []Binding{
		{Keys: []Key{R('a')}, Label: "a", Hint: "a long first hint"},
		{Keys: []Key{R('b')}, Label: "b", Hint: "another long hint"},
		{Keys: []Key{R('x')}, Label: "x", Hint: "hidden", Hidden: true},
		{Keys: []Key{R('q')}, Label: "q", Hint: "quit", Pin: true, Run: func() { quit++ }},
	}
	bar := NewBar(style.New(true), func() []Binding { return bs })
	bar.SetRect(0, 0, 40, 1)
	bar.Draw(scr)
	scr.Show()
	cells, _, _ := scr.GetContents()
	var line strings.Builder
	for _, c := range cells {
		line.WriteString(string(c.Runes))
	}
	text := line.String()
	if !strings.Contains(text, "a a long first hint") || strings.Contains(text, "another") || strings.Contains(text, "hidden") || !strings.Contains(text, "q quit") || !strings.Contains(text, MoreMarker) {
		t.Fatalf("bar %q", text)
	}
	x := strings.Index(text, "q quit")
	bar.MouseHandler()(tview.MouseLeftClick, tcell.NewEventMouse(len([]rune(text[:x])), 0, tcell.Button1, tcell.ModNone), func(tview.Primitive) {})
	if quit != 1 {
		t.Fatalf("a click on the quit hint ran it %d times", quit)
	}
}
