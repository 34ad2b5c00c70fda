package p2p

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
)

// An independent implementation, js-libp2p (p2p/jsclient, versions pinned
// in its package-lock.json), dials a Salvo host over TCP, identifies it,
// pings it and reads its /salvo/info/1 answer. .ci/run installs the npm
// packages; without node or node_modules the test skips and says so.
func TestJSLibp2pInterop(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("js interop test needs node (apt-get install nodejs; .ci/run installs it)")
	}
	dir, _ := filepath.Abs("jsclient")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "libp2p")); err != nil {
		t.Skip("js interop test needs its npm packages: run `npm ci` in p2p/jsclient (.ci/run does)")
	}
	h := newHost(t, Config{ListenAddrs: loopTCP, Name: "go-salvo"})
	if err := h.SetOffer("ubuild"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, "--import", "./polyfill.mjs", "dial.mjs", addrOf(t, h, "tcp"))
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("js client: %v\n%s%s", err, out, stderr)
	}
	var got struct {
		Peer      string    `json:"peer"`
		ConnectMS float64   `json:"connectMs"`
		Agent     string    `json:"agent"`
		Protocols []string  `json:"protocols"`
		RTTs      []float64 `json:"rtts"`
		Info      Info      `json:"info"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("js client output %q: %v", out, err)
	}
	if got.Peer != h.ID().String() {
		t.Fatalf("js client reached %s, want %s", got.Peer, h.ID())
	}
	for _, p := range []string{string(MatchProtocol), string(InfoProtocol), string(ResumeProtocol), string(ping.ID)} {
		if !slices.Contains(got.Protocols, p) {
			t.Errorf("identify did not list %s: %v", p, got.Protocols)
		}
	}
	if got.Agent != "salvo/1" {
		t.Errorf("agent %q, want salvo/1", got.Agent)
	}
	if len(got.RTTs) != 3 {
		t.Errorf("pings: %v", got.RTTs)
	}
	if got.Info != (Info{Name: "go-salvo", Offer: "ubuild"}) {
		t.Errorf("info %+v", got.Info)
	}
	t.Logf("js-libp2p: connect %.1f ms, ping RTTs %v ms, %d protocols", got.ConnectMS, got.RTTs, len(got.Protocols))
}
