package style

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func TestTruncateAndPad(t *testing.T) {
	tests := []struct {
		in        string
		w         int
		trunc, pd string
	}{
		{"Battleship", 20, "Battleship", "Battleship          "},
		{"Battleship", 6, "Battl…", "Battl…"},
		{"■■■■", 3, "■■…", "■■…"},
		{"abc", 0, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := Truncate(tc.in, tc.w); got != tc.trunc {
				t.Errorf("Truncate = %q, want %q", got, tc.trunc)
			}
			if got := Pad(tc.in, tc.w); got != tc.pd || Width(got) != tc.w {
				t.Errorf("Pad = %q, want %q", got, tc.pd)
			}
		})
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		w      int
		indent string
		want   []string
	}{
		{"fits", "a b c", 10, "", []string{"a b c"}},
		{"breaks at spaces", "the quick brown fox", 10, "", []string{"the quick", "brown fox"}},
		{"indents the rest", "the quick brown fox", 10, "  ", []string{"the quick", "  brown", "  fox"}},
		{"cuts a long word", "abcdefghijkl", 5, "", []string{"abcde", "fghij", "kl"}},
		{"empty", "", 5, "", []string{""}},
		{"keeps leading spaces", "  ab cd", 5, "", []string{"  ab", "  cd"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Wrap(tc.in, tc.w, tc.indent)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for _, l := range got {
				if Width(l) > tc.w {
					t.Fatalf("line %q is wider than %d", l, tc.w)
				}
			}
		})
	}
}

func TestPrintClips(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(10, 1)
	if n := PrintSegs(scr, 0, 0, 6, S("abc", tcell.StyleDefault), S("✓✗xyz", tcell.StyleDefault)); n != 6 {
		t.Fatalf("printed %d cells, want 6", n)
	}
	scr.Show()
	cells, _, _ := scr.GetContents()
	var b strings.Builder
	for _, c := range cells[:7] {
		b.WriteString(string(c.Runes))
	}
	if got := b.String(); !strings.HasPrefix(got, "abc✓✗x") || strings.Contains(got, "y") {
		t.Fatalf("screen %q", b.String())
	}
}

func TestThemesGiveEveryStateAStyleAndMonoNoColour(t *testing.T) {
	for _, mono := range []bool{false, true} {
		th := New(mono)
		for _, st := range []tcell.Style{th.Hit, th.Miss, th.Sunk, th.Ship, th.Mark, th.Bad, th.Good, th.Alarm, th.Cursor} {
			fg, bg, _ := st.Decompose()
			if mono && (fg != tcell.ColorDefault || bg != tcell.ColorDefault) {
				t.Fatalf("mono style with colour %v on %v", fg, bg)
			}
		}
	}
	glyphs := []string{Water, Ship, Hit, Miss, Sunk, Marked, Ghost, Clash}
	seen := map[string]bool{}
	for _, g := range glyphs {
		if seen[g] {
			t.Fatalf("glyph %q stands for two states", g)
		}
		seen[g] = true
	}
}

func TestNoColorEnvironment(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if !Default().Mono {
		t.Fatal("NO_COLOR did not choose the monochrome theme")
	}
	t.Setenv("NO_COLOR", "")
	if Default().Mono {
		t.Fatal("an empty NO_COLOR chose the monochrome theme")
	}
}

func TestFitCutsBetweenPieces(t *testing.T) {
	segs := []Seg{S("U-Build · vs calm-heron · your turn", tcell.StyleDefault), S(" · LAN direct · rtt 3 ms", tcell.StyleDefault)}
	text := func(ss []Seg) string {
		var b strings.Builder
		for _, s := range ss {
			b.WriteString(s.Text)
		}
		return b.String()
	}
	for w, want := range map[int]string{
		80: "U-Build · vs calm-heron · your turn · LAN direct · rtt 3 ms",
		50: "U-Build · vs calm-heron · your turn · LAN direct …",
		30: "U-Build · vs calm-heron …",
		5:  "U-Bu…",
	} {
		got := text(Fit(w, segs...))
		if got != want || Width(got) > w {
			t.Errorf("Fit(%d) = %q, want %q", w, got, want)
		}
	}
}
