package session

import (
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// The heartbeat dates a restarted side's absence: from the last beat,
// whether a stream was up then or not (a process that ran and waited was
// here), and not at all without a heartbeat file. An older file's content
// (a down_since of an outage under way) changes nothing.
func TestHeartbeatDatesTheOutage(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	id := strings.Repeat("ab", 32)
	if _, ok, err := s.awaySince(id); ok || err != nil {
		t.Fatalf("no heartbeat yet, yet ok=%v, %v", ok, err)
	}
	if _, _, err := s.awaySince("../x"); err == nil {
		t.Fatal("awaySince took ../x for a match ID")
	}
	newRC := func() *Reconnecting {
		return &Reconnecting{log: slog.New(slog.DiscardHandler), cfg: ReconnectConfig{GiveUp: 80 * time.Millisecond}}
	}
	for name, rc := range map[string]*Reconnecting{"a stream up": newRC(), "an outage since an hour": newRC()} {
		if name == "a stream up" {
			rc.cur = &p2p.Conn{}
		} else {
			rc.link = linkState{phase: LinkReconnecting, since: time.Now().Add(-time.Hour)}
		}
		start := time.Now()
		stop := s.keepAlive(id, rc)
		time.Sleep(50 * time.Millisecond)
		stop()
		since, ok, err := s.awaySince(id)
		if !ok || err != nil || since.Before(start.Add(-time.Second)) || time.Since(since) > time.Second {
			t.Fatalf("after beats with %s: since %v (start %v), %v, %v", name, since, start, ok, err)
		}
	}
	old := `{"down_since":"2001-01-01T00:00:00Z"}`
	if err := os.WriteFile(s.aliveFile(id), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if since, ok, _ := s.awaySince(id); !ok || time.Since(since) > time.Second {
		t.Fatalf("an older heartbeat with an outage under way: %v, %v", since, ok)
	}
	s.dropAlive(id)
	if _, ok, _ := s.awaySince(id); ok {
		t.Fatal("the heartbeat outlived dropAlive")
	}
}

func TestAliveEvery(t *testing.T) {
	for _, tc := range []struct{ giveUp, want time.Duration }{
		{DefaultGiveUp, aliveMax},
		{time.Second, time.Second / aliveParts},
		{time.Millisecond, aliveMin},
	} {
		if got := aliveEvery(tc.giveUp); got != tc.want {
			t.Fatalf("aliveEvery(%v) = %v, want %v", tc.giveUp, got, tc.want)
		}
	}
}
