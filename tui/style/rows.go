package style

import "strings"

// FitRows lays segs out in at most rows lines of w cells each: whole words
// to a line, broken at spaces, and the last line as Fit leaves it (whole
// pieces, then " …"), or, when no whole piece fits there, whole words and
// " …". A status line that a refusal, a long name or a long
// path pushes past one row takes a second rather than losing its end.
func FitRows(w, rows int, segs ...Seg) [][]Seg {
	var out [][]Seg
	rest := segs
	for len(out) < rows-1 && SegsWidth(rest) > w {
		line, more := takeWords(w, rest)
		if len(line) == 0 {
			break // a first word wider than the line: Fit cuts it
		}
		out = append(out, line)
		rest = more
	}
	last := Fit(w, rest...)
	if n := len(last); SegsWidth(rest) > w && n > 0 && !strings.HasSuffix(last[n-1].Text, " …") && w > 2 {
		// No whole piece fits: whole words then, and the marker.
		if words, _ := takeWords(w-2, rest); len(words) > 0 {
			last = append(words, Seg{Text: " …", Style: words[len(words)-1].Style})
		}
	}
	return append(out, last)
}

// takeWords splits segs after the last whole word that fits in w cells:
// the line (without trailing spaces) and the rest (without leading ones).
func takeWords(w int, segs []Seg) (line, rest []Seg) {
	used := 0
	for i, sg := range segs {
		if n := Width(sg.Text); used+n <= w {
			line = append(line, sg)
			used += n
			continue
		}
		// The last space whose text before it fits; better, the end of a
		// piece (" · ", " — ") in the line's second half.
		at, piece := -1, -1
		for j := 0; j < len(sg.Text); j++ {
			if sg.Text[j] != ' ' || used+Width(sg.Text[:j]) > w {
				continue
			}
			at = j
			if before := sg.Text[:j]; (strings.HasSuffix(before, " ·") || strings.HasSuffix(before, " —")) && used+Width(before) >= w/2 {
				piece = j
			}
		}
		if piece > 0 {
			at = piece
		}
		if at > 0 {
			line = append(line, Seg{Text: sg.Text[:at], Style: sg.Style})
		}
		tail := strings.TrimLeft(sg.Text[max(at, 0):], " ")
		rest = append([]Seg{{Text: tail, Style: sg.Style}}, segs[i+1:]...)
		break
	}
	for len(line) > 0 { // no spaces nor a piece's separator at the end
		last := &line[len(line)-1]
		last.Text = strings.TrimRight(last.Text, " ")
		for _, sep := range []string{" ·", " —"} {
			last.Text = strings.TrimRight(strings.TrimSuffix(last.Text, sep), " ")
		}
		if last.Text != "" {
			break
		}
		line = line[:len(line)-1]
	}
	return line, rest
}
