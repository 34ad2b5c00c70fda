package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui"
)

// runResume is `salvo resume`: list the network matches in progress in
// the data directory, or resume one after this peer's program stopped:
// in the interface, for the player, where the match stands; headless with
// a bot playing for the player only when --bot names one.
func runResume(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo resume", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf netFlags
	nf.register(fs, "")
	var bo botOptions
	bo.register(fs, "")
	latest := fs.Bool("latest", false, "resume the most recent match in progress")
	reportPath := fs.String("report", "", "with --bot: write a JSON report here")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo resume [flags] [MATCH | --latest]\n\nWithout a match: list the matches in progress (in $SALVO_HOME/matches).\nWith one (its transcript's name as listed, or its match ID or first 8 digits): rejoin it where it stopped, in the interface; with --bot LEVEL,\na bot plays the rest for you, headless.")
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
	defer func() { dir.release() }()
	saved, err := dir.store().List()
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	id := fs.Arg(0)
	if id == "" && !*latest {
		listInProgress(dir.store(), saved, stdout)
		return exitOK
	}
	if id != "" {
		if id, err = dir.store().Lookup(id); err != nil {
			fmt.Fprintf(stderr, "salvo resume: %v\n", err)
			return exitUsage
		}
	}
	if *latest {
		if id = latestInProgress(saved); id == "" {
			fmt.Fprintln(stderr, "salvo resume: no match in progress")
			return exitUsage
		}
	}
	if sv, err := dir.store().Load(id); err != nil || !sv.InProgress() {
		if err == nil {
			err = fmt.Errorf("match %.12s… cannot go on: %w (%s)", id, session.ErrMatchOver, stopReason(sv))
		}
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	if bo.level == "" {
		// The interface claims the data directory again, for itself.
		dir.release()
		dir = &dataDir{release: func() {}}
		return resumeInInterface(id, nf, bo, stderr)
	}
	nf.dir = dir
	return resumeHeadless(id, nf, bo, *reportPath, stdout, stderr)
}

// stopReason says how a stored match that cannot go on ended.
func stopReason(sv session.Saved) string {
	if sv.Over {
		return "it ended by the rules"
	}
	return sv.StopReason
}

// listInProgress prints the matches of the store that can be resumed.
// Each is named as its transcript is (what `salvo resume NAME` and
// `salvo audit NAME` take), then its game, seat, opponent and progress.
func listInProgress(store session.Store, saved []session.Saved, stdout io.Writer) {
	n := 0
	for _, s := range saved {
		if !s.InProgress() {
			continue
		}
		n++
		name := strings.TrimSuffix(filepath.Base(store.Transcript(s.Match)), ".jsonl")
		fmt.Fprintf(stdout, "%s  %s %s  seat %d  vs %s  at message %d\n", name, s.Header.Game, s.Header.Variant, s.Seat, s.Remote, s.Seq)
	}
	if n == 0 {
		fmt.Fprintln(stdout, "no match in progress")
	}
}

// latestInProgress is the newest match of saved in progress ("": none).
func latestInProgress(saved []session.Saved) string {
	for _, s := range saved {
		if s.InProgress() {
			return s.Match
		}
	}
	return ""
}

// resumeInInterface opens the interface on the match, where it stands, as
// the lobby's resume row does (tui.StartResume): the player plays on.
func resumeInInterface(id string, nf netFlags, bo botOptions, stderr io.Writer) int {
	cfg := tui.Config{Start: tui.StartResume, Resume: id, Name: os.Getenv("SALVO_NAME"), MDNS: nf.mdns,
		GiveUp: bo.giveUp, ListenAddrs: nf.listen, Relays: nf.relays, Bootstrap: nf.bootstrap,
		LANOnly: nf.lanOnly, PublicBootstrap: p2p.PublicBootstrap()}
	return openInterface("salvo resume", cfg, nf.logPath, stderr)
}

// resumeHeadless resumes the match with a bot playing for this peer,
// headless; an interrupt or SIGTERM suspends it again at once.
func resumeHeadless(id string, nf netFlags, bo botOptions, reportPath string, stdout, stderr io.Writer) int {
	store := nf.dir.store()
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
	defer func() { writeReport(reportPath, h, rep, stderr) }()
	agent, err := bo.agent(sv.Header.Game, int(sv.Seat))
	if err != nil {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	pc := bo.playConfig(cfg, agent, store)
	pc.Observe = func(n fairness.Note) {
		// The first message past the transcript's (the replayed ones come first).
		if rep.ResumeMS == 0 && n.Seq > sv.Seq && (n.Dir == "in" || n.Dir == "out") {
			rep.ResumeMS = ms(time.Since(start))
		}
	}
	result, err := playOut(session.ResumeMatch(ctx, res, id, pc), rep, start)
	rep.Transcript = store.Transcript(id)
	if errors.Is(err, session.ErrMatchOver) {
		fmt.Fprintf(stderr, "salvo resume: %v\n", err)
		return exitUsage
	}
	return finishReport(rep, result, err, stdout, stderr)
}
