package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui"
	"github.com/salvo-game/salvo/tui/invite"
)

// processStart is taken as early as the main package allows, for the
// start-up probe.
var processStart = time.Now()

// startupProbeEnv names a file: when set, the interface writes how long it
// took to draw the lobby into it and exits (for start-up measurements).
const startupProbeEnv = "SALVO_STARTUP_PROBE"

// interactiveOptions are the settings shared by salvo, play, host and join.
type interactiveOptions struct {
	name, game, variant, bot, vs, cheat, logPath, listen, relays, bootstrap string
	seed                                                                    uint64
	players                                                                 int
	mdns, lanOnly, watchable                                                bool
	timeout, giveUp                                                         time.Duration
}

// runInteractive opens the terminal interface for the lobby, play, host and
// join.
func runInteractive(cmd string, args []string, stdout, stderr io.Writer) int {
	if strings.HasPrefix(cmd, "-") {
		// Flags of the lobby: salvo --name x.
		cmd, args = "", append([]string{cmd}, args...)
	}
	start := tui.StartLobby
	switch cmd {
	case "":
	case "play":
		start = tui.StartPractice
	case "host":
		start = tui.StartHost
	case "join":
		start = tui.StartJoin
	case "view":
		start = tui.StartAudit
	case "watch":
		start = tui.StartWatch
	default:
		fmt.Fprintf(stderr, "salvo: unknown command %q\n\n%s", cmd, usageText())
		return exitUsage
	}
	name := "salvo"
	if cmd != "" {
		name = "salvo " + cmd
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := interactiveOptions{}
	fs.StringVar(&o.name, "name", os.Getenv("SALVO_NAME"), "your display name (default: the saved settings', or made up from your peer ID; env SALVO_NAME)")
	if cmd != "join" { // a joiner plays what the host offers
		fs.StringVar(&o.game, "game", "", "game: "+strings.Join(games.Names(), ", ")+" (default: the saved settings', or the first)")
		fs.StringVar(&o.variant, "variant", "", "variant (default: the game's first)")
	}
	fs.StringVar(&o.logPath, "log", "", "log file (default: salvo.log in the data directory)")
	fs.StringVar(&o.listen, "listen", "", "comma-separated multiaddrs to listen on (default: every interface, TCP and QUIC)")
	fs.BoolVar(&o.mdns, "mdns", true, "announce yourself on the LAN and list LAN peers (mDNS)")
	fs.StringVar(&o.relays, "relay", "", "comma-separated circuit relays (multiaddrs ending in /p2p/<ID>) to be reachable through from behind a NAT")
	fs.StringVar(&o.bootstrap, "bootstrap", "", "comma-separated peers to join the DHT through, instead of the public network's bootstrap peers")
	fs.BoolVar(&o.lanOnly, "lan-only", false, "stay off the public network (no short invite codes, no relays found there); also the setting lan_only")
	fs.DurationVar(&o.timeout, "timeout", 0, "how long the other player may take for one step before forfeiting (default 10m, 1m for a bot)")
	fs.DurationVar(&o.giveUp, "give-up", 0, "how long the other player of a network match may stay unreachable before forfeiting (default 2m)")
	if cmd == "" || cmd == "host" {
		fs.BoolVar(&o.watchable, "watchable", false, "let spectators follow the matches you host (salvo watch CODE; in the lobby: w)")
	}
	if cmd != "join" { // a joiner sits at the host's table
		fs.IntVar(&o.players, "players", 0, "table size for games played by more than two, such as air (2-4; default 2)")
	}
	if cmd == "" || cmd == "play" {
		fs.StringVar(&o.vs, "vs", "bot", "opponent: bot (practice over loopback libp2p)")
		fs.StringVar(&o.bot, "bot", "", "bot level: "+strings.Join(games.BotLevels, ", ")+" (default: the saved settings', or "+tui.DefaultBot+")")
		fs.Uint64Var(&o.seed, "seed", 0, "seed of the bot's decisions (0: random)")
		fs.StringVar(&o.cheat, "bot-cheat", "", "make the practice bot cheat in this way, to see it caught (demonstration; list: salvo selfplay --cheat list)")
	}
	fs.Usage = func() {
		switch cmd {
		case "play":
			fmt.Fprintln(stderr, "usage: salvo play [--game G] [--variant V] [--players N] [--vs bot] [--bot LEVEL]\n\nPractice against a bot (or N-1 bots): more libp2p hosts start in this\nprocess and the whole protocol runs over real loopback connections.")
		case "host":
			fmt.Fprintln(stderr, "usage: salvo host [--game G] [--variant V] [--players N] [--relay ADDR] [--bootstrap ADDR]\n\nHost a game: shows an invite code to give the other players, whether\nthis peer is reachable, and waits. A dropped link is resumed; a match\nleft running when Salvo stops is resumed from the lobby.")
		case "view":
			fmt.Fprintln(stderr, "usage: salvo view [flags] FILE\n\nOpens the match viewer on a transcript, audited as salvo audit does, or on\na match notation (salvo export), shown as unverified: a notation alone\nproves nothing until salvo audit --notation checks it against its transcript.")
		case "join":
			fmt.Fprintln(stderr, "usage: salvo join [flags] CODE\n\nJoin a hosted game by its invite code (--relay and --bootstrap help\nbehind NATs and when the code's addresses went stale).")
		default:
			fmt.Fprintln(stderr, "usage: salvo [flags]\n\nOpens the lobby: practice, host, join, LAN peers, recent matches, audits.")
		}
		fs.PrintDefaults()
	}
	// Flags may come after the arguments too: salvo join CODE --name bob.
	var rest []string
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	cfg := tui.Config{Start: start, Name: o.name, Game: o.game, Variant: o.variant, Bot: o.bot, BotSeed: o.seed,
		BotCheat: o.cheat, MDNS: o.mdns, Timeout: o.timeout, GiveUp: o.giveUp, Players: o.players,
		LANOnly: o.lanOnly, PublicBootstrap: p2p.PublicBootstrap(), Watchable: o.watchable}
	switch {
	case (cmd == "join" || cmd == "watch") && len(rest) >= 1:
		code := strings.Join(rest, " ") // a code pasted with spaces
		if _, err := invite.Parse(code); err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return exitUsage
		}
		cfg.Code = code
	case cmd == "join" || cmd == "watch" || cmd == "view" && len(rest) != 1:
		fs.Usage()
		return exitUsage
	case cmd == "view":
		path, err := findTranscript(rest[0])
		if err != nil {
			fmt.Fprintf(stderr, "salvo view: %v\n", err)
			return exitUsage
		}
		cfg.File = path
	case len(rest) > 0:
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, rest[0])
		return exitUsage
	}
	if o.vs != "" && o.vs != "bot" {
		fmt.Fprintf(stderr, "%s: --vs %q: only bot is supported (host or join to play a person)\n", name, o.vs)
		return exitUsage
	}
	if err := checkChoices(o); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	if err := untrusted.ValidateName(o.name); err != nil {
		fmt.Fprintf(stderr, "%s: --name (or SALVO_NAME): %v; a name has at most %d characters and no control or format characters\n", name, err, untrusted.MaxNameRunes)
		return exitUsage
	}
	if o.listen != "" {
		cfg.ListenAddrs = strings.Split(o.listen, ",")
	}
	if o.relays != "" {
		cfg.Relays = strings.Split(o.relays, ",")
	}
	if o.bootstrap != "" {
		cfg.Bootstrap = strings.Split(o.bootstrap, ",")
	}
	return openInterface(name, cfg, o.logPath, stderr)
}

