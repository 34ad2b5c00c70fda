package fairness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A new match whose transcript file name collides with a past match's
// (a name keeps only a few digits of the match ID, and a host can search
// nonces for a collision) must not erase the past match's record; a start
// again of the same match replaces its own file as before.
func TestAttack3TranscriptNameCollisionKeepsThePastRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "20261127-010000-ubuild-vs-bob-1a2b3c4d.jsonl")
	past := Header{Game: "ubuild", Match: strings.Repeat("1a2b3c4d", 8)}
	w, err := CreateTranscript(path, past)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)

	forged := Header{Game: "ubuild", Match: "1a2b3c4d" + strings.Repeat("ee", 28)}
	if w, err := CreateTranscript(path, forged); err == nil {
		w.Close()
		t.Fatal("a colliding match was written over the past match's record")
	} else if !strings.Contains(err.Error(), "already holds the record of match") {
		t.Fatalf("refusal does not say why: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the past match's record changed")
	}

	w, err = CreateTranscript(path, past)
	if err != nil {
		t.Fatalf("the same match starting again: %v", err)
	}
	w.Close()
}
