package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui"
)

// salvo audit takes a transcript of the data directory by the name the
// lobby and salvo resume show, or by its match ID's first digits; a
// transcript an older Salvo named by its whole match ID is found too, in
// a second player's profile as well.
func TestAuditFindsTranscriptsByNameOrMatchID(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SALVO_HOME", home)
	golden := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "..", "fairness", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const stdID = "e2508a59eec541d9336da4783e2d395d94b44822f91b6330fcd1730d4a5f6b02"
	put := func(dir, name string, b []byte) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	put(filepath.Join(home, tui.MatchesDir), stdID+".jsonl", golden("ubuild-standard.jsonl"))
	put(filepath.Join(home, p2p.ProfilesDir, "2", tui.MatchesDir), "20261122-192019-ubuild-vs-bot-b-aaaaaaaa.jsonl", golden("ubuild-custom.jsonl"))
	for _, c := range []struct {
		ref  string
		code int
		say  string
	}{
		{stdID, exitOK, "clean"},
		{stdID[:8], exitOK, "clean"},
		{strings.ToUpper(stdID[:10]), exitOK, "clean"},
		{"20261122-192019-ubuild-vs-bot-b-aaaaaaaa", exitOK, "clean"},
		{"20261122-192019-ubuild-vs-bot-b-aaaaaaaa.jsonl", exitOK, "clean"},
		{"e25", exitUsage, "no such file, nor a transcript of that name or match ID"},
		{"nope", exitUsage, "no such file, nor a transcript of that name or match ID"},
		{"./nope.jsonl", exitUsage, "nope.jsonl"},
	} {
		var out, errb bytes.Buffer
		code := run([]string{"audit", c.ref}, &out, &errb)
		if code != c.code || !strings.Contains(out.String()+errb.String(), c.say) {
			t.Errorf("salvo audit %s: exit %d, %q %q; want %d and %q", c.ref, code, out.String(), errb.String(), c.code, c.say)
		}
	}
}
