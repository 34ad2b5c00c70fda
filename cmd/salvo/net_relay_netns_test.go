package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
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
	punchOK, _ := punched(host, join)
	natsBlockedDirectDials(t, join, punchOK)
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

// upnp runs miniupnpd (UPnP IGD and NAT-PMP) on the home router in
// namespace ns, for the LAN lan. Debian's miniupnpd-iptables writes its
// mappings with libiptc, into the legacy tables, so its chains are made
// there; the router's own rules (nat) are nftables ones and drop
// unsolicited traffic, so forwarded connections the daemon's DNAT made
// are let through first, as a real router does.
func (l *lab) upnp(ns, lan string) {
	l.t.Helper()
	for _, rule := range [][]string{
		{"-t", "nat", "-N", "MINIUPNPD"}, {"-t", "nat", "-I", "PREROUTING", "-i", "wan", "-j", "MINIUPNPD"},
		{"-t", "nat", "-N", "MINIUPNPD-POSTROUTING"}, {"-t", "nat", "-I", "POSTROUTING", "-o", "wan", "-j", "MINIUPNPD-POSTROUTING"},
		{"-t", "filter", "-N", "MINIUPNPD"}, {"-t", "filter", "-I", "FORWARD", "-i", "wan", "!", "-o", "wan", "-j", "MINIUPNPD"},
	} {
		l.in(ns, append([]string{"iptables-legacy"}, rule...)...)
	}
	l.in(ns, "iptables", "-I", "FORWARD", "1", "-i", "wan", "-m", "conntrack", "--ctstate", "DNAT", "-j", "ACCEPT")
	conf := l.file("miniupnpd-" + ns + ".conf")
	body := fmt.Sprintf("ext_ifname=wan\nlistening_ip=lan\nhttp_port=0\nenable_natpmp=yes\nenable_upnp=yes\nsecure_mode=yes\n"+
		"system_uptime=yes\nuuid=3a1e1f6c-5a1b-4c55-9d8e-%s\nallow 1024-65535 %s 1024-65535\ndeny 0-65535 0.0.0.0/0 0-65535\n", randHex(6), lan)
	if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
		l.t.Fatal(err)
	}
	cmd := exec.Command("ip", "netns", "exec", l.ns(ns), "miniupnpd", "-d", "-f", conf, "-P", l.file("miniupnpd-"+ns+".pid"))
	out, err := os.Create(l.file("miniupnpd-" + ns + ".out"))
	if err != nil {
		l.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		l.t.Fatal(err)
	}
	l.mu.Lock()
	l.procs = append(l.procs, cmd)
	l.mu.Unlock()
}

// mappedPort waits (at most d) for a TCP port mapping on the router in
// namespace ns (one LAN host: any mapping is its) and returns its
// external port.
func (l *lab) mappedPort(ns string, d time.Duration) (string, bool) {
	re := regexp.MustCompile(`-p tcp -m tcp --dport (\d+) -j DNAT`)
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		out, _ := exec.Command("ip", "netns", "exec", l.ns(ns), "iptables-legacy", "-t", "nat", "-S", "MINIUPNPD").CombinedOutput()
		if m := re.FindSubmatch(out); m != nil {
			return string(m[1]), true
		}
	}
	return "", false
}

// A host behind a home router that runs a UPnP / NAT-PMP daemon
// (miniupnpd, Debian's) has libp2p map its port there, and a joiner
// behind another NAT, with no relay anywhere, reaches it directly through
// the mapping; without the mapping the router drops the joiner's dial.
func TestNetPortMapping(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"miniupnpd", "iptables-legacy"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (apt-get install miniupnpd-iptables; .ci/run does)", tool)
		}
	}
	l := newLab(t)
	l.internet(false)
	l.upnp("na", "10.1.0.0/24")
	start := time.Now()
	h := l.start("a", "host", l.home("host"), "netplay", "--role", "host", "--seed", "7", "--listen", "/ip4/0.0.0.0/tcp/4400",
		"--code-file", l.file("code"), "--wait", "60s", "--report", l.file("host.json"), "--log", l.file("host.log"), "--log-level", "debug")
	inv, err := p2p.ParseInvite(l.waitFile(l.file("code"), 20*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ext, ok := l.mappedPort("na", 30*time.Second)
	if !ok {
		b, _ := exec.Command("ip", "netns", "exec", l.ns("na"), "iptables-legacy-save").CombinedOutput()
		t.Fatalf("no port mapping on the router within 30 s\n%s\n%s", b, l.output("host"))
	}
	mapped := time.Since(start)
	code := "/ip4/7.0.0.2/tcp/" + ext + "/p2p/" + inv.Peer.String()
	j := l.start("b", "join", l.home("join"), "netplay", "--role", "join", "--seed", "7", "--listen", listenFor("tcp"),
		"--code", code, "--wait", "60s", "--report", l.file("join.json"), "--log", l.file("join.log"), "--log-level", "debug")
	l.wait(j, "join", 90*time.Second)
	l.wait(h, "host", 30*time.Second)
	host, join := l.report("host"), l.report("join")
	if host.Closing != "" || join.Closing != "" || host.Result == "" || host.Result != join.Result {
		t.Fatalf("host %+v\njoin %+v\n%s\n%s", host, join, l.output("host"), l.output("join"))
	}
	auditOK(t, host.Transcript)
	t.Logf("port 4400 mapped to 7.0.0.2:%s %v after the host started; joiner connected through it in %.0f ms (first stream %s)", ext, mapped.Round(time.Millisecond), join.ConnectMS, join.FirstKind)
	if join.FirstKind != p2p.KindDirect {
		t.Fatalf("first stream %s, want direct", join.FirstKind)
	}
}
