package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
)

// salvo audit -v names each message's sender by its player's name (escaped),
// not "seat 1".
func TestAuditListingNamesThePlayers(t *testing.T) {
	path := hostiletest.CraftedNameTranscript(t)
	var out, errb bytes.Buffer
	run([]string{"audit", "-v", path}, &out, &errb)
	listing := out.String()
	if strings.Contains(listing, "from seat 1 ") || !strings.Contains(listing, "from \\u{1b}[1A") {
		t.Fatalf("the listing does not name seat 1's player:\n%s", listing)
	}
	assertTerminalSafe(t, listing)
}
