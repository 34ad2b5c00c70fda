package session

import (
	"bytes"
	"math/rand/v2"
	"os"
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

// The store finds a match by its match ID, its first digits, or its
// transcript's name, whether the transcript has its readable name or the
// <match ID>.jsonl of an older Salvo; TranscriptFor names a new match's
// file as PlayNet will.
func TestStoreFindsMatchesByIDOrName(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	var ids []string
	for i, golden := range []string{"ubuild-standard.jsonl", "ubuild-classic.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "fairness", "testdata", golden))
		if err != nil {
			t.Fatal(err)
		}
		h, _, err := fairness.ReadTranscript(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		pr := peerRecord{Match: h.Match, Remote: h.Players[1].Peer, Ended: endedOver, Seq: 1}
		file := h.Match + ".jsonl" // stored by an older Salvo
		if i == 0 {
			pr.Transcript = TranscriptName(h, 0)
			file = pr.Transcript
			if got := s.TranscriptFor(h, 0); got != filepath.Join(s.Dir, file) {
				t.Fatalf("TranscriptFor a new match = %s, want %s", got, file)
			}
		}
		if err := os.WriteFile(filepath.Join(s.Dir, file), b, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := s.writePeer(pr); err != nil {
			t.Fatal(err)
		}
		if s.Transcript(h.Match) != filepath.Join(s.Dir, file) || s.TranscriptFor(h, 0) != filepath.Join(s.Dir, file) {
			t.Fatalf("match %d: Transcript %s, TranscriptFor %s, want %s", i, s.Transcript(h.Match), s.TranscriptFor(h, 0), file)
		}
		if sv, err := s.Load(h.Match); err != nil || sv.Header.Match != h.Match {
			t.Fatalf("Load %d: %+v %v", i, sv, err)
		}
		ids = append(ids, h.Match)
	}
	for _, c := range []struct{ ref, want string }{
		{ids[0], ids[0]}, {ids[0][:8], ids[0]}, {ids[1][:12], ids[1]},
		{strings.TrimSuffix(filepath.Base(s.Transcript(ids[0])), ".jsonl"), ids[0]},
		{filepath.Base(s.Transcript(ids[0])), ids[0]},
		{ids[1] + ".jsonl", ids[1]},
		{ids[0][:4], ""}, {"nope", ""},
	} {
		got, err := s.Lookup(c.ref)
		if got != c.want || (err != nil) != (c.want == "") {
			t.Errorf("Lookup(%q) = %q, %v; want %q", c.ref, got, err, c.want)
		}
	}
}
