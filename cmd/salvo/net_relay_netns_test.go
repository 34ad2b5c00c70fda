package main

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// A host behind a NAT holds a reservation on a relay and shows its invite
// code; then its link is cut (packets dropped at its router) for longer
// than the relay's reservation lifetime, so the relay forgets the
// reservation. Once the link is back, libp2p's autorelay reserves again
// by itself, and a joiner holding the code written before the cut plays
// a whole match with the host through the relay (port-randomising NATs:
// no hole punch). The hand-written renewal this replaced waited an hour.
func TestNetReservationAfterCut(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.internet(true)
	ttl := p2p.MinReservationTTL
	r := l.relay("tcp", "--reservation-ttl", ttl.String(), "--log-level", "debug")
	common := []string{"netplay", "--seed", "7", "--think", "30ms", "--listen", listenFor("tcp"), "--code-file", l.file("code"), "--log-level", "debug"}
	h := l.start("a", "host", l.home("host"), append(common, "--role", "host", "--relay", r, "--wait", "5m",
		"--report", l.file("host.json"), "--log", l.file("host.log"))...)
	l.waitFile(l.file("code"), 30*time.Second)

	cutFor := ttl + 10*time.Second
	l.in("na", "iptables", "-I", "FORWARD", "1", "-j", "DROP")
	time.Sleep(cutFor)
	l.in("na", "iptables", "-D", "FORWARD", "1")
	back := time.Now()

	j := l.start("b", "join", l.home("join"), append(common, "--role", "join", "--wait", "90s",
		"--report", l.file("join.json"), "--log", l.file("join.log"))...)
	l.wait(j, "join", 3*time.Minute)
	l.wait(h, "host", 30*time.Second)
	host, join := l.report("host"), l.report("join")
	if host.Closing != "" || join.Closing != "" || host.Result == "" || host.Result != join.Result {
		t.Fatalf("host %+v\njoin %+v\n%s\n%s", host, join, l.output("host"), l.output("join"))
	}
	auditOK(t, host.Transcript)
	lost, held := logTimes(t, l.file("host.log"), "relay reservation lost"), logTimes(t, l.file("host.log"), "relay reservation held")
	again := "never logged"
	for _, at := range held {
		if at.After(back) {
			again = at.Sub(back).Round(time.Millisecond).String()
			break
		}
	}
	t.Logf("cut %v (reservation TTL %v): reservation lost at %v into the cut, held again %s after the link came back; joiner connected %.0f ms after its start (first stream %s), match %.0f ms",
		cutFor, ttl, lossDelay(lost, back.Add(-cutFor)), again, join.ConnectMS, join.FirstKind, join.MatchMS)
	if join.FirstKind != p2p.KindRelayed {
		t.Fatalf("first stream %s, want relayed", join.FirstKind)
	}
}

// logTimes are the times of the log lines (slog text) with msg.
func logTimes(t *testing.T, path, msg string) []time.Time {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []time.Time
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, `msg="`+msg+`"`) || !strings.HasPrefix(line, "time=") {
			continue
		}
		stamp, _, _ := strings.Cut(strings.TrimPrefix(line, "time="), " ")
		if at, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
			out = append(out, at)
		}
	}
	return out
}

// lossDelay is how long after cut the first loss in lost was logged.
func lossDelay(lost []time.Time, cut time.Time) string {
	for _, at := range lost {
		if at.After(cut) {
			return at.Sub(cut).Round(time.Millisecond).String()
		}
	}
	return "(not logged)"
}
