package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// lab builds network namespaces for one test: every namespace, veth and
// bridge it makes carries a random prefix and is removed when the test
// ends, pass or fail (deleting a namespace deletes its interfaces).
type lab struct {
	t      *testing.T
	prefix string
	dir    string
	bin    string
	mu     sync.Mutex
	nss    []string
	procs  []*exec.Cmd
}

// requireLab skips unless the test runs as root with iproute2, iptables
// and conntrack, and network namespaces can be made.
func requireLab(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("network-namespace tests skipped in -short mode")
	}
	if os.Geteuid() != 0 {
		t.Skip("network-namespace tests need root (ip netns, iptables); run go test as root (.ci/run does)")
	}
	for _, tool := range []string{"ip", "iptables", "conntrack"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("network-namespace tests need %s (apt-get install iproute2 iptables conntrack; .ci/run does)", tool)
		}
	}
	name := "svprobe" + randHex(3)
	if out, err := exec.Command("ip", "netns", "add", name).CombinedOutput(); err != nil {
		t.Skipf("cannot make a network namespace here: %v: %s", err, out)
	}
	_ = exec.Command("ip", "netns", "del", name).Run()
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

var (
	labBinOnce sync.Once
	labBin     string
	labBinErr  error
	labBinDir  string
)

// newLab makes a lab; bin is the salvo binary built once for the package.
func newLab(t *testing.T) *lab {
	t.Helper()
	requireLab(t)
	labBinOnce.Do(func() {
		labBinDir, labBinErr = os.MkdirTemp("", "salvo-lab-bin-")
		if labBinErr != nil {
			return
		}
		labBin = filepath.Join(labBinDir, "salvo")
		out, err := exec.Command("go", "build", "-o", labBin, ".").CombinedOutput()
		if err != nil {
			labBinErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if labBinErr != nil {
		t.Fatal(labBinErr)
	}
	// Six hex digits: with four, labs of parallel runs collided ("ip
	// netns add: File exists") once in 80 cases; a veth's temporary name,
	// prefix+"a"+4 digits, stays within the kernel's 15 characters.
	l := &lab{t: t, prefix: "sv" + randHex(3), dir: t.TempDir(), bin: labBin}
	t.Cleanup(l.cleanup)
	return l
}

// sh runs a command and fails the test on error.
func (l *lab) sh(args ...string) string {
	l.t.Helper()
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		l.t.Fatalf("%s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// in runs a command inside namespace ns.
func (l *lab) in(ns string, args ...string) string {
	l.t.Helper()
	return l.sh(append([]string{"ip", "netns", "exec", l.ns(ns)}, args...)...)
}

// ns is the full name of the lab's namespace short.
func (l *lab) ns(short string) string { return l.prefix + short }

// addNS makes a namespace with loopback up.
func (l *lab) addNS(short string) {
	l.t.Helper()
	l.sh("ip", "netns", "add", l.ns(short))
	l.mu.Lock()
	l.nss = append(l.nss, l.ns(short))
	l.mu.Unlock()
	l.in(short, "ip", "link", "set", "lo", "up")
}

// link joins namespaces a and b with a veth pair: interface ifA (address
// addrA, CIDR) in a and ifB (addrB) in b. An empty address leaves that end
// without one (a bridge port).
func (l *lab) link(a, ifA, addrA, b, ifB, addrB string) {
	l.t.Helper()
	tmpA, tmpB := l.prefix+"a"+randHex(2), l.prefix+"b"+randHex(2)
	l.sh("ip", "link", "add", tmpA, "type", "veth", "peer", "name", tmpB)
	l.sh("ip", "link", "set", tmpA, "netns", l.ns(a))
	l.sh("ip", "link", "set", tmpB, "netns", l.ns(b))
	l.in(a, "ip", "link", "set", tmpA, "name", ifA)
	l.in(b, "ip", "link", "set", tmpB, "name", ifB)
	for _, e := range []struct{ ns, ifc, addr string }{{a, ifA, addrA}, {b, ifB, addrB}} {
		if e.addr != "" {
			l.in(e.ns, "ip", "addr", "add", e.addr, "dev", e.ifc)
		}
		l.in(e.ns, "ip", "link", "set", e.ifc, "up")
	}
}

// bridge makes a bridge in namespace ns.
func (l *lab) bridge(ns, name string) {
	l.t.Helper()
	l.in(ns, "ip", "link", "add", "name", name, "type", "bridge")
	l.in(ns, "ip", "link", "set", name, "up")
}

// port attaches interface ifc of namespace ns to bridge br.
func (l *lab) port(ns, ifc, br string) { l.in(ns, "ip", "link", "set", ifc, "master", br) }

// nat makes namespace ns a home router: traffic from its LAN leaves by wan
// masqueraded (randomFully: a new random port for every mapping, an
// endpoint-dependent "symmetric" NAT), and unsolicited traffic from the
// WAN is dropped silently.
func (l *lab) nat(ns string, randomFully bool) {
	l.t.Helper()
	l.in(ns, "sysctl", "-qw", "net.ipv4.ip_forward=1")
	rule := []string{"iptables", "-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"}
	if randomFully {
		rule = append(rule, "--random-fully")
	}
	l.in(ns, rule...)
	l.in(ns, "iptables", "-A", "INPUT", "-i", "wan", "-m", "conntrack", "--ctstate", "NEW,INVALID", "-j", "DROP")
	l.in(ns, "iptables", "-A", "FORWARD", "-i", "wan", "-m", "conntrack", "--ctstate", "NEW,INVALID", "-j", "DROP")
	// Stale mappings from an earlier case would fake a pass.
	_ = exec.Command("ip", "netns", "exec", l.ns(ns), "conntrack", "-F").Run()
}

// loss drops a fraction of the packets entering namespace ns.
func (l *lab) loss(ns string, p float64) {
	l.in(ns, "iptables", "-A", "INPUT", "-m", "statistic", "--mode", "random", "--probability", fmt.Sprint(p), "-j", "DROP")
}

// labNets is the lab's simulated public network, where the test network
// guard lets lab processes dial (with loopback and the private ranges).
const labNets = "7.0.0.0/24"

// start runs salvo in namespace ns with SALVO_HOME home, logging to
// <dir>/<name>.log; the process is killed at cleanup. It runs under the
// test network guard (p2p.TestNetsEnv), and a command that joins a DHT
// gets the lab's own: a netplay or resume without --bootstrap runs
// --lan-only, a relay without one starts a DHT of its own (--bootstrap
// none), never the public bootstrap list.
func (l *lab) start(ns, name, home string, args ...string) *exec.Cmd {
	l.t.Helper()
	if len(args) > 0 && !slices.Contains(args, "--bootstrap") && !slices.Contains(args, "--lan-only") {
		switch args[0] {
		case "netplay", "resume":
			args = append(slices.Clone(args), "--lan-only")
		case "relay":
			args = append(slices.Clone(args), "--bootstrap", "none")
		}
	}
	cmd := exec.Command("ip", append([]string{"netns", "exec", l.ns(ns), l.bin}, args...)...)
	cmd.Env = append(os.Environ(), "SALVO_HOME="+home, p2p.TestNetsEnv+"="+labNets)
	f, err := os.Create(filepath.Join(l.dir, name+".out"))
	if err != nil {
		l.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		l.t.Fatal(err)
	}
	l.mu.Lock()
	l.procs = append(l.procs, cmd)
	l.mu.Unlock()
	return cmd
}

// home is a fresh data directory for one peer.
func (l *lab) home(name string) string {
	d := filepath.Join(l.dir, name)
	if err := os.MkdirAll(d, 0o700); err != nil {
		l.t.Fatal(err)
	}
	return d
}

// wait waits for cmd with a deadline, and fails with its output if it
// does not end well.
func (l *lab) wait(cmd *exec.Cmd, name string, d time.Duration) {
	l.t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			l.t.Fatalf("%s: %v\n%s%s", name, err, l.output(name), l.others(name))
		}
		if out := l.output(name); strings.Contains(out, "TEST GUARD") {
			l.t.Fatalf("%s tried to leave the test network:\n%s", name, out)
		}
	case <-time.After(d):
		_ = cmd.Process.Kill()
		l.t.Fatalf("%s did not finish within %v\n%s%s", name, d, l.output(name), l.others(name))
	}
}

func (l *lab) output(name string) string {
	b, _ := os.ReadFile(filepath.Join(l.dir, name+".out"))
	logb, _ := os.ReadFile(filepath.Join(l.dir, name+".log"))
	s := string(b)
	if len(logb) > 0 {
		if len(logb) > 6000 && os.Getenv("SALVO_LAB_VERBOSE") == "" {
			logb = logb[len(logb)-6000:]
		}
		s += "--- log tail ---\n" + string(logb)
	}
	return s
}

// others digests the logs of the lab's other processes (their INFO,
// WARN and ERROR lines, the last few of each): a peer that failed often
// failed because of what another one did (a host that never got its
// relay reservation leaves a joiner with no way in).
func (l *lab) others(name string) string {
	logs, _ := filepath.Glob(filepath.Join(l.dir, "*.log"))
	var b strings.Builder
	for _, path := range logs {
		other := strings.TrimSuffix(filepath.Base(path), ".log")
		if other == name {
			continue
		}
		raw, _ := os.ReadFile(path)
		var keep []string
		for _, line := range strings.Split(string(raw), "\n") {
			if !strings.Contains(line, "level=DEBUG") && strings.TrimSpace(line) != "" {
				keep = append(keep, line)
			}
		}
		keep = keep[max(0, len(keep)-30):]
		fmt.Fprintf(&b, "--- %s: last %d lines above DEBUG ---\n%s\n", other, len(keep), strings.Join(keep, "\n"))
	}
	return b.String()
}

// report reads a --report file.
func (l *lab) report(name string) netReport {
	l.t.Helper()
	b, err := os.ReadFile(filepath.Join(l.dir, name+".json"))
	if err != nil {
		l.t.Fatalf("report of %s: %v\n%s", name, err, l.output(name))
	}
	var r netReport
	if err := json.Unmarshal(b, &r); err != nil {
		l.t.Fatal(err)
	}
	return r
}

func (l *lab) file(name string) string { return filepath.Join(l.dir, name) }

// waitFor polls for a file.
func (l *lab) waitFile(path string, d time.Duration) string {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	s, err := waitFile(ctx, path)
	if err != nil {
		l.t.Fatal(err)
	}
	return s
}

// cleanup kills every process and deletes every namespace (with the
// veths and bridges in them).
func (l *lab) cleanup() {
	l.mu.Lock()
	defer l.mu.Unlock()
	// SALVO_LAB_KEEP=dir keeps a copy of the lab's files (logs, reports,
	// data directories) in dir/<prefix>, for reading after the run.
	if keep := os.Getenv("SALVO_LAB_KEEP"); keep != "" {
		_ = exec.Command("cp", "-r", l.dir, filepath.Join(keep, l.prefix)).Run()
	}
	for _, c := range l.procs {
		if c.ProcessState == nil && c.Process != nil {
			_ = c.Process.Kill()
			_, _ = c.Process.Wait()
		}
	}
	for _, ns := range l.nss {
		if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
			l.t.Errorf("cleanup: ip netns del %s: %v: %s", ns, err, out)
		}
	}
	// Nothing of ours may remain in the root namespace.
	out, _ := exec.Command("ip", "-o", "link").CombinedOutput()
	if bytes.Contains(out, []byte(l.prefix)) {
		l.t.Errorf("cleanup: interfaces with prefix %s left in the root namespace:\n%s", l.prefix, out)
	}
}

// proxied makes namespaces a and b, each linked to m (10.<net>.1.0/24 and
// 10.<net>.2.0/24), and starts in m a user-space proxy (TestNetHelperProcess
// with env) that listens on 10.<net>.2.1:4100 and forwards to
// 10.<net>.1.2:4200: delay, loss and broken handshakes go through it,
// since this kernel has no netem.
func (l *lab) proxied(net int, env ...string) {
	l.t.Helper()
	for _, ns := range []string{"a", "m", "b"} {
		l.addNS(ns)
	}
	l.link("a", "eth0", fmt.Sprintf("10.%d.1.2/24", net), "m", "e1", fmt.Sprintf("10.%d.1.1/24", net))
	l.link("b", "eth0", fmt.Sprintf("10.%d.2.2/24", net), "m", "e2", fmt.Sprintf("10.%d.2.1/24", net))
	proxy := exec.Command("ip", "netns", "exec", l.ns("m"), os.Args[0], "-test.run=^TestNetHelperProcess$")
	proxy.Env = append(os.Environ(), fmt.Sprintf("SALVO_LAB_LISTEN=10.%d.2.1:4100", net), fmt.Sprintf("SALVO_LAB_TARGET=10.%d.1.2:4200", net))
	proxy.Env = append(proxy.Env, env...)
	out, err := os.Create(l.file("proxy.out"))
	if err != nil {
		l.t.Fatal(err)
	}
	proxy.Stdout, proxy.Stderr = out, out
	if err := proxy.Start(); err != nil {
		l.t.Fatal(err)
	}
	l.mu.Lock()
	l.procs = append(l.procs, proxy)
	l.mu.Unlock()
}

// killAndResume kills victim ("host" or "join") settle after its match
// file appears, restarts it with `salvo resume --latest --bot strong` in
// its namespace, and checks that both sides then finish the same match,
// by the rules, with identical transcripts that audit clean. It returns
// the resumed side's and the survivor's reports and when the kill was.
func (l *lab) killAndResume(victim string, procs map[string]*exec.Cmd, homes map[string]string, settle, resumeWait time.Duration) (res, surv netReport, killedAt time.Time) {
	t := l.t
	t.Helper()
	ns := map[string]string{"host": "a", "join": "b"}
	l.waitFile(l.file("match."+victim), 30*time.Second)
	time.Sleep(settle) // a few moves in
	if err := procs[victim].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = procs[victim].Wait()
	killedAt = time.Now()
	rs := l.start(ns[victim], "resumed", homes[victim], "resume", "--latest", "--bot", "strong", "--report", l.file("resumed.json"), "--log", l.file("resumed.log"), "--log-level", "debug")
	l.wait(rs, "resumed", resumeWait)
	other := map[string]string{"host": "join", "join": "host"}[victim]
	l.wait(procs[other], other, 30*time.Second)
	res, surv = l.report("resumed"), l.report(other)
	if res.Closing != "" || surv.Closing != "" || res.Result == "" || res.Result != surv.Result {
		t.Fatalf("resumed %+v\nsurvivor %+v\n%s\n%s", res, surv, l.output("resumed"), l.output(other))
	}
	a, _ := os.ReadFile(res.Transcript)
	b, _ := os.ReadFile(surv.Transcript)
	if string(a) != string(b) {
		t.Fatal("transcripts differ after the resume")
	}
	auditOK(t, res.Transcript)
	return res, surv, killedAt
}
