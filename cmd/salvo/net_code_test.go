package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// A joiner behind a home NAT with nothing but the invite code (no
// --relay, no --bootstrap) takes the code's relay as its relay and
// bootstrap peer, so DCUtR is up when the host punches: the match starts
// relayed and moves to the hole-punched connection.
func TestNetCodeOnlyJoinerPunches(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.internet(false)
	r := l.relay("tcp")
	code := []string{"--listen", listenFor("tcp"), "--think", "60ms", "--code-file", l.file("code")}
	host, join := l.play("", append([]string{"--relay", r}, code...), code)
	ok, tries := punched(host, join)
	t.Logf("code-only joiner: connected %.0f ms after reading the code, first stream %s, streams %v; DCUtR success=%v in %d attempt reports (host %+v, join %+v); match %.0f ms",
		join.ConnectMS, join.FirstKind, join.Kinds, ok, tries, host.Punches, join.Punches, join.MatchMS)
	if join.FirstKind != p2p.KindRelayed {
		t.Fatalf("first stream %q, want relayed (the NATs must block direct dials)", join.FirstKind)
	}
	if tries == 0 || !ok {
		t.Fatalf("no successful hole punch (%d attempts): host %+v join %+v\n%s", tries, host.Punches, join.Punches, l.output("join"))
	}
	if last := join.Kinds[len(join.Kinds)-1]; last != p2p.KindHolePunched {
		t.Fatalf("the match did not move to the hole-punched connection: streams %v", join.Kinds)
	}
}

// Either peer of a code-only join behind NATs is killed with SIGKILL and
// restarted with a bare `salvo resume --latest` (no network flags): the
// stored relay brings both back, the match ends clean.
func TestNetKillAndResumeBehindNATs(t *testing.T) {
	t.Parallel()
	for _, victim := range []string{"host", "join"} {
		t.Run(victim+" killed", func(t *testing.T) {
			t.Parallel()
			l := newLab(t)
			l.internet(false)
			r := l.relay("tcp")
			homes := map[string]string{"host": l.home("host"), "join": l.home("join")}
			args := []string{"netplay", "--seed", "7", "--think", "150ms", "--wait", "60s", "--give-up", "90s", "--code-file", l.file("code"), "--listen", listenFor("tcp")}
			h := l.start("a", "host", homes["host"], append(args, "--role", "host", "--relay", r, "--match-file", l.file("match.host"), "--report", l.file("host.json"), "--log", l.file("host.log"), "--log-level", "debug")...)
			j := l.start("b", "join", homes["join"], append(args, "--role", "join", "--match-file", l.file("match.join"), "--report", l.file("join.json"), "--log", l.file("join.log"), "--log-level", "debug")...)
			procs := map[string]*exec.Cmd{"host": h, "join": j}
			ns := map[string]string{"host": "a", "join": "b"}
			l.waitFile(l.file("match."+victim), 30*time.Second)
			time.Sleep(2 * time.Second) // a few moves in
			if err := procs[victim].Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = procs[victim].Wait()
			killedAt := time.Now()
			rs := l.start(ns[victim], "resumed", homes[victim], "resume", "--latest", "--report", l.file("resumed.json"), "--log", l.file("resumed.log"), "--log-level", "debug")
			l.wait(rs, "resumed", 120*time.Second)
			other := map[string]string{"host": "join", "join": "host"}[victim]
			l.wait(procs[other], other, 30*time.Second)
			res, surv := l.report("resumed"), l.report(other)
			if res.Closing != "" || surv.Closing != "" || res.Result == "" || res.Result != surv.Result {
				t.Fatalf("resumed %+v\nsurvivor %+v\n%s\n%s", res, surv, l.output("resumed"), l.output(other))
			}
			a, _ := os.ReadFile(res.Transcript)
			b, _ := os.ReadFile(surv.Transcript)
			if string(a) != string(b) {
				t.Fatal("transcripts differ after the resume")
			}
			auditOK(t, res.Transcript)
			logb, _ := os.ReadFile(l.file("resumed.log"))
			reserved := strings.Contains(string(logb), "relay reservation")
			ok, tries := punched(res)
			t.Logf("%s killed behind a NAT: resumed (no flags) to first message %.0f ms; kill to end %v; resumed side holds a relay reservation again: %v; punches after the resume: success=%v in %d; survivor streams %v",
				victim, res.ResumeMS, time.Since(killedAt).Round(time.Millisecond), reserved, ok, tries, surv.Kinds)
			if !reserved {
				t.Fatalf("the resumed peer did not reserve on the stored relay\n%s", l.output("resumed"))
			}
		})
	}
}
