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
//	salvo version
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
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
	switch cmd {
	case "selfplay":
		return runSelfplay(args, stdout, stderr)
	case "audit":
		return runAudit(args, stdout, stderr)
	case "relay":
		return runRelay(args, stdout, stderr)
	case "netplay":
		return runNetplay(args, stdout, stderr)
	case "resume":
		return runResume(args, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, versionText())
		return exitOK
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usageText())
		return exitOK
	}
	return runInteractive(cmd, args, stdout, stderr)
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
  salvo relay [--listen A] [--bootstrap A]  relay and DHT bootstrap peer for players behind NATs
  salvo netplay --role host|join [--code C | --rendezvous NAME | --mdns] [--bootstrap A] [--relay A]
                                          a bot plays one match over the network (headless)
  salvo resume [MATCH | --latest]         list network matches in progress, or resume one
  salvo version

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
