package session

import (
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// Every transcript's name reads as when, which game, against whom, and a
// few digits of the match ID; names from the network never lead it out
// of its folder, nor carry a control or bidi character into a listing.
func TestTranscriptNameIsReadableAndSafe(t *testing.T) {
	created := time.Date(2026, 11, 26, 23, 14, 0, 0, time.UTC)
	id := strings.Repeat("1a2b3c4d", 8)
	h := fairness.Header{Game: "air", Match: id, Created: created.Format(time.RFC3339),
		Players: []fairness.Player{{Name: "ann"}, {Name: "calm-heron"}, {Name: "bob"}}}
	want := created.Local().Format(TranscriptStamp) + "-air-vs-ann+bob-1a2b3c4d.jsonl"
	if got := TranscriptName(h, 1); got != want {
		t.Fatalf("TranscriptName = %q, want %q", got, want)
	}
	if got := TranscriptName(fairness.Header{Game: "ubuild", Match: id}, 0); got != "undated-ubuild-vs-nobody-1a2b3c4d.jsonl" {
		t.Fatalf("a header without a date or players: %q", got)
	}
	hostile := []string{"../../etc/passwd", `..\..\x`, "a/b", "名前\u202eexe.", "\x1b[31mred", "con", ".hidden", "a:b", strings.Repeat("x", 300), "", " "}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var ps []fairness.Player
		for range 2 + r.IntN(3) {
			ps = append(ps, fairness.Player{Name: hostile[r.IntN(len(hostile))] + string(rune(r.IntN(0x3000)))})
		}
		h := fairness.Header{Game: hostile[r.IntN(len(hostile))], Match: hostile[r.IntN(len(hostile))], Created: hostile[r.IntN(len(hostile))], Players: ps}
		seat := engine.Seat(r.IntN(len(ps)))
		n := TranscriptName(h, seat)
		if !storedTranscriptName(n) || strings.Contains(n, "..") || len([]rune(n)) > 140 || n != TranscriptName(h, seat) {
			t.Fatalf("TranscriptName(%+v) = %q", h, n)
		}
		for _, c := range n {
			if c < ' ' || c == 0x7f || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069 {
				t.Fatalf("TranscriptName(%+v) = %q carries %U", h, n, c)
			}
		}
		if filepath.Base(n) != n {
			t.Fatalf("TranscriptName(%+v) = %q leaves its folder", h, n)
		}
	}
}
