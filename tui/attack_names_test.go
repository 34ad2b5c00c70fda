package tui

import (
	"testing"

	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
	"github.com/salvo-game/salvo/tui/style"
)

// TestAttackNameEscapes (the interface's half; the CLI's is in
// cmd/salvo): the audit viewer shows a transcript whose player name holds
// escape sequences and bidi controls with that name escaped, and no cell
// of the screen holds a character the terminal would act on.
func TestAttackNameEscapes(t *testing.T) {
	t.Parallel()
	path := hostiletest.CraftedNameTranscript(t)
	hs := start(t, Config{Offline: true, Start: StartAudit, File: path}, 160, 40)
	hs.WaitFor(style.Fail+" violation by seat 1", `ann vs \u{1b}[1A\u{1b}[2K\u{d}clean`, `\u{202e}\u{2066}\u{9b}2K\u{7}`)
	for i, c := range hs.cells() {
		for _, r := range string(c.Bytes) {
			if untrusted.Hidden(r) {
				t.Fatalf("cell %d holds raw %U\n%s", i, r, hs.Text())
			}
		}
	}
}
