package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
	"github.com/salvo-game/salvo/p2p/session"
)

// selfplayOptions are the settings of one selfplay match.
type selfplayOptions struct {
	Game, Variant string
	Seed          uint64
	Out           string // seat 0's transcript; seat 1's goes beside it
	Cheat         string // a cheat kind for seat 1, or ""
	Bots          [2]string
	Transport     string
	Timeout       time.Duration
	// Delay is a slow link's one-way delay in front of every host (0:
	// plain loopback).
	Delay time.Duration
}

// selfplayResult is what a selfplay match produced.
type selfplayResult struct {
	Results [2]*fairness.Result
	Paths   [2]string
	Wall    time.Duration
	Cheated bool // seat 1's cheat fired (--cheat)
}

func runSelfplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo selfplay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo selfplay [flags]\n\nBots play one match on loopback libp2p hosts in this process, headless, and\nwrite every seat's signed transcript (audit them with salvo audit).")
		fs.PrintDefaults()
	}
	o := selfplayOptions{}
	fs.StringVar(&o.Game, "game", "ubuild", "game: "+strings.Join(games.Names(), ", "))
	fs.StringVar(&o.Variant, "variant", "", "variant (default: the game's first)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the bots' decisions (salts and dice stay truly random)")
	fs.StringVar(&o.Out, "out", "selfplay.jsonl", "transcript of seat 0; the other seats' are written beside it")
	fs.StringVar(&o.Cheat, "cheat", "", "make a seat cheat in this way: seat 1, or --cheat-seat (test only; list: --cheat list)")
	bot0 := fs.String("bot0", "strong", "seat 0's bot: random or strong")
	bot1 := fs.String("bot1", "strong", "seat 1's bot: random or strong")
	fs.StringVar(&o.Transport, "transport", "tcp", "loopback transport: tcp or quic")
	fs.DurationVar(&o.Timeout, "timeout", 30*time.Second, "how long a silent seat has before it forfeits")
	fs.DurationVar(&o.Delay, "delay", 0, "hold every byte this long each way between the hosts (a slow link; tcp only)")
	players := fs.Int("players", 2, "number of bots, 2 to 4 (3 and 4 play over a gossipsub topic)")
	cheatSeat := fs.Int("cheat-seat", -1, "the seat that cheats with --cheat; -1 is the last seat")
	bot2 := fs.String("bot2", "strong", "seat 2's bot, with --players 3 or 4")
	bot3 := fs.String("bot3", "strong", "seat 3's bot, with --players 4")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	o.Bots = [2]string{*bot0, *bot1}
	if o.Cheat == "list" {
		for _, k := range cheat.Kinds(o.Game) {
			fmt.Fprintf(stdout, "%-16s %s\n", k.Name, k.About)
		}
		return exitOK
	}
	if *players != 2 || *cheatSeat >= 0 {
		return runGroupSelfplay(o, *players, *cheatSeat, []string{*bot0, *bot1, *bot2, *bot3}, stdout, stderr)
	}
	res, err := selfplay(context.Background(), o)
	if err != nil {
		fmt.Fprintf(stderr, "salvo selfplay: %v\n", err)
		return exitUsage
	}
	return report(stdout, o, res)
}

func report(w io.Writer, o selfplayOptions, res *selfplayResult) int {
	r0 := res.Results[0]
	fmt.Fprintf(w, "%s %s, seed %d, over loopback %s: %s\n", o.Game, orDefault(o.Variant), o.Seed, o.Transport, res.Wall.Round(time.Millisecond))
	fmt.Fprintf(w, "messages: %d sent by seat 0, %d by seat 1; bytes: %d and %d\n", r0.Sent, res.Results[1].Sent, r0.BytesSent, res.Results[1].BytesSent)
	status := exitOK
	switch {
	case r0.Violation != nil:
		fmt.Fprintf(w, "VIOLATION caught by seat 0: %v\n", r0.Violation)
		status = exitViolation
	case r0.Closing != nil:
		fmt.Fprintf(w, "match stopped: %s by seat %d: %s\n", r0.Closing.Closing, r0.Closing.Seat, r0.Closing.Detail)
		status = exitViolation
	default:
		fmt.Fprintf(w, "result: %s\n", outcomeText(r0.Outcome))
	}
	if o.Cheat != "" && r0.Violation == nil && r0.Closing == nil {
		if res.Cheated {
			fmt.Fprintf(w, "seat 1 cheated (%s) and seat 0 did NOT catch it\n", o.Cheat)
		} else {
			fmt.Fprintf(w, "seat 1 never found a moment to cheat (%s): nothing to catch\n", o.Cheat)
		}
		status = exitViolation
	}
	fmt.Fprintf(w, "transcripts: %s (seat 0), %s (seat 1)\n", res.Paths[0], res.Paths[1])
	return status
}

