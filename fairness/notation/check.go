package notation

import (
	"fmt"
	"io"

	"github.com/salvo-game/salvo/fairness"
)

// Mismatch is the first place where a notation says something other than
// what its transcript proves. Line is the notation's line (one past its
// last when it stops short); Got is what that line says ("" when the
// notation stops short) and Want what the transcript proves there ("" when
// the notation goes on past it).
type Mismatch struct {
	Line      int
	Got, Want string
}

func (m *Mismatch) Error() string {
	switch {
	case m.Want == "":
		return fmt.Sprintf("line %d says %q, which the transcript does not: it has nothing more", m.Line, m.Got)
	case m.Got == "":
		return fmt.Sprintf("line %d: the notation stops; the transcript goes on with %q", m.Line, m.Want)
	}
	return fmt.Sprintf("line %d says %q; the transcript proves %q", m.Line, m.Got, m.Want)
}

// Check compares a notation with the notation of what a transcript proves,
// element by element in canonical form, comments aside. It returns nil when
// they say the same, else the first difference as a *Mismatch.
func Check(got, want *Notation) error {
	g, w := got.claims(), want.claims()
	for i := range max(len(g), len(w)) {
		switch {
		case i >= len(g):
			end := 1
			if len(g) > 0 {
				end = g[len(g)-1].no + 1
			}
			return &Mismatch{Line: end, Want: w[i].text}
		case i >= len(w):
			return &Mismatch{Line: g[i].no, Got: g[i].text}
		case g[i].text != w[i].text:
			return &Mismatch{Line: g[i].no, Got: g[i].text, Want: w[i].text}
		}
	}
	return nil
}

type claim struct {
	no   int
	text string
}

// claims lists what a notation says: its lines in canonical form, without
// comments and blank lines, each with the line it was read from.
func (n *Notation) claims() []claim {
	var out []claim
	n.layout(func(l line) {
		if l.no != nil && !l.note {
			out = append(out, claim{no: *l.no, text: l.text})
		}
	})
	return out
}

// CheckTranscript parses the notation read from nr and checks it against
// the transcript read from tr. Its error is a *SyntaxError for a notation
// that does not parse, a *Mismatch for one that says something else, or
// what the audit returns for a file that is no transcript.
func CheckTranscript(nr, tr io.Reader, specs fairness.Specs) error {
	got, err := Parse(nr)
	if err != nil {
		return err
	}
	want, _, err := FromTranscript(tr, specs)
	if err != nil {
		return err
	}
	return Check(got, want)
}
