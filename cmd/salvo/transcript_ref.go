package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/tui"
)

// findTranscript turns what `salvo audit` was given into a transcript's
// path: a file that exists as given, else a transcript of the data
// directory (every profile's) named as the lobby and `salvo resume` list
// it, with or without ".jsonl", or by its match ID or first 8 digits of
// it (read from the transcript's header, so the transcripts of an older
// Salvo, named by match ID alone, are found too).
func findTranscript(ref string) (string, error) {
	if _, err := os.Stat(ref); err == nil || strings.ContainsAny(ref, `/\`) {
		return ref, nil // the auditor says what is wrong with a path
	}
	base, err := p2p.DataDir()
	if err != nil {
		return "", err
	}
	dirs := []string{filepath.Join(base, tui.MatchesDir)}
	more, _ := filepath.Glob(filepath.Join(base, p2p.ProfilesDir, "*", tui.MatchesDir))
	dirs = append(dirs, more...)
	name := strings.TrimSuffix(ref, ".jsonl")
	byID := len(ref) >= 8 && strings.Trim(strings.ToLower(ref), "0123456789abcdef") == ""
	var hits []string
	for _, d := range dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			file, ok := strings.CutSuffix(e.Name(), ".jsonl")
			if !ok || e.IsDir() {
				continue
			}
			path := filepath.Join(d, e.Name())
			if file == name || byID && strings.HasPrefix(headerMatch(path), strings.ToLower(ref)) {
				hits = append(hits, path)
			}
		}
	}
	switch len(hits) {
	case 0:
		return "", fmt.Errorf("%s: no such file, nor a transcript of that name or match ID in %s", ref, dirs[0])
	case 1:
		return hits[0], nil
	}
	return "", errors.New(ref + " fits " + fmt.Sprint(len(hits)) + " transcripts:\n  " + strings.Join(hits, "\n  "))
}

// headerMatch is the match ID in a transcript's header ("" if unreadable).
func headerMatch(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h, _, err := fairness.ReadTranscript(f)
	if err != nil {
		return ""
	}
	return h.Match
}