// openInterface runs the terminal interface with cfg until the player
// quits: the identity and the log come from the data directory. An
// interrupt or SIGTERM stops it as quitting does (a network match is
// suspended, resumable), so a signal always ends the program promptly.
func openInterface(name string, cfg tui.Config, logPath string, stderr io.Writer) int {
	closeLog, err := setupInteractive(&cfg, logPath)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	defer closeLog()
	if probe := os.Getenv(startupProbeEnv); probe != "" {
		cfg.OnFirstDraw = startupProbe(probe)
	}
	if interfaceScreen != nil {
		cfg.Screen = interfaceScreen()
	}
	app, err := newApp(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	if probe := os.Getenv(startupProbeEnv); probe != "" {
		go func() { <-probeDone; app.Stop() }()
	}
	if err := checkTerminal(); err != nil {
		fmt.Fprintf(stderr, noTerminal, name, err)
		return exitViolation
	}
	sig, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-sig.Done(); app.Stop() }()
	if err := app.Run(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return exitViolation
	}
	return exitOK
}

// newApp builds the interface; tests read the Config it is given.
var newApp = tui.New

// interfaceScreen, when set, makes the screen the interface draws on
// (tests set a tcell simulation screen); nil is the terminal.
var interfaceScreen func() tcell.Screen

