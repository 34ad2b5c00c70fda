// Package untrusted is the one rule for text that came from a peer or a
// file: what a display name may hold (checked at the handshake), and how any
// other such string is shown on a terminal.
//
// A terminal acts on control characters (ESC sequences erase lines and move
// the cursor, CR overwrites a line) and on format characters (bidi
// overrides and isolates reorder what follows, zero-width characters hide
// text). A crafted name or closing detail could otherwise erase a real
// "violation" line and print a fake "clean" one. New names are refused at
// the handshake (ValidateName); everything else, including whatever an older
// transcript holds, goes through Escape before it is printed, which shows
// such characters as visible text instead of acting on them.
package untrusted

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameRunes is the longest display name, in characters (code points):
// room for a real name or a nickname, too short to carry a paragraph.
const MaxNameRunes = 32

// ErrBadName means a display name breaks the name rule.
var ErrBadName = errors.New("bad player name")

// ValidateName checks a display name: valid UTF-8, at most MaxNameRunes
// characters, no control (Cc) or format (Cf: bidi overrides and isolates,
// zero-width characters) characters, no line or paragraph separators. The
// empty name is valid (the interface makes one up from the peer ID). The
// error never quotes the name itself, so it is safe to print.
func ValidateName(name string) error {
	if err := CheckText(name, MaxNameRunes); err != nil {
		return fmt.Errorf("%w: %w", ErrBadName, err)
	}
	return nil
}

// CheckText checks any short text a peer shows on other players' screens
// (a name, an offer): valid UTF-8, at most max characters, no character
// Hidden reports. The error names the first offending character by its code
// point, never raw.
func CheckText(s string, max int) error {
	if !utf8.ValidString(s) {
		return errors.New("not valid UTF-8")
	}
	if n := utf8.RuneCountInString(s); n > max {
		return fmt.Errorf("%d characters, limit %d", n, max)
	}
	for i, r := range s {
		if Hidden(r) {
			return fmt.Errorf("character %U at byte %d is a control or format character", r, i)
		}
	}
	return nil
}

// Hidden reports a character a terminal acts on or does not show: a control
// (Cc, C0 and C1 alike), format (Cf) or line/paragraph separator (Zl, Zp).
func Hidden(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Escape returns s with every Hidden character written as \u{hex} and every
// byte that is not valid UTF-8 as \xhh, so it prints on one line exactly as
// it reads. A string with none (the common case) comes back as is, without
// allocating. The output is printable ASCII where it differs from s, so
// escaping twice changes nothing more.
func Escape(s string) string { return escape(s, false) }

// EscapeText is Escape for multi-line text: newlines and tabs stay.
func EscapeText(s string) string { return escape(s, true) }

func escape(s string, lines bool) string {
	i := firstUnsafe(s, lines)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r, lines):
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// firstUnsafe is the byte offset of the first character Escape rewrites,
// or -1.
func firstUnsafe(s string, lines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f { // printable ASCII, the fast path
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unsafeRune(r, lines) {
			return i
		}
		i += n
	}
	return -1
}

func unsafeRune(r rune, lines bool) bool {
	if lines && (r == '\n' || r == '\t') {
		return false
	}
	return Hidden(r)
}

// NewWriter wraps w so that whatever is written shows on a terminal as
// EscapeText shows it: for a command's standard output and error, through
// which every printer of the command then goes. Each Write is escaped on its
// own (fmt writes a whole line at once); it reports len(p) on success.
func NewWriter(w io.Writer) io.Writer { return writer{w} }

type writer struct{ w io.Writer }

func (w writer) Write(p []byte) (int, error) {
	s := string(p)
	e := EscapeText(s)
	if len(e) == len(s) { // nothing escaped: the escaped form is always longer
		if _, err := w.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if _, err := io.WriteString(w.w, e); err != nil {
		return 0, err
	}
	return len(p), nil
}
