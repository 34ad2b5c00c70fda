package main

import (
	"bytes"
	"strings"
	"testing"
)

// The interactive commands check their flags before drawing anything:
// --players is for tables the game allows, and a joiner takes the host's.
func TestInteractiveFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  string
		args []string
		want string
	}{
		{"air table of 5", "play", []string{"--game", "air", "--players", "5"}, "takes 2-4 players"},
		{"two-player game of 3", "host", []string{"--game", "ubuild", "--players", "3"}, "takes 2 players"},
		{"joiner picks no size", "join", []string{"--players", "3", "SALVO1-X"}, "flag provided but not defined: -players"},
		{"give-up is a duration", "host", []string{"--give-up", "soon"}, "invalid value \"soon\" for flag -give-up"},
		{"vs a person", "play", []string{"--vs", "person"}, "only bot is supported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SALVO_HOME", t.TempDir())
			var out, errb bytes.Buffer
			if code := runInteractive(tc.cmd, tc.args, &out, &errb); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, errb.String())
			}
			if !strings.Contains(errb.String(), tc.want) {
				t.Fatalf("stderr %q does not say %q", errb.String(), tc.want)
			}
		})
	}
}
