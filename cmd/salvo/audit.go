package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
)

func runAudit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "list every message with its checks")
	notePath := fs.String("notation", "", "check that this match notation (salvo export) says exactly what the one transcript FILE proves")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo audit [-v] FILE [FILE...]\n       salvo audit --notation NOTATION FILE\n\nA FILE not found as given is looked for in $SALVO_HOME/matches by its name\n(as the lobby and salvo resume list it) or its match ID's first 8 digits.\n\nRe-verifies a match transcript: signatures, the message chain, every opening,\nevery dice roll, a full replay through the rules, the final reveal. Prints\n\"clean\" and the result, or the first violation with the player and message.\n\nGiven the records of one match kept by different players, it audits each and\nthen all of them together: a player who signed two versions of one message\nis named, and records that end differently after a lost link are called\n\"disputed\".\n\nWith --notation, it checks a match notation against the transcript FILE:\nexit 0 when the notation says exactly what the signed transcript proves,\n1 naming the first line that says anything else (comments aside).")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() < 1 || *notePath != "" && fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	if *notePath != "" {
		return auditNotation(*notePath, fs.Arg(0), stdout, stderr)
	}
	reps := make([]*fairness.Report, fs.NArg())
	for i, ref := range fs.Args() {
		path, err := findTranscript(ref)
		if err != nil {
			fmt.Fprintf(stderr, "salvo audit: %v\n", err)
			return exitUsage
		}
		rep, err := fairness.AuditFile(path, games.Spec)
		if err != nil {
			fmt.Fprintf(stderr, "salvo audit: %s: %v\n", path, err)
			return exitUsage
		}
		reps[i] = rep
		if *verbose {
			printSteps(stdout, rep)
		}
		if fs.NArg() > 1 {
			fmt.Fprintf(stdout, "%s: ", path)
		}
		fmt.Fprintln(stdout, rep.Summary())
	}
	if len(reps) == 1 {
		if reps[0].Verdict == fairness.Clean {
			return exitOK
		}
		return exitViolation
	}
	j, err := fairness.AuditJoint(reps)
	if err != nil {
		fmt.Fprintf(stderr, "salvo audit: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "together: %s\n", j.Summary())
	if j.Verdict == fairness.Clean {
		return exitOK
	}
	return exitViolation
}

// printSteps lists every message of an audit with what was checked.
// Seats are named by their players (a reader of the listing knows ann and
// bob, not "seat 0"); the names come from the file and are escaped.
func printSteps(w io.Writer, rep *fairness.Report) {
	name := seatNamer(rep.Header)
	for _, s := range rep.Steps {
		printStep(w, name, s)
	}
}

// printStep lists one message with what was checked (salvo audit -v,
// salvo watch), its seats named by name.
func printStep(w io.Writer, name func(engine.Seat) string, s fairness.AuditStep) {
	mark := "✓"
	if !s.OK {
		mark = "✗"
	}
	fmt.Fprintf(w, "%s line %d message %d from %s %v\n", mark, s.Line, s.Seq, name(s.Seat), s.Inputs)
	for _, e := range s.Events {
		fmt.Fprintf(w, "    %s\n", e.Say(name))
	}
	if s.Error != "" {
		fmt.Fprintf(w, "    %s\n", s.ErrorWords().Say(name))
	}
}

// seatNamer returns a function that names a seat by its player (escaped),
// for the seats texts keep apart ([engine.Words]); a seat without a name
// keeps its number.
func seatNamer(h fairness.Header) func(engine.Seat) string {
	return func(s engine.Seat) string {
		if s < 0 || int(s) >= len(h.Players) || h.Players[s].Name == "" {
			return s.String()
		}
		return untrusted.Escape(h.Players[s].Name)
	}
}
