package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// Outages and hole punching in namespaces (issue 13, points 4 and 7).
// Every case runs in its own namespaces and calls t.Parallel: a 60 s cut
// is mostly waiting, so the cases overlap (run go test with -parallel
// 8 or more to overlap them all; the figures go to the test log).

// labSide is where each side of a lab match runs: the host in namespace
// a, the joiner in b, each behind eth0.
var labSide = map[string]string{"host": "a", "join": "b"}

// cutRules are the iptables rules that pull a side's cable: every packet
// in and out of eth0 dropped, nothing sent back (no reset, no ICMP).
var cutRules = [][]string{{"INPUT", "-i", "eth0"}, {"OUTPUT", "-o", "eth0"}}

// unplug (op "-I") or plug back (op "-D") side's link.
func (l *lab) unplug(side, op string) {
	l.t.Helper()
	for _, r := range cutRules {
		l.in(labSide[side], append(append([]string{"iptables", op}, r...), "-j", "DROP")...)
	}
}

// streamsUp counts the match streams side's log has seen come up.
func (l *lab) streamsUp(name string) int {
	b, _ := os.ReadFile(l.file(name + ".log"))
	return strings.Count(string(b), "match stream up")
}

// cutCase is one match of TestNetCut60s, in its own lab.
type cutCase struct {
	name       string
	relayed    bool
	victim     string
	l          *lab
	relayAddr  string
	host, join *exec.Cmd
	before     map[string]int // match streams up before the cut, per side
	took       time.Duration  // from the link's return to a new stream on both sides
	continued  bool
	back       time.Time // when its link came back
}

// setup builds the case's lab: a LAN, or two NATs and a relay.
func (c *cutCase) setup(t *testing.T) {
	c.l = newLab(t)
	if c.relayed {
		c.l.internet(true)
		c.relayAddr = c.l.relay("tcp")
	} else {
		c.l.lanPair()
	}
}

// play starts the case's match.
func (c *cutCase) play() {
	l := c.l
	args := []string{"netplay", "--seed", "7", "--think", "600ms", "--wait", "60s", "--timeout", "10s", "--give-up", "120s",
		"--code-file", l.file("code"), "--listen", listenFor("tcp"), "--log-level", "debug"}
	var hostArgs []string
	if c.relayed {
		hostArgs = []string{"--relay", c.relayAddr}
	}
	c.host = l.start("a", "host", l.home("host"), append(append(args, "--role", "host", "--match-file", l.file("match"), "--report", l.file("host.json"), "--log", l.file("host.log")), hostArgs...)...)
	c.join = l.start("b", "join", l.home("join"), append(args, "--role", "join", "--report", l.file("join.json"), "--log", l.file("join.log"))...)
}

// check waits for the case's match to end and checks it ended clean, on a
// new stream after the cut.
func (c *cutCase) check(t *testing.T, outage time.Duration) {
	l := c.l
	parent := l.t // the lab's clean-up reports to the test that made it
	l.t = t
	defer func() { l.t = parent }()
	if !c.continued {
		// A relayed case needs the host's reservation remade after the
		// outage (autorelay): "NO_RESERVATION" in the joiner's log.
		t.Fatalf("no new match stream on both sides %v after the link came back\n%s\n%s", c.took, l.output("host"), l.output("join"))
	}
	l.wait(c.join, "join", 150*time.Second)
	l.wait(c.host, "host", 30*time.Second)
	host, join := l.report("host"), l.report("join")
	if host.Closing != "" || join.Closing != "" || host.Result == "" || host.Result != join.Result {
		t.Fatalf("the cut ended the match: host %+v\njoin %+v\n%s", host, join, l.output("join"))
	}
	auditOK(t, host.Transcript)
	a, _ := os.ReadFile(host.Transcript)
	b, _ := os.ReadFile(join.Transcript)
	if string(a) != string(b) {
		t.Fatal("the two transcripts differ")
	}
	if len(join.Kinds) < 2 {
		t.Fatalf("the joiner's match never changed streams (%v): the cut did not cut it", join.Kinds)
	}
	if want := map[bool]string{false: p2p.KindLAN, true: p2p.KindRelayed}[c.relayed]; join.Kinds[len(join.Kinds)-1] != want {
		t.Fatalf("streams %v, want the match to end on %s", join.Kinds, want)
	}
	t.Logf("%s: %v cut; the match continued %v after the link came back (a new stream on both sides); streams %v; %s",
		c.name, outage, c.took.Round(100*time.Millisecond), join.Kinds, join.Result)
}