// checkTerminal checks, before the interface starts, that there is a
// terminal to draw on (tests replace it).
var checkTerminal = openTerminal

// noTerminal is what the interactive commands say without a terminal,
// instead of tcell's bare "open /dev/tty: no such device or address".
const noTerminal = `%s: the interface needs a terminal, and this process has none (%v).
Without a terminal, use the headless commands:
  salvo selfplay --game G      bots play a match on this machine
  salvo netplay --role host    a bot plays a match over the network (--role join --code C to join)
  salvo audit FILE             re-verify a match transcript
`

// checkChoices checks the game, variant and bot level named on the
// command line, and when one is unknown says so with the valid values.
func checkChoices(o interactiveOptions) error {
	game := o.game
	if game == "" {
		game = games.Names()[0]
	}
	entry, ok := games.Lookup(game)
	if !ok {
		return fmt.Errorf("--game %q: unknown game; the games are: %s", o.game, strings.Join(games.Names(), ", "))
	}
	if o.variant != "" && !slices.Contains(entry.Spec.Variants, o.variant) {
		return fmt.Errorf("--variant %q: %s has no such variant; its variants are: %s", o.variant, game, strings.Join(entry.Spec.Variants, ", "))
	}
	if _, ok := entry.Bots[o.bot]; o.bot != "" && !ok {
		return fmt.Errorf("--bot %q: unknown bot level; the levels are: %s", o.bot, strings.Join(games.BotLevels, ", "))
	}
	return nil
}

// setupInteractive loads the identity and sends every log (libp2p's too)
// to a file in the data directory, never to the terminal the interface
// draws on.
func setupInteractive(cfg *tui.Config, logPath string) (func(), error) {
	dir, err := claimDataDir()
	if err != nil {
		return nil, err
	}
	cfg.DataDir, cfg.Profile = dir.path, dir.profile
	if logPath == "" {
		logPath = filepath.Join(dir.path, "salvo.log")
	}
	f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		dir.release()
		return nil, fmt.Errorf("log file: %w", err)
	}
	logger := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo}))
	slog.SetDefault(logger)
	log.SetOutput(f)
	cfg.Logger = logger
	key, err := dir.key()
	if err != nil {
		f.Close()
		dir.release()
		return nil, err
	}
	cfg.Key = key
	return func() { f.Close(); dir.release() }, nil
}

var probeDone = make(chan struct{})

// startupProbe writes the time from process start to the first draw of the
// lobby into path, then lets the interface stop.
func startupProbe(path string) func() {
	return func() {
		d := time.Since(processStart)
		err := os.WriteFile(path, []byte(strconv.FormatInt(d.Microseconds(), 10)+"\n"), 0o600)
		if err != nil {
			slog.Error("start-up probe", "err", errors.Unwrap(err))
		}
		close(probeDone)
	}
}
