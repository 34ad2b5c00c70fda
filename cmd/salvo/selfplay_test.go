package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/cheat"
)

// These tests run real matches between two libp2p hosts on 127.0.0.1.

func TestSelfplayMatchIsCleanAndAudits(t *testing.T) {
	for _, c := range []struct{ game, variant string }{
		{"ubuild", "standard"}, {"ubuild", "custom"}, {"ubuild", "classic"},
		{"cards", "standard"}, {"cards", "beginner"}, {"oceans", "standard"}, {"sea", "standard"}, {"air", "standard"},
	} {
		t.Run(c.game+"/"+c.variant, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "m.jsonl")
			var stdout, stderr bytes.Buffer
			code := run([]string{"selfplay", "--game", c.game, "--variant", c.variant, "--seed", "3", "--out", out}, &stdout, &stderr)
			if code != exitOK {
				t.Fatalf("selfplay exit %d\n%s%s", code, stdout.String(), stderr.String())
			}
			for _, p := range []string{out, seatPath(out, 1)} {
				stdout.Reset()
				if code := run([]string{"audit", p}, &stdout, &stderr); code != exitOK {
					t.Fatalf("audit %s exit %d: %s%s", p, code, stdout.String(), stderr.String())
				}
				if !strings.HasPrefix(stdout.String(), "clean: ") {
					t.Fatalf("audit says %q", stdout.String())
				}
			}
			a, _ := os.ReadFile(out)
			b, _ := os.ReadFile(seatPath(out, 1))
			if !bytes.Equal(a, b) {
				t.Fatal("the two seats' transcripts differ")
			}
			stdout.Reset()
			if code := run([]string{"audit", out, seatPath(out, 1)}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "\ntogether: clean: ") {
				t.Fatalf("joint audit exit %d: %s%s", code, stdout.String(), stderr.String())
			}
		})
	}
}

// Every cheat kind: the honest seat stops the match at the cheat with the
// evidence, selfplay exits non-zero, and the audit of the honest seat's
// transcript names seat 1 and the message.
func TestEveryCheatIsCaughtLiveAndByAudit(t *testing.T) {
	for _, k := range cheat.Kinds("ubuild") {
		t.Run(k.Name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "m.jsonl")
			o := selfplayOptions{Game: "ubuild", Seed: 5, Out: out, Cheat: k.Name, Bots: [2]string{"strong", "strong"}, Transport: "tcp", Timeout: 10 * time.Second}
			if k.Name == cheat.Silent {
				o.Timeout = time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			res, err := selfplay(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if code := report(&buf, o, res); code != exitViolation {
				t.Fatalf("selfplay exit %d, want %d:\n%s", code, exitViolation, buf.String())
			}
			if k.Name == cheat.Silent {
				c := res.Results[0].Closing
				if c == nil || c.Closing != fairness.CloseTimeout || c.Seat != 1 {
					t.Fatalf("closing = %+v, want a timeout blaming seat 1", c)
				}
				rep := auditPath(t, out)
				if rep.Verdict != fairness.Forfeit {
					t.Fatalf("audit: %s", rep.Summary())
				}
				return
			}
			v := res.Results[0].Violation
			if v == nil || v.Seat != 1 {
				t.Fatalf("honest seat's violation = %v", v)
			}
			rep := auditPath(t, out)
			if rep.Verdict != fairness.Violated || rep.Violation.Seat != 1 || rep.Violation.Seq != v.Seq {
				t.Fatalf("audit: %s; live: %v", rep.Summary(), v)
			}
			t.Logf("%s: %s", k.Name, rep.Summary())
		})
	}
}

func TestAuditExitCodes(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "g.jsonl")
	os.WriteFile(garbage, []byte("not a transcript\n"), 0o600)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"audit", garbage}, &stdout, &stderr); code != exitUsage {
		t.Fatalf("garbage: exit %d", code)
	}
	if code := run([]string{"audit", filepath.Join(dir, "missing")}, &stdout, &stderr); code != exitUsage {
		t.Fatalf("missing file: exit %d", code)
	}
	if code := run([]string{"audit"}, &stdout, &stderr); code != exitUsage {
		t.Fatalf("no file: exit %d", code)
	}
	var matches [2]string
	for i := range matches {
		matches[i] = filepath.Join(dir, fmt.Sprintf("m%d.jsonl", i))
		if code := run([]string{"selfplay", "--seed", "5", "--out", matches[i]}, &stdout, &stderr); code != exitOK {
			t.Fatalf("selfplay exit %d: %s", code, stderr.String())
		}
	}
	stderr.Reset()
	if code := run([]string{"audit", matches[0], matches[1]}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "not records of the same match") {
		t.Fatalf("records of two matches: exit %d: %s", code, stderr.String())
	}
}

func auditPath(t *testing.T, path string) *fairness.Report {
	t.Helper()
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
