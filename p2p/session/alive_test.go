package session

import (
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// The heartbeat dates a restarted side's outage: from the last beat while
// a stream was up, from the start of an outage already under way, and not
// at all without a heartbeat file (the restart then counts from its own
// start). A torn file still proves the last beat.
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
	up := newRC()
	up.cur = &p2p.Conn{} // a stream is up
	start := time.Now()
	stop := s.keepAlive(id, up)
	time.Sleep(50 * time.Millisecond)
	stop()
	since, ok, err := s.awaySince(id)
	if !ok || err != nil || since.Before(start.Add(-time.Second)) || time.Since(since) > time.Second {
		t.Fatalf("after beats with a stream up: since %v (start %v), %v, %v", since, start, ok, err)
	}
	down := newRC()
	lost := time.Now().Add(-time.Hour)
	down.lostAt = lost
	s.keepAlive(id, down)()
	if since, ok, _ := s.awaySince(id); !ok || !since.Equal(lost) {
		t.Fatalf("a beat during an outage since %v: away since %v, %v", lost, since, ok)
	}
	// A restarted process that went away during an outage keeps its start.
	again := newRC()
	again.lostAt, again.downSince = time.Now(), lost
	if got := again.awaySince(); !got.Equal(lost) {
		t.Fatalf("restarted during an outage since %v: %v", lost, got)
	}
	if err := os.WriteFile(s.aliveFile(id), []byte(`{"down_since":"20`), 0o600); err != nil {
		t.Fatal(err)
	}
	if since, ok, _ := s.awaySince(id); !ok || time.Since(since) > time.Second {
		t.Fatalf("a torn heartbeat: %v, %v", since, ok)
	}
	// An oversized file is not read.
	big := `{"down_since":"2001-01-01T00:00:00Z"}` + strings.Repeat(" ", maxAliveFile)
	if err := os.WriteFile(s.aliveFile(id), []byte(big), 0o600); err != nil {
		t.Fatal(err)
	}
	if since, ok, _ := s.awaySince(id); !ok || time.Since(since) > time.Second {
		t.Fatalf("an oversized heartbeat: %v, %v", since, ok)
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
