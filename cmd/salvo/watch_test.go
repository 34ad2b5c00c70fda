package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// salvo watch CODE follows a match a headless host opened with
// --watchable, from before it starts to its end over loopback: it prints
// every message checked, ends with the result the players' transcripts
// prove, and its saved record audits as the host's does.
func TestWatchCommandFollowsAWatchableMatch(t *testing.T) {
	t.Setenv("SALVO_HOME", t.TempDir())
	dir := t.TempDir()
	code := filepath.Join(dir, "code")
	loop := []string{"--lan-only", "--listen", "/ip4/127.0.0.1/tcp/0"}
	play := append([]string{"--seed", "7", "--wait", "60s", "--code-file", code}, loop...)
	var wg sync.WaitGroup
	var hostOut, hostErr, watchOut, watchErr bytes.Buffer
	hostCode, watchCode := -1, -1
	wg.Go(func() {
		hostCode = run(append([]string{"netplay", "--role", "host", "--watchable", "--watch-linger", "2s", "--report", filepath.Join(dir, "host.json")}, play...), &hostOut, &hostErr)
	})
	t.Cleanup(wg.Wait)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	inv := waitCode(t, ctx, code)
	saved := filepath.Join(dir, "watched.jsonl")
	wg.Go(func() {
		watchCode = run(append([]string{"watch", "--save", saved, "--linger", "1s", "--wait", "30s", "--report", filepath.Join(dir, "watch.json")}, append(loop, inv)...), &watchOut, &watchErr)
	})
	var joinOut, joinErr bytes.Buffer
	if got := run(append([]string{"netplay", "--role", "join"}, play...), &joinOut, &joinErr); got != exitOK {
		t.Fatalf("the joiner: exit %d\n%s%s", got, joinOut.String(), joinErr.String())
	}
	wg.Wait()
	if hostCode != exitOK || watchCode != exitOK {
		t.Fatalf("host exit %d, spectator exit %d\n%s%s\n%s%s", hostCode, watchCode, hostOut.String(), hostErr.String(), watchOut.String(), watchErr.String())
	}
	var rep netReport
	b, _ := os.ReadFile(filepath.Join(dir, "host.json"))
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	want, err := fairness.AuditFile(rep.Transcript, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fairness.AuditFile(saved, games.Spec)
	if err != nil {
		t.Fatalf("%v\n%s%s", err, watchOut.String(), watchErr.String())
	}
	out := watchOut.String()
	if want.Verdict != fairness.Clean || got.Summary() != want.Summary() || len(got.Steps) != len(want.Steps) ||
		!strings.Contains(out, want.Summary()) || strings.Count(out, "✓ line") != len(want.Steps) || !strings.Contains(out, "revealed:") {
		t.Fatalf("the host's transcript: %s (%d messages); the spectator's record: %s (%d)\n%s", want.Summary(), len(want.Steps), got.Summary(), len(got.Steps), out)
	}
	if hb, _ := os.ReadFile(rep.Transcript); !bytes.Equal(hb, mustReadFile(t, saved)) {
		t.Fatal("the spectator's record is not the host's transcript, line for line")
	}
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
