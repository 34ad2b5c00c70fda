package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
)

// runResume is `salvo resume`: list the network matches in progress in
// the data directory, or resume one (headless, a bot playing) after this
// peer's process stopped.
func runResume(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo resume", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf netFlags
	nf.register(fs, "off")
	var bo botOptions
	bo.register(fs)
	latest := fs.Bool("latest", false, "resume the most recent match in progress")
	reportPath := fs.String("report", "", "write a JSON report here")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo resume [flags] [MATCH | --latest]\n\nWithout a match: list the matches in progress (in $SALVO_HOME/matches).\nWith one: rejoin it where it stopped; a bot plays the rest.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	dir, err := claimDataDir()
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	defer dir.release()
	nf.dir = dir
	store := dir.store()
	saved, err := store.List()
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	id := fs.Arg(0)
	if id == "" && !*latest {
		n := 0
		for _, s := range saved {
			if !s.InProgress() {
				continue
			}
			n++
			fmt.Fprintf(stdout, "%s  %s %s  seat %d  vs %s  at message %d\n", s.Match, s.Header.Game, s.Header.Variant, s.Seat, s.Remote, s.Seq)
		}
		if n == 0 {
			fmt.Fprintln(stdout, "no match in progress")
		}
		return exitOK
	}
	if *latest {
		for _, s := range saved {
			if s.InProgress() {
				id = s.Match
				break
			}
		}
		if id == "" {
			fmt.Fprintln(stderr, "salvo resume: no match in progress")
			return exitUsage
		}
	}
	sv, err := store.Load(id)
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	if len(nf.listen) == 0 {
		nf.listen = sv.Listen // the same ports, where the other peer looks first
	}
	nf.reuse(sv)
	start := time.Now()
	// The old ports may be taken: then listen anywhere.
	np, err := nf.start("bot-resume", stderr, nil, len(sv.Listen) > 0)
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	defer np.close()
	cfg, ctx, h := np.cfg, np.ctx, np.h
	res := session.NewResumer(h, cfg.Logger)
	defer res.Close()
	rep := &netReport{Role: "resume", Peer: h.ID().String(), Match: id, Remote: sv.Remote.String()}
	defer func() { writeReport(*reportPath, h, rep, stderr) }()
	agent, err := bo.agent(sv.Header.Game, int(sv.Seat))
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	pc, linger := bo.playConfig(cfg, agent, store, rep)
	first := true
	pc.Observe = func(n fairness.Note) {
		if first && (n.Dir == "in" || n.Dir == "out") {
			first = false
			rep.ResumeMS = ms(time.Since(start))
		}
	}
	result, err := session.Resume(ctx, res, id, pc)
	rep.MatchMS = ms(time.Since(start))
	rep.Transcript = store.Transcript(id)
	linger()
	if errors.Is(err, session.ErrMatchOver) {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	return finishReport(rep, result, err, stdout, stderr)
}
