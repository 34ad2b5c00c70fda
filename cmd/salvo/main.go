// Command salvo plays naval games peer to peer, with hidden placements kept
// honest by hash commitments, dice rolled jointly, and a signed transcript of
// every match that anyone can audit.
//
// Usage:
//
//	salvo                                  open the lobby
//	salvo play --game G --vs bot           practice against a bot over loopback libp2p
//	salvo host --game G                    host a game and show an invite code
//	salvo join CODE                        join a hosted game
//	salvo selfplay --game G --out FILE     two bots on two loopback hosts, headless
//	salvo audit FILE                       re-verify a transcript
//	salvo export FILE                      write a transcript's match notation
//	salvo view FILE                        the match viewer on a transcript or a notation
//	salvo version
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p/session"
)

// Exit statuses.
const (
	exitOK        = 0
	exitViolation = 1 // a violation, forfeit or unfinished match
	exitUsage     = 2 // bad arguments, or a file that is not a transcript
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs one command. Every printer of every command writes through an
// escaping writer: names, closing details, error texts and whatever else
// came from a peer or a file can then never act on the terminal (erase the
// real verdict line, say, and print a fake one).
func run(args []string, stdout, stderr io.Writer) int {
	stdout, stderr = untrusted.NewWriter(stdout), untrusted.NewWriter(stderr)
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	return dispatch(cmd, args, stdout, stderr)
}

// dispatch runs the command cmd with its arguments.
func dispatch(cmd string, args []string, stdout, stderr io.Writer) int {
	switch cmd {
	case "selfplay":
		return runSelfplay(args, stdout, stderr)
	case "audit":
		return runAudit(args, stdout, stderr)
	case "export":
		return runExport(args, stdout, stderr)
	case "relay":
		return runRelay(args, stdout, stderr)
	case "netplay":
		return runNetplay(args, stdout, stderr)
	case "watch":
		if plainWatch(args) {
			return runWatch(args, stdout, stderr)
		}
		return runInteractive(cmd, args, stdout, stderr)
	case "resume":
		return runResume(args, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, versionText())
		return exitOK
	case "help", "-h", "--help", "-help":
		return runHelp(args, stdout, stderr)
	}
	return runInteractive(cmd, args, stdout, stderr)
}

// commands are the subcommands that have a help of their own.
var commands = []string{"play", "host", "join", "selfplay", "audit", "export", "view", "relay", "netplay", "resume", "watch"}

// runHelp prints the general help, or with a command's name that command's
// own (its usage and flags, on stdout: asked for, it is output, not an
// error), as "go help build" does.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "version" {
		fmt.Fprint(stdout, usageText())
		return exitOK
	}
	if !slices.Contains(commands, args[0]) {
		fmt.Fprintf(stderr, "salvo help: unknown command %q; the commands are: %s\n", args[0], strings.Join(commands, ", "))
		return exitUsage
	}
	return dispatch(args[0], []string{"-h"}, stdout, stdout)
}

// parseFlags parses a command's flags. When it returns false the command
// ends with code: 0 when help was asked for (-h, -help: the usage is what
// was wanted, and scripts test a tool's -h for success), 2 for a bad flag
// (the flag package has said which).
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		return exitOK, false
	}
	return exitUsage, false
}

const usage = `salvo: naval games peer to peer, fair without a server

Usage:
  salvo                                   open the lobby
  salvo play --game G [--vs bot]          practice against a bot (a second peer on loopback)
  salvo host --game G [--variant V]       host a game and show an invite code
  salvo join CODE                         join a game by its invite code
  salvo selfplay --game G [--variant V] [--players N] [--seed N] [--out FILE] [--cheat KIND]
                                          bots on loopback libp2p hosts, headless (3-4 players
                                          for air, over a pubsub topic); --cheat list shows kinds
  salvo audit FILE                        re-verify a match transcript
  salvo audit --notation NOTATION FILE    check that a match notation says what the transcript proves
  salvo export [-o OUT] FILE              write a transcript's match notation (docs/NOTATION.md)
  salvo view FILE                         step through a transcript (audited) or a notation in the viewer
  salvo relay [--listen A] [--bootstrap A]  relay and DHT bootstrap peer for players behind NATs
  salvo netplay --role host|join [--code C | --rendezvous NAME | --mdns] [--bootstrap A] [--relay A]
                                          a bot plays one match over the network (headless;
                                          --watchable lets spectators follow it)
  salvo watch CODE [--plain] [--save FILE]
                                          follow a match its host opened to spectators, checking
                                          every message as it arrives (--plain: as text)
  salvo resume [MATCH | --latest] [--bot LEVEL]
                                          list network matches in progress, or resume one in the
                                          interface (with --bot, a bot plays the rest, headless)
  salvo version
  salvo help [COMMAND]                    this help, or a command's own (its flags); so does COMMAND -h

Games: ` + "%GAMES%" + `

Exit status of selfplay and audit: 0 clean, 1 violation (or forfeit, or unfinished),
2 bad arguments or a file that is not a transcript.
`

func usageText() string {
	return strings.Replace(usage, "%GAMES%", strings.Join(games.Names(), ", "), 1)
}

func versionText() string {
	v := "(devel)"
	rev := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				rev = " " + s.Value
			}
		}
	}
	return fmt.Sprintf("salvo %s%s (protocol %s, transcript %s, games: %s)", v, rev, session.Version, fairness.TranscriptFormat, strings.Join(games.Names(), ", "))
}
