package style

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Seg is a run of text in one style.
type Seg struct {
	Text  string
	Style tcell.Style
}

// S returns a segment.
func S(text string, st tcell.Style) Seg { return Seg{text, st} }

// Print draws s at x, y in style st, clipped to max cells, and returns the
// number of cells drawn. Every text of the interface is drawn here, so this
// is where whatever came from a peer or a file is made harmless: control and
// format characters and invalid UTF-8 are shown escaped (\u{202e}), never
// passed to the terminal nor silently dropped (see package untrusted).
func Print(scr tcell.Screen, x, y, max int, st tcell.Style, s string) int {
	s = untrusted.Escape(s)
	w := 0
	for s != "" && w < max {
		g, rest, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		gw := uniseg.StringWidth(g)
		if gw == 0 {
			s = rest
			continue
		}
		if w+gw > max {
			break
		}
		scr.Put(x+w, y, g, st)
		w += gw
		s = rest
	}
	return w
}

// PrintSegs draws segments one after the other from x, y, clipped to max
// cells, and returns the cells drawn.
func PrintSegs(scr tcell.Screen, x, y, max int, segs ...Seg) int {
	w := 0
	for _, sg := range segs {
		if w >= max {
			break
		}
		w += Print(scr, x+w, y, max-w, sg.Style, sg.Text)
	}
	return w
}

// Fill paints a rectangle with spaces in style st.
func Fill(scr tcell.Screen, x, y, w, h int, st tcell.Style) {
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			scr.Put(x+i, y+j, " ", st)
		}
	}
}

// Width returns the cells s takes on screen.
func Width(s string) int { return uniseg.StringWidth(s) }

// SegsWidth returns the cells a line of segments takes.
func SegsWidth(segs []Seg) int {
	w := 0
	for _, s := range segs {
		w += Width(s.Text)
	}
	return w
}

// Truncate shortens s to at most w cells, ending it with "…" if it was cut.
func Truncate(s string, w int) string {
	if Width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	n := 0
	for s != "" {
		g, rest, _, _ := uniseg.FirstGraphemeClusterInString(s, -1)
		gw := uniseg.StringWidth(g)
		if n+gw > w-1 {
			break
		}
		b.WriteString(g)
		n += gw
		s = rest
	}
	return b.String() + "…"
}

// Pad returns s padded with spaces (or truncated) to exactly w cells.
func Pad(s string, w int) string {
	s = Truncate(s, w)
	if n := Width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// Wrap breaks s into lines of at most w cells, at spaces where it can;
// indent is put before every line but the first. Leading spaces of s are
// kept (and added to indent), so indented text stays indented.
func Wrap(s string, w int, indent string) []string {
	lead := s[:len(s)-len(strings.TrimLeft(s, " "))]
	if lead != "" && Width(lead)+2 <= w {
		lines := Wrap(strings.TrimLeft(s, " "), w-Width(lead), indent)
		for i := range lines {
			lines[i] = lead + lines[i]
		}
		return lines
	}
	iw := Width(indent)
	if w <= iw+1 {
		return []string{Truncate(s, w)}
	}
	var lines []string
	cur, cw, first := "", 0, true
	avail := func() int {
		if first {
			return w
		}
		return w - iw
	}
	emit := func() {
		if first {
			lines = append(lines, cur)
		} else {
			lines = append(lines, indent+cur)
		}
		first, cur, cw = false, "", 0
	}
	for _, word := range strings.Fields(s) {
		for word != "" {
			ww := Width(word)
			switch {
			case cw == 0 && ww > avail():
				part := cut(word, avail())
				cur, word = part, word[len(part):]
				emit()
			case cw == 0:
				cur, cw, word = word, ww, ""
			case cw+1+ww <= avail():
				cur, cw, word = cur+" "+word, cw+1+ww, ""
			default:
				emit()
			}
		}
	}
	if cw > 0 || len(lines) == 0 {
		emit()
	}
	return lines
}

// cut returns the longest prefix of s that fits n cells (at least one
// grapheme).
func cut(s string, n int) string {
	w, i := 0, 0
	for i < len(s) {
		g, _, _, _ := uniseg.FirstGraphemeClusterInString(s[i:], -1)
		gw := uniseg.StringWidth(g)
		if w+gw > n && i > 0 {
			break
		}
		w += gw
		i += len(g)
	}
	return s[:i]
}

// pieceSeps are where a line of this interface may be cut without cutting
// a word's meaning: between its " · " and " — " separated pieces.
var pieceSeps = []string{" · ", " — "}

// Fit returns segs as they fit in w cells: whole when they fit, else the
// leading pieces (text between " · " or " — ") that fit and " …", so that
// a title, status or prompt line never ends in a cut word or number. A
// first piece too long on its own is truncated with "…".
func Fit(w int, segs ...Seg) []Seg {
	if SegsWidth(segs) <= w {
		return segs
	}
	var out []Seg
	used, cut := 0, false
	for _, sg := range segs {
		for _, p := range splitPieces(sg.Text) {
			if cut {
				break
			}
			if used+Width(strings.TrimRight(p, " ·—"))+2 > w {
				cut = true
				break
			}
			out = append(out, Seg{Text: p, Style: sg.Style})
			used += Width(p)
		}
	}
	// Drop a trailing separator: the marker follows the last whole piece.
	for len(out) > 0 {
		last := &out[len(out)-1]
		t := strings.TrimRight(last.Text, " ·—")
		if t != "" {
			last.Text = t
			break
		}
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		first := ""
		var st tcell.Style
		if len(segs) > 0 {
			first, st = segs[0].Text, segs[0].Style
		}
		return []Seg{{Text: Truncate(first, w), Style: st}}
	}
	return append(out, Seg{Text: " …", Style: out[len(out)-1].Style})
}

// splitPieces splits s after each piece separator, keeping the separators
// (joined back, the pieces are s).
func splitPieces(s string) []string {
	var out []string
	for s != "" {
		i, n := -1, 0
		for _, sep := range pieceSeps {
			if j := strings.Index(s, sep); j >= 0 && (i < 0 || j < i) {
				i, n = j, len(sep)
			}
		}
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+n])
		s = s[i+n:]
	}
	return out
}
