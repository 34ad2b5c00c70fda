package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/group"
)

var long = flag.Bool("long", false, "run every N-player variant and cheat, also under the race detector")

// groupMatches are the full N-player selfplays: the first two always
// (without the race detector), the rest with -long.
var groupMatches = []struct {
	players int
	variant string
}{
	{3, "maxdamage"}, {4, "team"},
	{3, "standard"}, {3, "ffa"}, {4, "ffa"}, {4, "maxdamage"}, {2, "maxdamage"},
}

// `salvo selfplay --game air --players N` plays a whole match among N bots
// on loopback libp2p hosts (a gossipsub topic for three and four): every
// seat's transcript is written, they are all the same, and each audits
// clean. Whole multi-player matches take 20-30 s each under the race
// detector, so there they run only with -long.
func TestGroupSelfplayIsCleanAndAudits(t *testing.T) {
	if raceEnabled && !*long {
		t.Skip("whole multi-player matches under the race detector: run with -long")
	}
	for i, m := range groupMatches {
		if i >= 2 && !*long {
			break
		}
		t.Run(fmt.Sprintf("%d-%s", m.players, m.variant), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "m.jsonl")
			var stdout, stderr bytes.Buffer
			code := run([]string{"selfplay", "--game", "air", "--players", fmt.Sprint(m.players), "--variant", m.variant, "--seed", "4", "--out", out}, &stdout, &stderr)
			if code != exitOK {
				t.Fatalf("selfplay exit %d\n%s%s", code, stdout.String(), stderr.String())
			}
			first, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			all := []string{"audit"}
			for s := range m.players {
				p := seatPath(out, s)
				all = append(all, p)
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(data, first) {
					t.Fatalf("seat %d's transcript differs from seat 0's", s)
				}
				var a bytes.Buffer
				if code := run([]string{"audit", p}, &a, &stderr); code != exitOK || !strings.HasPrefix(a.String(), "clean: ") {
					t.Fatalf("audit %s: exit %d: %s%s", p, code, a.String(), stderr.String())
				}
			}
			var joint bytes.Buffer
			if code := run(all, &joint, &stderr); code != exitOK || !strings.Contains(joint.String(), "together: clean: ") || !strings.Contains(joint.String(), fmt.Sprintf("all %d records agree", m.players)) {
				t.Fatalf("joint audit: exit %d: %s%s", code, joint.String(), stderr.String())
			}
			t.Logf("%s", stdout.String())
		})
	}
}

// The selfplay's command line refuses tables the game does not take and a
// cheat seat that is not at the table.
func TestGroupSelfplayRefusals(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--game", "air", "--players", "5"}, "2 to 4 players, not 5"},
		{[]string{"--game", "ubuild", "--players", "3"}, "2 to 2 players, not 3"},
		{[]string{"--game", "air", "--players", "3", "--cheat", "forged-roll", "--cheat-seat", "3"}, "cheat seat 3"},
		{[]string{"--game", "air", "--players", "3", "--cheat", "no-such"}, "no cheat"},
		{[]string{"--game", "air", "--players", "3", "--bot2", "genius"}, `no "genius" bot`},
		{[]string{"--game", "air", "--players", "3", "--variant", "team"}, "want 4"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"selfplay", "--out", filepath.Join(t.TempDir(), "m.jsonl")}, c.args...)
			if code := run(args, &stdout, &stderr); code != exitUsage {
				t.Fatalf("exit %d, want %d: %s%s", code, exitUsage, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Fatalf("stderr %q, want %q", stderr.String(), c.want)
			}
		})
	}
}

// The N-player report exits 0 only when every seat finished by the rules,
// and says so when a cheat never fired or only some seats caught it.
func TestGroupReport(t *testing.T) {
	done := engine.Outcome{Done: true, Winners: []engine.Seat{1}, Reason: "last squadron flying"}
	viol := &fairness.Violation{Seat: 2, Seq: 9, Err: fmt.Errorf("bad share")}
	clean := func() *fairness.Result { return &fairness.Result{Outcome: done, Sent: 3} }
	caught := func() *fairness.Result { return &fairness.Result{Violation: viol} }
	cases := []struct {
		name    string
		cheat   string
		results []*fairness.Result
		code    int
		want    string
	}{
		{"clean", "", []*fairness.Result{clean(), clean(), clean()}, exitOK, "result: [seat 1] won"},
		{"unfinished", "", []*fairness.Result{clean(), {}, clean()}, exitViolation, "seat 1: the match did not finish"},
		{"caught-by-all", "x", []*fairness.Result{caught(), caught(), {}}, exitViolation, "seat 1 caught a VIOLATION"},
		{"caught-by-some", "x", []*fairness.Result{caught(), clean(), {}}, exitViolation, "only 1 of the 2 other seats caught it"},
		{"never-fired", "x", []*fairness.Result{clean(), clean(), clean()}, exitViolation, "never found a moment to cheat"},
		{"dropped-frames", "", []*fairness.Result{clean(), clean(), clean()}, exitOK, "seat 2's topic: 1 frames dropped"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := groupOptions{selfplayOptions: selfplayOptions{Game: "air", Cheat: c.cheat, Transport: "tcp"}, Players: 3, CheatSeat: 2}
			res := &groupResult{Results: c.results, Paths: []string{"a", "b", "c"}, Wall: time.Second, Topics: make([]group.Stats, 3),
				Cheated: strings.HasPrefix(c.name, "caught-by")}
			if c.name == "dropped-frames" {
				res.Topics[2].Dropped = 1
			}
			var buf bytes.Buffer
			if code := groupReport(&buf, o, res); code != c.code || !strings.Contains(buf.String(), c.want) {
				t.Fatalf("exit %d (want %d):\n%s\nwant %q", code, c.code, buf.String(), c.want)
			}
		})
	}
}

// deckCost reads what the shared deck took from a real transcript.
func TestDeckCostFromTranscript(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.jsonl")
	o := groupOptions{selfplayOptions: selfplayOptions{Game: "air", Seed: 2, Out: out, Cheat: "shot-out-of-cone", Transport: "tcp", Timeout: 20 * time.Second}, Players: 2, CheatSeat: 1}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := groupSelfplay(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	d, err := deckCost(res.Paths[0])
	if err != nil {
		t.Fatal(err)
	}
	// Two seats each shuffle the 60 cards once; each shuffle carries the
	// deck (2 + 64·60 bytes) and its proof (2 + 128·60 + 160 bytes) in
	// base64: at least 15,000 bytes.
	if d.Shuffles != 2 || d.ShufBytes < 2*15000 || d.KeyBytes == 0 || d.UnmaskBytes == 0 || d.OpenBytes == 0 {
		t.Fatalf("deck cost %+v", d)
	}
	if res.Deal <= 0 || res.Deal > res.Wall {
		t.Fatalf("shuffle and deal took %v of %v", res.Deal, res.Wall)
	}
	if _, err := deckCost(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Fatal("a missing transcript gave no error")
	}
}
