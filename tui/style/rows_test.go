package style

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// FitRows never cuts a word: every line but the last holds whole words of
// the text, in order, within the width; the last is Fit's (whole pieces,
// " …"); joined, the lines are the text or a prefix of it up to " …"
// (less the separators that ended a row).
func TestFitRowsKeepsWordsWhole(t *testing.T) {
	words := []string{"refused:", "the", "Harpoon", "cannot", "be", "launched", "from", "carrier's", "·", "—", "enter", "fires", "Bartholomew-Unsinkable-1xxxxxxx", "(5-3)", "1:37"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var segs []Seg
		var all []string
		for range 1 + r.IntN(4) {
			var ws []string
			for range 1 + r.IntN(12) {
				ws = append(ws, words[r.IntN(len(words))])
			}
			all = append(all, ws...)
			segs = append(segs, Seg{Text: strings.Join(ws, " ") + " "})
		}
		w, rows := 34+r.IntN(80), 1+r.IntN(3) // every word fits a line with its " …"
		lines := FitRows(w, rows, segs...)
		if len(lines) > rows {
			t.Fatalf("%d lines for %d rows", len(lines), rows)
		}
		var got []string
		for i, l := range lines {
			text := ""
			for _, s := range l {
				text += s.Text
			}
			if Width(text) > w {
				t.Fatalf("line %q wider than %d", text, w)
			}
			if i == len(lines)-1 {
				text = strings.TrimSuffix(text, " …")
			}
			got = append(got, strings.Fields(text)...)
		}
		// A separator at a row's end goes (the row ends a piece).
		sep := func(w string) bool { return w == "·" || w == "—" }
		all, got = slices.DeleteFunc(slices.Clone(all), sep), slices.DeleteFunc(got, sep)
		for i, g := range got {
			if i >= len(all) || g != all[i] && !(i == len(got)-1 && g == "…" && len(lines) == 1) {
				t.Fatalf("FitRows(%d, %d) = %q: word %d %q is not the text's %q", w, rows, got, i, g, all)
			}
		}
	}
}
