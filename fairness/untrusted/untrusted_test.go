package untrusted

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValidateName(t *testing.T) {
	good := []string{"", "Ada", "Zoë Ψ 水兵", strings.Repeat("x", MaxNameRunes), strings.Repeat("水", MaxNameRunes)}
	for _, n := range good {
		if err := ValidateName(n); err != nil {
			t.Errorf("ValidateName(%q) = %v, want nil", n, err)
		}
	}
	bad := map[string]string{
		strings.Repeat("x", MaxNameRunes+1): "33 characters",
		"ada\x1b[2K\rclean":                 "U+001B",
		"ada\u202egnirts":                   "U+202E",
		"ada\u2066x\u2069":                  "U+2066",
		"a\u200bb":                          "U+200B",
		"line\u2028two":                     "U+2028",
		"para\u2029two":                     "U+2029",
		"c1\u009b2K":                        "U+009B",
		"bad\xffutf8":                       "UTF-8",
		"tab\tname":                         "U+0009",
	}
	for n, want := range bad {
		err := ValidateName(n)
		if !errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), want) {
			t.Errorf("ValidateName(%q) = %v, want ErrBadName naming %s", n, err, want)
		}
		if err != nil && Escape(err.Error()) != err.Error() {
			t.Errorf("the error for %q quotes a hidden character: %q", n, err)
		}
	}
}

func TestEscape(t *testing.T) {
	cases := map[string]string{
		"plain ascii":         "plain ascii",
		"Zoë 水兵 ✓":            "Zoë 水兵 ✓",
		"\x1b[2K\rclean":      `\u{1b}[2K\u{d}clean`,
		"rtl\u202eoff":        `rtl\u{202e}off`,
		"bad\xff\xfe":         `bad\xff\xfe`,
		"nl\nand\ttab":        `nl\u{a}and\u{9}tab`,
		"c1 \u009b":           `c1 \u{9b}`,
		"lit \ufffd is fine":  "lit \ufffd is fine",
		"sep\u2028\u2029done": `sep\u{2028}\u{2029}done`,
	}
	for in, want := range cases {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := EscapeText("a\nb\tc\x1b"); got != "a\nb\tc\\u{1b}" {
		t.Errorf("EscapeText kept or lost the wrong characters: %q", got)
	}
}

func TestWriterEscapes(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	in := "name \x1b[1A\x1b[2Kclean\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write = %d, %v; want %d, nil", n, err, len(in))
	}
	if got := buf.String(); got != "name \\u{1b}[1A\\u{1b}[2Kclean\n" {
		t.Errorf("wrote %q", got)
	}
}

// FuzzEscape: whatever the input, the escaped form holds no character a
// terminal acts on, is valid UTF-8, is a fixed point, and leaves a valid
// name as it is.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "Ada", "\x1b]0;title\a", "\u202e\u2066", "\xff\xc3", "水\u200d兵", "\u009b31m", "a\nb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			e := escape(s, lines)
			if !utf8.ValidString(e) {
				t.Fatalf("escape(%q) = %q is not valid UTF-8", s, e)
			}
			for _, r := range e {
				if unsafeRune(r, lines) {
					t.Fatalf("escape(%q) = %q still holds %U", s, e, r)
				}
			}
			if escape(e, lines) != e {
				t.Fatalf("escape is not a fixed point on %q", e)
			}
		}
		if ValidateName(s) == nil && Escape(s) != s {
			t.Fatalf("a valid name %q was changed to %q", s, Escape(s))
		}
	})
}