func orDefault(v string) string {
	if v == "" {
		return "(default variant)"
	}
	return v
}

func outcomeText(o engine.Outcome) string {
	switch {
	case o.Draw:
		return "draw: " + o.Reason
	case len(o.Winners) > 0:
		return fmt.Sprintf("%v won: %s", o.Winners, o.Reason)
	}
	return o.Reason
}

// seatPath returns where seat 1's transcript goes, beside seat 0's.
func seatPath(out string, seat int) string {
	if seat == 0 {
		return out
	}
	ext := filepath.Ext(out)
	return strings.TrimSuffix(out, ext) + fmt.Sprintf(".seat%d", seat) + ext
}

// cheatSeat sets up the cheat kind of game (none if kind is "") for the
// seat of agents that cheats: it wraps that seat's agent if the cheat needs
// to, and returns the cheating seat (nil for none).
func cheatSeat(game, kind string, agents []engine.Agent, seat int) (*cheat.Peer, error) {
	if kind == "" {
		return nil, nil
	}
	k, err := cheat.Lookup(game, kind)
	if err != nil {
		return nil, err
	}
	ch, wrap := k.Peer()
	if wrap != nil {
		agents[seat] = wrap(agents[seat])
	}
	return ch, nil
}

// selfplay plays one match between two bots on two loopback hosts.
func selfplay(ctx context.Context, o selfplayOptions) (*selfplayResult, error) {
	if _, ok := games.Lookup(o.Game); !ok {
		return nil, fmt.Errorf("unknown game %q (games: %s)", o.Game, strings.Join(games.Names(), ", "))
	}
	var agents [2]engine.Agent
	for s := range agents {
		a, err := newBot(o.Game, o.Bots[s], o.Seed, s)
		if err != nil {
			return nil, err
		}
		agents[s] = a
	}
	ch, err := cheatSeat(o.Game, o.Cheat, agents[:], 1)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	pair, err := session.Loopback(ctx, session.LoopbackConfig{
		Offer: session.Offer{Game: o.Game, Variant: o.Variant}, HostName: "bot-a", GuestName: "bot-b", Transport: o.Transport, Delay: o.Delay,
	})
	if err != nil {
		return nil, err
	}
	defer pair.Close()
	res := &selfplayResult{Paths: [2]string{seatPath(o.Out, 0), seatPath(o.Out, 1)}}
	var errs [2]error
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for s := 0; s < 2; s++ {
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			cfg := session.PlayConfig{Key: pair.Keys[s], Agent: agents[s], Transcript: res.Paths[s], Timeout: o.Timeout}
			if s == 1 {
				cfg.Hooks = ch.Hooks()
			}
			res.Results[s], errs[s] = pair.Seats[s].Play(ctx, cfg)
		}(s)
	}
	wg.Wait()
	res.Wall = time.Since(start)
	res.Cheated = ch.Cheated()
	if errs[0] != nil {
		return nil, fmt.Errorf("seat 0: %w", errs[0])
	}
	if errs[1] != nil && ch == nil {
		return nil, fmt.Errorf("seat 1: %w", errs[1])
	}
	if res.Results[1] == nil {
		res.Results[1] = &fairness.Result{}
	}
	return res, nil
}
