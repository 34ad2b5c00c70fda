package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
)

// gameCheatBots are the bots of the cheat matches of each game: the cheat
// fires early in most kinds, but a few (a stacked deck never drawn, a strength
// first opened at the final reveal) wait for the end of the match.
var gameCheatBots = map[string][2]string{
	"cards":  {"strong", "strong"},
	"oceans": {"strong", "strong"},
	"sea":    {"random", "random"},
}

// Every cheat kind of the card games and Mission Command Sea, generic and
// game-specific, between two real libp2p peers on 127.0.0.1: the cheat
// fires, the honest seat stops the match at that message with a violation
// naming seat 1 (a timeout for go-silent), selfplay exits non-zero, and the
// audit of the honest seat's transcript names seat 1 and the same message.
func TestGameCheatsAreCaughtLiveAndByAudit(t *testing.T) {
	for _, game := range []string{"cards", "oceans", "sea"} {
		for _, k := range cheat.Kinds(game) {
			t.Run(game+"/"+k.Name, func(t *testing.T) {
				t.Parallel()
				checkCheatCaught(t, game, k.Name)
			})
		}
	}
}

// cheatAttempts bounds the matches played for one cheat kind.
const cheatAttempts = 4

func checkCheatCaught(t *testing.T, game, kind string) {
	t.Helper()
	dir := t.TempDir()
	o := selfplayOptions{Game: game, Seed: 7, Cheat: kind, Bots: gameCheatBots[game], Transport: "tcp", Timeout: 45 * time.Second}
	if kind == cheat.Silent {
		o.Timeout = 2 * time.Second
	}
	var res *selfplayResult
	for attempt := 1; ; attempt++ {
		// The dice are truly random, and a few cheats need the match to
		// give them a chance (a destroyer can fire twice only while both
		// destroyers are afloat and one has a target): play again if it
		// gave none, a bounded number of times.
		o.Out = filepath.Join(dir, fmt.Sprintf("m%d.jsonl", attempt))
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		r, err := selfplay(ctx, o)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		res = r
		if res.Cheated || attempt == cheatAttempts {
			break
		}
		t.Logf("match %d gave the cheat no chance (%s); playing another", attempt, res.Results[0].Outcome.Reason)
	}
	var buf bytes.Buffer
	if code := report(&buf, o, res); code != exitViolation {
		t.Fatalf("selfplay exit %d, want %d:\n%s", code, exitViolation, buf.String())
	}
	if !res.Cheated {
		t.Fatalf("the cheat never fired in %d matches:\n%s", cheatAttempts, buf.String())
	}
	rep := auditPath(t, o.Out)
	if kind == cheat.Silent {
		c := res.Results[0].Closing
		if c == nil || c.Closing != fairness.CloseTimeout || c.Seat != 1 {
			t.Fatalf("closing = %+v, want a timeout blaming seat 1", c)
		}
		if rep.Verdict != fairness.Forfeit {
			t.Fatalf("audit: %s", rep.Summary())
		}
		t.Logf("live: %s by seat %d: %s\naudit: %s", c.Closing, c.Seat, c.Detail, rep.Summary())
		return
	}
	v := res.Results[0].Violation
	if v == nil || v.Seat != 1 {
		t.Fatalf("honest seat's violation = %v\n%s", v, buf.String())
	}
	if rep.Verdict != fairness.Violated || rep.Violation.Seat != 1 || rep.Violation.Seq != v.Seq {
		t.Fatalf("audit: %s; live: %v", rep.Summary(), v)
	}
	t.Logf("live: %v\naudit: %s", v, rep.Summary())
}
