package main

import (
	"strings"
	"testing"
	"time"
)

// AutoNAT v2 runs, and its verdicts are right: on the simulated public
// network (four DHT nodes and a relay, each an AutoNAT v2 server), a
// host on a public address (7.0.0.30, no NAT) has its TCP address
// confirmed reachable, and a joiner behind a home NAT has its public
// (NAT) address found unreachable and none confirmed reachable; the match
// between them is played as usual. A verdict needs two agreeing
// dial-backs from different servers; the joiner's NAT address is tested
// only once four peers have seen it (identify's activation threshold).
// With three DHT nodes the joiner had exactly four observers once the
// host left, and under CI's load its NAT address now and then never
// became a candidate at all (the report's "untested" was empty after 60 s
// with four peers connected); the fourth DHT node leaves one to spare.
func TestNetAutoNATv2(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	l.internet(false)
	boot := strings.Join(l.publicNet(4), ",")
	l.addNS("p")
	l.link("p", "wan", "7.0.0.30/24", "w", "p0", "")
	l.port("w", "p0", "sw0")
	base := []string{"netplay", "--seed", "7", "--wait", "60s", "--think", "60ms", "--listen", listenFor("tcp"),
		"--bootstrap", boot, "--code-file", l.file("code"), "--wait-autonat-v2", "60s", "--log-level", "debug"}
	h := l.start("p", "host", l.home("host"), append(base, "--role", "host", "--report", l.file("host.json"), "--log", l.file("host.log"))...)
	j := l.start("a", "join", l.home("join"), append(base, "--role", "join", "--report", l.file("join.json"), "--log", l.file("join.log"))...)
	l.wait(j, "join", 120*time.Second)
	l.wait(h, "host", 120*time.Second)
	host, join := l.report("host"), l.report("join")
	t.Logf("AutoNAT v2: public host reachable %v unreachable %v untested %v (v1: %s); NATed joiner reachable %v unreachable %v untested %v (v1: %s, %d peers at the end); match %s / %s",
		host.Reachable, host.Unreachable, host.Untested, host.Reachability, join.Reachable, join.Unreachable, join.Untested, join.Reachability, join.PeersAtEnd, host.Result, join.Result)
	if host.Result == "" || host.Result != join.Result {
		t.Fatalf("match did not end cleanly: host %+v\njoin %+v", host, join)
	}
	if !hasPrefix(host.Reachable, "/ip4/7.0.0.30/tcp/") || len(host.Unreachable) > 0 {
		t.Fatalf("public host: AutoNAT v2 confirmed %v reachable, %v unreachable; want its 7.0.0.30 TCP address reachable\n%s", host.Reachable, host.Unreachable, l.output("host"))
	}
	if !hasPrefix(join.Unreachable, "/ip4/7.0.0.2/tcp/") || len(join.Reachable) > 0 {
		t.Fatalf("NATed joiner: AutoNAT v2 confirmed %v reachable, %v unreachable; want its NAT address (7.0.0.2) unreachable\n%s", join.Reachable, join.Unreachable, l.output("join"))
	}
}

// hasPrefix reports whether any of addrs starts with prefix.
func hasPrefix(addrs []string, prefix string) bool {
	for _, a := range addrs {
		if strings.HasPrefix(a, prefix) {
			return true
		}
	}
	return false
}
