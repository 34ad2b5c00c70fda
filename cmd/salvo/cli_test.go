package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/p2p"
)

// runCLI runs salvo with args in this process, in a data directory of its
// own.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("SALVO_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// Asking for help is not an error: -h exits 0 for every command, as the
// Go tools do, and prints that command's usage.
func TestHelpFlagExitsZero(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"-h"}, "salvo"},
		{[]string{"--name", "ann", "-h"}, "Opens the lobby"},
		{[]string{"play", "-h"}, "usage: salvo play"},
		{[]string{"host", "-h"}, "usage: salvo host"},
		{[]string{"join", "-h"}, "usage: salvo join"},
		{[]string{"selfplay", "-h"}, "usage: salvo selfplay"},
		{[]string{"selfplay", "--help"}, "usage: salvo selfplay"},
		{[]string{"audit", "-h"}, "usage: salvo audit"},
		{[]string{"relay", "-h"}, "usage: salvo relay"},
		{[]string{"netplay", "-h"}, "usage: salvo netplay"},
		{[]string{"resume", "-h"}, "usage: salvo resume"},
		{[]string{"resume", "-help"}, "usage: salvo resume"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d, want 0; stderr %s", code, errs)
			}
			if !strings.Contains(out+errs, tc.say) {
				t.Fatalf("output %q does not say %q", out+errs, tc.say)
			}
		})
	}
}

// salvo help CMD prints CMD's own help (its usage and flags) on stdout;
// salvo help alone the general one; an unknown command is named and the
// commands listed.
func TestHelpCommand(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		code       int
		say, notOn string
	}{
		{[]string{"help"}, exitOK, "Usage:", ""},
		{[]string{"help", "play"}, exitOK, "usage: salvo play", "Usage:"},
		{[]string{"help", "host"}, exitOK, "usage: salvo host", "Usage:"},
		{[]string{"help", "join"}, exitOK, "usage: salvo join", "Usage:"},
		{[]string{"help", "selfplay"}, exitOK, "-players", "Usage:"},
		{[]string{"help", "audit"}, exitOK, "usage: salvo audit", "Usage:"},
		{[]string{"help", "relay"}, exitOK, "usage: salvo relay", "Usage:"},
		{[]string{"help", "netplay"}, exitOK, "-role", "Usage:"},
		{[]string{"help", "resume"}, exitOK, "-latest", "Usage:"},
		{[]string{"help", "version"}, exitOK, "Usage:", ""},
		{[]string{"help", "nope"}, exitUsage, "the commands are: play, host, join", ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %s", code, tc.code, errs)
			}
			got := out
			if tc.code != exitOK {
				got = errs
			}
			if !strings.Contains(got, tc.say) || tc.notOn != "" && strings.Contains(got, tc.notOn) {
				t.Fatalf("output %q: want %q, not %q", got, tc.say, tc.notOn)
			}
		})
	}
}

// A wrong game, variant or bot level on the command line is named, and the
// valid values listed, before anything is drawn.
func TestUnknownChoicesListTheValidOnes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  []string
	}{
		{[]string{"play", "--game", "nope"}, append([]string{`--game "nope": unknown game; the games are:`}, games.Names()...)},
		{[]string{"host", "--game", "nope"}, append([]string{"unknown game"}, games.Names()...)},
		{[]string{"play", "--game", "air", "--variant", "nope"}, []string{`--variant "nope": air has no such variant`}},
		{[]string{"play", "--bot", "genius"}, []string{"unknown bot level; the levels are: random, strong"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, _, errs := runCLI(t, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, errs)
			}
			for _, s := range tc.say {
				if !strings.Contains(errs, s) {
					t.Fatalf("stderr %q does not say %q", errs, s)
				}
			}
		})
	}
}

// Without a terminal the interface commands say so plainly and name the
// headless commands, instead of "open /dev/tty: no such device or address".
func TestNoTerminalSaysWhatToUse(t *testing.T) {
	old := checkTerminal
	checkTerminal = func() error { return errors.New("open /dev/tty: no such device or address") }
	t.Cleanup(func() { checkTerminal = old })
	for _, args := range [][]string{nil, {"play"}, {"host", "--game", "sea"}, {"join", testInviteCode(t)}} {
		t.Run(strings.Join(append([]string{"salvo"}, args...), " "), func(t *testing.T) {
			code, _, errs := runCLI(t, args...)
			if code != exitViolation {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitViolation, errs)
			}
			for _, s := range []string{"needs a terminal", "salvo selfplay", "salvo netplay", "salvo audit"} {
				if !strings.Contains(errs, s) {
					t.Fatalf("stderr %q does not say %q", errs, s)
				}
			}
		})
	}
}

// salvo join with a code cut short in pasting says it is incomplete, not
// that its checksum does not match.
func TestJoinCodeCutShort(t *testing.T) {
	code := testInviteCode(t)
	for _, tc := range []struct {
		name, code, say string
	}{
		{"last symbol lost", code[:len(code)-1], "incomplete: 1 symbol is missing at the end"},
		{"half lost", code[:len(code)/2], "incomplete"},
		{"mistyped", code[:len(code)-3] + swapSymbol(code[len(code)-3]) + code[len(code)-2:], "mistyped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exit, _, errs := runCLI(t, "join", tc.code)
			if exit != exitUsage || !strings.Contains(errs, tc.say) || strings.Contains(tc.say, "incomplete") && strings.Contains(errs, "checksum") {
				t.Fatalf("exit %d, stderr %q; want %d saying %q", exit, errs, exitUsage, tc.say)
			}
		})
	}
}

// testInviteCode returns a fresh invite code of a made-up host.
func testInviteCode(t *testing.T) string {
	t.Helper()
	_, pub, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	addr := ma.StringCast("/ip4/192.168.1.20/tcp/4001")
	return p2p.EncodeInvite(p2p.Invite{Peer: id, Addrs: []ma.Multiaddr{addr}, Issued: time.Now()})
}

func swapSymbol(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}
