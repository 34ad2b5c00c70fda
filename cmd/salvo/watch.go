package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/watch"
)

// watchReport is what `salvo watch --report` writes: the figures the
// tests measure.
type watchReport struct {
	Match     string  `json:"match,omitempty"`
	Lines     int     `json:"lines"`
	Verdict   string  `json:"verdict,omitempty"`
	Summary   string  `json:"summary,omitempty"`
	WatchMS   float64 `json:"watch_ms"` // connected → the record complete (catch-up, for a finished match)
	RelayedTo int64   `json:"relayed_bytes"`
	Error     string  `json:"error,omitempty"`
}

// runWatch is `salvo watch CODE`: follow a match someone plays, checking
// every message as it arrives, and print each with its checks; the hidden
// values show once the final reveal opens them.
func runWatch(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo watch", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf netFlags
	nf.register(fs, "")
	match := fs.String("match", "", "the match ID to watch (default: the one the peer plays)")
	save := fs.String("save", "", "write the verified record here (a transcript: salvo audit reads it)")
	reportPath := fs.String("report", "", "write a JSON report of the watch here")
	linger := fs.Duration("linger", 10*time.Second, "after the end, keep passing the record on to other spectators this long")
	wait := fs.Duration("wait", 2*time.Minute, "how long to wait for the peer's match to start")
	fs.Bool("plain", false, "print the messages as text (the default when the output is no terminal) instead of opening the interface")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo watch [flags] CODE\n\nFollows a match a player's invite CODE points at, if its host allowed\nspectators: every message is checked as it arrives (signatures, the\nchain, openings, rolls, shuffle proofs, state hashes), and passed on to\nother spectators. Stops at the first message that fails, naming it.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	inv, err := p2p.ParseInvite(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "salvo watch: %v\n", err)
		return exitUsage
	}
	np, err := nf.start("spectator", stderr, nil, false)
	if err != nil {
		fmt.Fprintf(stderr, "salvo watch: %v\n", err)
		return exitUsage
	}
	defer np.close()
	rep := &watchReport{}
	defer func() {
		if *reportPath != "" {
			b, _ := json.MarshalIndent(rep, "", "  ")
			if err := writeAtomic(*reportPath, string(b)+"\n"); err != nil {
				fmt.Fprintf(stderr, "salvo watch: report: %v\n", err)
			}
		}
	}()
	target, err := np.h.ConnectInvite(np.ctx, inv)
	if err != nil {
		rep.Error = err.Error()
		fmt.Fprintf(stderr, "salvo watch: %v\n", err)
		return exitViolation
	}
	rec := watch.NewRecord()
	pr := &watchPrinter{w: stdout}
	start := time.Now()
	res, err := watch.Watch(np.ctx, peer.AddrInfo{ID: target}, watch.Config{Host: np.h.Libp2p(), Specs: games.Spec, Match: *match,
		Record: rec, Linger: *linger, Wait: *wait, Log: np.cfg.Logger, Observe: pr.line})
	rep.WatchMS = ms(time.Since(start))
	rep.Lines, _ = rec.Len()
	if *save != "" {
		if serr := saveRecord(*save, rec); serr != nil {
			fmt.Fprintf(stderr, "salvo watch: %v\n", serr)
		}
	}
	if res != nil {
		rep.Match, rep.Verdict, rep.Summary = res.Header.Match, string(res.Verdict), res.Summary()
	}
	defer lingerServing(np, *linger, rep)
	var stop *watch.Stopped
	switch {
	case errors.As(err, &stop):
		rep.Error = stop.Error()
		fmt.Fprintf(stdout, "✗ %s\nstopped: the record is false from here on; nothing after it is shown\n", untrusted.Escape(stop.Error()))
		return exitViolation
	case err != nil:
		rep.Error = err.Error()
		fmt.Fprintf(stderr, "salvo watch: %v\n", err)
		return exitViolation
	}
	pr.reveal(res)
	fmt.Fprintln(stdout, res.Summary())
	return exitOK
}

// plainWatch reports whether salvo watch prints text rather than opening
// the interface: asked for with --plain, or when the output is no
// terminal (a pipe, a file, a test).
func plainWatch(args []string) bool {
	for _, a := range args {
		if a == "--plain" || a == "-plain" || strings.HasPrefix(a, "--plain=") || strings.HasPrefix(a, "-plain=") {
			return true
		}
		if a == "-h" || a == "--help" || a == "-help" {
			return true
		}
	}
	fi, err := os.Stdout.Stat()
	return err != nil || fi.Mode()&os.ModeCharDevice == 0
}

// lingerServing keeps passing the record on to spectators this one serves
// until none is left or linger has passed, and records what it sent.
func lingerServing(np *netPeer, linger time.Duration, rep *watchReport) {
	lingerWhileServing(np.ctx, np.h, linger)
	if s := watch.ServerOf(np.h.Libp2p()); s != nil {
		rep.RelayedTo = s.Sent()
	}
}

// SpectatorLinger bounds how long a headless player stays after its
// match for the spectators it is serving.
const SpectatorLinger = 30 * time.Second

// lingerForSpectators keeps a headless player's host up, after a
// watchable match, for late spectators (stay), and while it serves
// spectators still catching up (SpectatorLinger at most): the record they
// verify is complete only with its last lines.
func lingerForSpectators(ctx context.Context, h *p2p.Host, stay time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(stay):
	}
	lingerWhileServing(ctx, h, SpectatorLinger)
}

// lingerWhileServing returns when h serves no spectator, or after d.
func lingerWhileServing(ctx context.Context, h *p2p.Host, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if s := watch.ServerOf(h.Libp2p()); s == nil || s.Watching() == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// saveRecord writes the verified lines of rec to path.
func saveRecord(path string, rec *watch.Record) error {
	var b []byte
	for _, l := range rec.Lines() {
		b = append(append(b, l...), '\n')
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	return nil
}

// watchPrinter prints each verified message as `salvo audit -v` does.
type watchPrinter struct {
	w     io.Writer
	shown int // steps printed
	said  bool
}

func (p *watchPrinter) line(la *fairness.LiveAudit) {
	rep := la.Report()
	if !p.said {
		h := rep.Header
		fmt.Fprintf(p.w, "watching %s (%s), match %.16s…, %d players; every message is checked before it is shown\n", untrusted.Escape(h.Game), untrusted.Escape(h.Variant), h.Match, len(h.Players))
		p.said = true
	}
	say := seatNamer(rep.Header)
	for _, s := range rep.Steps[p.shown:] {
		printStep(p.w, say, s)
	}
	p.shown = len(rep.Steps)
}

// reveal prints the hidden values the match opened, once it is over.
func (p *watchPrinter) reveal(rep *fairness.Report) {
	if len(rep.Revealed) == 0 {
		return
	}
	fmt.Fprintf(p.w, "revealed: %d hidden values, every one checked against its commitment\n", len(rep.Revealed))
}
