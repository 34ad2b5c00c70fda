package main

import (
	"bytes"
	"errors"
	"log"
	"log/slog"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/tui"
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

// Two players started from one data directory on one machine (two
// terminals) each get a profile of their own: their own identity, match
// store and log. A player who stops and starts again gets its profile, and
// so its identity, back.
func TestTwoPlayersOnOneMachineGetTheirOwnProfiles(t *testing.T) {
	t.Setenv("SALVO_HOME", t.TempDir())
	defaultLog, stdLog := slog.Default(), log.Writer()
	t.Cleanup(func() { slog.SetDefault(defaultLog); log.SetOutput(stdLog) })
	var first, second tui.Config
	closeFirst, err := setupInteractive(&first, "")
	if err != nil {
		t.Fatal(err)
	}
	closeSecond, err := setupInteractive(&second, "")
	if err != nil {
		t.Fatal(err)
	}
	defer closeSecond()
	if first.Profile != 1 || second.Profile != 2 || first.DataDir == second.DataDir || first.Key.Equals(second.Key) {
		t.Fatalf("profiles %d (%s) and %d (%s), same key %v", first.Profile, first.DataDir, second.Profile, second.DataDir, first.Key.Equals(second.Key))
	}
	closeFirst()
	var again tui.Config
	closeAgain, err := setupInteractive(&again, "")
	if err != nil {
		t.Fatal(err)
	}
	defer closeAgain()
	if again.Profile != 1 || !again.Key.Equals(first.Key) {
		t.Fatalf("restarted first player: profile %d, same key %v", again.Profile, again.Key.Equals(first.Key))
	}
}

// Flags left out leave the choice to the saved settings (the interface
// reads them); a flag given wins. The bot level used to default to
// "strong" here, which hid the saved level.
func TestUnsetFlagsLeaveTheSavedSettings(t *testing.T) {
	defaultLog, stdLog := slog.Default(), log.Writer()
	t.Cleanup(func() { slog.SetDefault(defaultLog); log.SetOutput(stdLog) })
	for _, tc := range []struct {
		args                  []string
		name, game, bot, vari string
	}{
		{nil, "", "", "", ""},
		{[]string{"--name", "bob", "--game", "sea", "--bot", "strong"}, "bob", "sea", "strong", ""},
	} {
		t.Setenv("SALVO_HOME", t.TempDir())
		t.Setenv("SALVO_NAME", "")
		var got tui.Config
		old := newApp
		newApp = func(cfg tui.Config) (*tui.App, error) { got = cfg; return nil, errors.New("captured") }
		var out, errb bytes.Buffer
		code := runInteractive("play", tc.args, &out, &errb)
		newApp = old
		if code != exitUsage || !strings.Contains(errb.String(), "captured") {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if got.Name != tc.name || got.Game != tc.game || got.Bot != tc.bot || got.Variant != tc.vari {
			t.Errorf("salvo play %v: name %q game %q bot %q variant %q", tc.args, got.Name, got.Game, got.Bot, got.Variant)
		}
	}
}
