package session

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// One naming scheme for every transcript, network or practice, two
// players or four: a reader of the matches folder (or of `ls`) knows a
// match by when it started, the game and whom it was against, not by a
// 64-digit hash. The match ID's first digits keep two matches of the
// same second apart. The store finds a network match's file by its match
// ID through the peer record (Transcript, below), which keeps the name.

// TranscriptStamp is the layout of the date and time a transcript's name
// starts with (local time, so a listing reads as the player's clock).
const TranscriptStamp = "20060102-150405"

// transcriptIDDigits is how many digits of the match ID a name keeps.
const transcriptIDDigits = 8

// TranscriptName is the file name (no folder) of the transcript seat
// keeps of the match h: "20261126-231400-ubuild-vs-calm-heron-1a2b3c4d.jsonl",
// several opponents joined by "+". It depends on the header alone (its
// Created time, set by the host), so every part of the program that
// names the same match names the same file. Names come from other peers:
// only letters, digits and '-' are kept, each name is shortened, and the
// result never leaves its folder.
func TranscriptName(h fairness.Header, seat engine.Seat) string {
	when := "undated"
	if t, err := time.Parse(time.RFC3339, h.Created); err == nil {
		when = t.Local().Format(TranscriptStamp)
	}
	var opp []string
	for s, p := range h.Players {
		if engine.Seat(s) != seat {
			opp = append(opp, fileWord(p.Name, 24))
		}
	}
	who := fileWord(strings.Join(opp, "+"), 60)
	if who == "" {
		who = "nobody"
	}
	return fmt.Sprintf("%s-%s-vs-%s-%s.jsonl", when, fileWord(h.Game, 16), who, fileWord(h.Match, transcriptIDDigits))
}

// fileWord cleans a string for a file name: letters, digits, '-' and '+'
// stay; any other rune (a separator, a dot, a control or bidi character,
// a space) becomes '_'; it keeps at most n runes.
func fileWord(s string, n int) string {
	out := make([]rune, 0, min(len(s), n))
	for _, r := range s {
		if len(out) == n {
			break
		}
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '-', r == '+':
			out = append(out, r)
		default:
			out = append(out, '_')
		}
	}
	return string(out)
}

// storedTranscriptName reports whether name (from a peer record) is a
// transcript's file name in the store's folder: a base name ending in
// .jsonl, not hidden.
func storedTranscriptName(name string) bool {
	return name != "" && filepath.Base(name) == name && !strings.HasPrefix(name, ".") &&
		!strings.ContainsAny(name, `/\:`) && strings.HasSuffix(name, ".jsonl")
}

// minRefDigits is the shortest match-ID prefix Lookup takes: the digits a
// transcript's name carries.
const minRefDigits = transcriptIDDigits

// Lookup finds a match of the store by what a player may type: its match
// ID, the first digits of it (at least those a transcript's name shows),
// or its transcript's file name, with or without ".jsonl". It names the
// candidates when ref fits more than one match.
func (s Store) Lookup(ref string) (string, error) {
	if validMatchID(ref) {
		return ref, nil
	}
	saved, err := s.List()
	if err != nil {
		return "", err
	}
	name := strings.TrimSuffix(filepath.Base(ref), ".jsonl")
	var hits []string
	for _, sv := range saved {
		file := strings.TrimSuffix(filepath.Base(s.Transcript(sv.Match)), ".jsonl")
		if file == name || len(ref) >= minRefDigits && strings.HasPrefix(sv.Match, strings.ToLower(ref)) {
			hits = append(hits, sv.Match)
		}
	}
	switch len(hits) {
	case 0:
		return "", fmt.Errorf("session: no match %q in %s (give its transcript's name or at least %d digits of its match ID)", ref, s.Dir, minRefDigits)
	case 1:
		return hits[0], nil
	}
	return "", fmt.Errorf("session: %q fits %d matches; give more digits of the match ID", ref, len(hits))
}
