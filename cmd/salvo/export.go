package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/notation"
)

// runExport writes the match notation of a transcript (docs/NOTATION.md).
func runExport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the notation to this file instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo export [-o OUT] FILE\n\nWrites the match notation of a transcript: a text record for people (as\nchess has PGN), with the players, the result and every move, roll and\neffect in the game's own terms (docs/NOTATION.md). FILE is found as salvo\naudit finds it. The notation is built from a full audit of the transcript,\nand its Verdict tag says what the audit found. Check a notation someone\nhands you with: salvo audit --notation NOTATION TRANSCRIPT")
		fs.PrintDefaults()
	}
	// Flags may come after the file too: salvo export m.jsonl -o m.salvo.
	var files []string
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		files, args = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	if len(files) != 1 {
		fs.Usage()
		return exitUsage
	}
	path, err := findTranscript(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "salvo export: %v\n", err)
		return exitUsage
	}
	n, err := notationOf(path)
	if err != nil {
		fmt.Fprintf(stderr, "salvo export: %s: %v\n", path, err)
		return exitUsage
	}
	w, closeOut := stdout, func() error { return nil }
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(stderr, "salvo export: %v\n", err)
			return exitUsage
		}
		w, closeOut = f, f.Close
	}
	_, err = n.WriteTo(w)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "salvo export: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// notationOf audits the transcript at path and returns its notation.
func notationOf(path string) (*notation.Notation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	n, _, err := notation.FromTranscript(f, games.Spec)
	return n, err
}

// auditNotation checks that the notation at notePath says exactly what the
// transcript ref proves: exit 0 when it does, 1 naming the first line that
// differs, 2 for a file that is neither a notation nor a transcript.
func auditNotation(notePath, ref string, stdout, stderr io.Writer) int {
	path, err := findTranscript(ref)
	if err != nil {
		fmt.Fprintf(stderr, "salvo audit: %v\n", err)
		return exitUsage
	}
	nf, err := os.Open(notePath)
	if err != nil {
		fmt.Fprintf(stderr, "salvo audit: %v\n", err)
		return exitUsage
	}
	defer nf.Close()
	tf, err := os.Open(path)
	if err != nil {
		fmt.Fprintf(stderr, "salvo audit: %v\n", err)
		return exitUsage
	}
	defer tf.Close()
	err = notation.CheckTranscript(nf, tf, games.Spec)
	var mm *notation.Mismatch
	var syn *notation.SyntaxError
	switch {
	case err == nil:
		fmt.Fprintf(stdout, "%s says exactly what %s proves\n", notePath, path)
		return exitOK
	case errors.As(err, &mm):
		fmt.Fprintf(stdout, "%s: %v\n", notePath, mm)
		return exitViolation
	case errors.As(err, &syn):
		fmt.Fprintf(stderr, "salvo audit: %s: %v\n", notePath, syn)
		return exitUsage
	case errors.Is(err, fairness.ErrNotTranscript):
		fmt.Fprintf(stderr, "salvo audit: %s: %v\n", path, err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "salvo audit: %v\n", err)
	return exitUsage
}
