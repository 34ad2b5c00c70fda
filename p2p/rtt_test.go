package p2p

import (
	"testing"
	"time"
)

func TestRTTRefreshesInBackground(t *testing.T) {
	a, b := pair(t, "tcp", Config{}, Config{})
	ca, _ := matchPair(t, a, b)
	first := ca.RTT()
	if first <= 0 {
		t.Fatalf("first RTT = %v", first)
	}
	ca.rttMu.Lock()
	measured := ca.rttAt
	ca.rttMu.Unlock()
	if measured.IsZero() {
		t.Fatal("first RTT did not ping")
	}
	// Fresh: no new ping.
	if d := ca.RTT(); d <= 0 {
		t.Fatalf("second RTT = %v", d)
	}
	ca.rttMu.Lock()
	busy, at := ca.rttBusy, ca.rttAt
	ca.rttMu.Unlock()
	if busy || !at.Equal(measured) {
		t.Fatal("a fresh measurement was refreshed")
	}
	// Stale: RTT answers at once and pings in the background.
	ca.rttMu.Lock()
	ca.rttAt = time.Now().Add(-RTTRefresh)
	ca.rttMu.Unlock()
	start := time.Now()
	if d := ca.RTT(); d <= 0 {
		t.Fatalf("stale RTT = %v", d)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ca.rttMu.Lock()
		busy, at = ca.rttBusy, ca.rttAt
		ca.rttMu.Unlock()
		if !busy && at.After(start) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no background ping after a stale RTT")
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = ca.Close()
	if d := ca.ping(); d != 0 {
		t.Fatalf("ping on a closed Conn = %v, want 0", d)
	}
}
