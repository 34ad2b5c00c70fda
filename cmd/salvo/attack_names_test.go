package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
)

// TestAttackNameEscapes: a transcript whose header names a player with
// escape sequences that erase the real verdict line and print a fake
// "clean" one. salvo audit must print the real violation, and no byte the
// terminal would act on, in the summary as in the -v listing.
func TestAttackNameEscapes(t *testing.T) {
	path := hostiletest.CraftedNameTranscript(t)
	for _, args := range [][]string{{"audit", path}, {"audit", "-v", path}, {"audit", path, path}} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code != exitViolation {
			t.Errorf("%v: exit %d, want %d (a violation)\n%s%s", args, code, exitViolation, out.String(), errb.String())
		}
		all := out.String() + errb.String()
		if !strings.Contains(all, "violation by seat 1 \\u{1b}[1A") {
			t.Errorf("%v: the violation does not name the seat with its name escaped:\n%s", args, all)
		}
		assertTerminalSafe(t, all)
	}
}

// assertTerminalSafe fails on any byte or character of out that a
// terminal acts on (newlines and tabs aside).
func assertTerminalSafe(t *testing.T, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output is not valid UTF-8: %q", out)
	}
	for i, r := range out {
		if r != '\n' && r != '\t' && untrusted.Hidden(r) {
			t.Fatalf("raw %U at byte %d of the output:\n%q", r, i, out)
		}
	}
}
