package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

func runAudit(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "list every message with its checks")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo audit [-v] FILE\n\nRe-verifies a match transcript: signatures, the message chain, every opening,\nevery dice roll, a full replay through the rules, the final reveal. Prints\n\"clean\" and the result, or the first violation with the player and message.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "salvo audit: %v\n", err)
		return exitUsage
	}
	defer f.Close()
	rep, err := fairness.Audit(f, games.Spec)
	if err != nil {
		fmt.Fprintf(stderr, "salvo audit: %s: %v\n", fs.Arg(0), err)
		if errors.Is(err, fairness.ErrNotTranscript) {
			return exitUsage
		}
		return exitUsage
	}
	if *verbose {
		for _, s := range rep.Steps {
			mark := "✓"
			if !s.OK {
				mark = "✗"
			}
			fmt.Fprintf(stdout, "%s line %d message %d from %s %v\n", mark, s.Line, s.Seq, s.Seat, s.Inputs)
			for _, e := range s.Events {
				fmt.Fprintf(stdout, "    %s\n", e.Text)
			}
			if s.Error != "" {
				fmt.Fprintf(stdout, "    %s\n", s.Error)
			}
		}
	}
	fmt.Fprintln(stdout, rep.Summary())
	if rep.Verdict == fairness.Clean {
		return exitOK
	}
	return exitViolation
}
