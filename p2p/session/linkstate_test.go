package session

import (
	"testing"
	"time"
)

// Every phase × event of a match's link, against the table written out
// by hand: "-" is an event that means nothing there (ignored, the phase
// stays).
func TestLinkTransitions(t *testing.T) {
	events := []linkEvent{evStreamUp, evStreamLost, evHandshake, evHandshakeFailed, evGiveUp, evClose, evAbandon}
	const (
		W, C, R, S, G, X, A = LinkWaiting, LinkConnected, LinkReconnecting, LinkResuming, LinkGivenUp, LinkClosed, LinkAbandoned
	)
	type cell struct {
		to LinkPhase
		ok bool
	}
	y := func(p LinkPhase) cell { return cell{p, true} }
	no := func(p LinkPhase) cell { return cell{p, false} }
	//                  stream up  lost    handshake  failed  give up  close  abandon
	want := map[LinkPhase][]cell{
		W: {y(C), no(W), y(S), no(W), y(G), y(X), y(A)},
		C: {y(C), y(R), y(C), y(C), no(C), y(X), y(A)},
		R: {y(C), no(R), y(S), no(R), y(G), y(X), y(A)},
		S: {y(C), y(R), y(S), y(R), y(G), y(X), y(A)},
		G: {no(G), no(G), no(G), no(G), no(G), y(X), y(A)},
		X: {y(X), y(X), y(X), y(X), no(X), no(X), y(A)},
		A: {no(A), no(A), no(A), no(A), no(A), no(A), no(A)},
	}
	for from, row := range want {
		for i, ev := range events {
			to, ok := linkNext(from, ev)
			if (cell{to, ok}) != row[i] {
				t.Errorf("%s + %s = %s (%v), want %s (%v)", from, ev, to, ok, row[i].to, row[i].ok)
			}
		}
	}
}

// The outage's start is dated when the link goes down, kept through a
// resume handshake that fails and the give-up, and forgotten when a
// stream comes back; an ignored event changes nothing.
func TestLinkStateDatesTheOutage(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	s := linkState{phase: LinkConnected}
	steps := []struct {
		ev    linkEvent
		at    time.Duration
		ok    bool
		phase LinkPhase
		since time.Duration // -1: zero time
	}{
		{evStreamLost, 1 * time.Second, true, LinkReconnecting, 1 * time.Second},
		{evStreamLost, 2 * time.Second, false, LinkReconnecting, 1 * time.Second},
		{evHandshake, 3 * time.Second, true, LinkResuming, 1 * time.Second},
		{evHandshakeFailed, 4 * time.Second, true, LinkReconnecting, 1 * time.Second},
		{evHandshake, 5 * time.Second, true, LinkResuming, 1 * time.Second},
		{evStreamUp, 6 * time.Second, true, LinkConnected, -1},
		{evGiveUp, 7 * time.Second, false, LinkConnected, -1},
		{evStreamLost, 8 * time.Second, true, LinkReconnecting, 8 * time.Second},
		{evGiveUp, 9 * time.Second, true, LinkGivenUp, 8 * time.Second},
		{evStreamUp, 10 * time.Second, false, LinkGivenUp, 8 * time.Second},
		{evClose, 11 * time.Second, true, LinkClosed, 8 * time.Second},
	}
	for i, st := range steps {
		ok := s.move(st.ev, t0.Add(st.at))
		want := time.Time{}
		if st.since >= 0 {
			want = t0.Add(st.since)
		}
		if ok != st.ok || s.phase != st.phase || !s.since.Equal(want) {
			t.Fatalf("step %d (%s): ok %v, %s since %v; want ok %v, %s since %v", i, st.ev, ok, s.phase, s.since, st.ok, st.phase, want)
		}
	}
}

// Names for the log and the interface.
func TestLinkPhaseNames(t *testing.T) {
	for p := LinkWaiting; p <= LinkAbandoned; p++ {
		if p.String() == "unknown" {
			t.Errorf("phase %d has no name", p)
		}
	}
	if LinkPhase(200).String() != "unknown" || linkEvent(200).String() != "unknown" {
		t.Error("an unknown phase or event is not named so")
	}
}
