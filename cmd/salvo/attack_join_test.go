package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/fairness/untrusted/hostiletest"
	"github.com/salvo-game/salvo/p2p"
)

// TestAttackOversizedJoinFrame: a headless host (salvo netplay --role
// host) used to exit on one oversized join frame. Now a joiner that sends
// one (within the frame limit, over the handshake's), and another that
// announces a frame over every limit, are turned away; the host keeps
// waiting and plays its match with the honest joiner that comes next.
func TestAttackOversizedJoinFrame(t *testing.T) {
	t.Setenv("SALVO_HOME", t.TempDir())
	dir := t.TempDir()
	code := filepath.Join(dir, "code")
	loop := []string{"--lan-only", "--listen", "/ip4/127.0.0.1/tcp/0", "--seed", "7", "--wait", "60s", "--code-file", code}
	var wg sync.WaitGroup
	var hostOut, hostErr bytes.Buffer
	hostCode := -1
	wg.Go(func() {
		hostCode = run(append([]string{"netplay", "--role", "host", "--report", filepath.Join(dir, "host.json")}, loop...), &hostOut, &hostErr)
	})
	t.Cleanup(wg.Wait)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	evil, target := hostiletest.EvilPeer(t, ctx, waitCode(t, ctx, code))
	// A join frame of 100 KB: a valid frame, far over a handshake's.
	c, err := evil.OpenMatch(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Send(ctx, bytes.Repeat([]byte("x"), 100_000)); err != nil {
		// The host may refuse it on its length prefix and reset the
		// stream before the last bytes are written: the defence at work.
		t.Logf("the oversized frame was cut short: %v", err)
	}
	// A length prefix over every limit, and nothing after it.
	s, err := evil.Libp2p().NewStream(ctx, target, p2p.MatchProtocol)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(binary.AppendUvarint(nil, 1<<40)); err != nil {
		t.Fatal(err)
	}
	// Both are refused: the streams end.
	if _, err := c.Recv(ctx); err == nil {
		t.Error("the oversized join frame got an answer")
	}
	hostiletest.WaitReset(t, s)

	var joinOut, joinErr bytes.Buffer
	if got := run(append([]string{"netplay", "--role", "join", "--report", filepath.Join(dir, "join.json")}, loop...), &joinOut, &joinErr); got != exitOK {
		t.Fatalf("the honest joiner: exit %d\n%s%s", got, joinOut.String(), joinErr.String())
	}
	wg.Wait()
	if hostCode != exitOK {
		t.Fatalf("the host: exit %d\n%s%s", hostCode, hostOut.String(), hostErr.String())
	}
	var rep netReport
	b, _ := os.ReadFile(filepath.Join(dir, "host.json"))
	if err := json.Unmarshal(b, &rep); err != nil || rep.Result == "" || rep.Remote == evil.ID().String() {
		t.Fatalf("the host's report: %v\n%s", err, b)
	}
}

// waitCode waits for the host to write its invite code.
func waitCode(t *testing.T, ctx context.Context, path string) string {
	t.Helper()
	s, err := waitFile(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