// A 60 s cut of either side's link, on a direct (LAN) match and on a
// relayed one (both behind port-randomising NATs, so no punch), does not
// end the match: the per-step timeout (10 s here) is paused while the
// link is down and only the give-up time (2 min) counts; once the link is
// back the match continues on a new stream and finishes clean. The four
// matches run at once, each in its own lab, and share one cut: one
// minute of wall time, in one of go test's parallel slots.
func TestNetCut60s(t *testing.T) {
	t.Parallel()
	const outage = 60 * time.Second
	cases := []*cutCase{
		{name: "direct, host cut", victim: "host"},
		{name: "direct, joiner cut", victim: "join"},
		{name: "relayed, host cut", relayed: true, victim: "host"},
		{name: "relayed, joiner cut", relayed: true, victim: "join"},
	}
	for _, c := range cases {
		c.setup(t)
	}
	// Every match starts at once, after every lab is built: a match that
	// started early could be over before the cut.
	for _, c := range cases {
		c.play()
	}
	for _, c := range cases {
		c.l.waitFile(c.l.file("match"), 40*time.Second)
	}
	time.Sleep(time.Second) // a few moves in
	for _, c := range cases {
		c.before = map[string]int{"host": c.l.streamsUp("host"), "join": c.l.streamsUp("join")}
		c.l.unplug(c.victim, "-I")
	}
	time.Sleep(outage)
	for _, c := range cases {
		c.l.unplug(c.victim, "-D")
		c.back = time.Now()
	}
	for pending := len(cases); pending > 0; time.Sleep(100 * time.Millisecond) {
		pending = 0
		for _, c := range cases {
			if c.continued {
				continue
			}
			c.took = time.Since(c.back)
			c.continued = c.l.streamsUp("host") > c.before["host"] && c.l.streamsUp("join") > c.before["join"]
			if !c.continued && c.took < 90*time.Second {
				pending++
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.check(t, outage) })
	}
}

// Behind two port-randomising ("symmetric") NATs, DCUtR is tried and
// fails, and the match completes relayed. The match is long enough for
// the first attempt to end before it does (a short one ended before any
// attempt, and a case that never tried passed as well).
func TestNetSymmetricNATPunchFails(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	host, join := l.codeOnlyMatch(true, "300ms")
	ok, tries := punched(host, join)
	fi, err := os.Stat(join.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	ended := fi.ModTime()
	var failedBefore int
	for _, rep := range []netReport{host, join} {
		for _, p := range rep.Punches {
			if !p.Success && p.At.Before(ended) {
				failedBefore++
			}
		}
	}
	t.Logf("symmetric NATs: %d punch attempts, %d failed before the match ended, success=%v (host %+v, join %+v); streams %v; match %.0f ms",
		tries, failedBefore, ok, host.Punches, join.Punches, join.Kinds, join.MatchMS)
	if ok {
		t.Fatalf("a hole punch succeeded through two port-randomising NATs: the lab's NATs are not symmetric")
	}
	if failedBefore == 0 {
		t.Fatalf("no failed punch attempt recorded before the match ended (%d attempts in all)\n%s", tries, l.output("host"))
	}
	for _, k := range join.Kinds {
		if k != p2p.KindRelayed {
			t.Fatalf("streams %v, want the whole match relayed", join.Kinds)
		}
	}
}
