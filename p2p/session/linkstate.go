package session

import "time"

// A two-player match's link goes through a few explicit phases, and
// every change of phase goes through one table (linkNext): before, five
// booleans and a timestamp said it between them, and nothing stopped a
// combination that means nothing (a give-up timer firing on a stream
// that had come back, a closed match "reconnecting"). The title bar
// reads the phase (Reconnecting.Link): "reconnecting · 23 s, gives up in
// 1:37".
//
//	            lost              handshake
//	Connected ───────▶ Reconnecting ───────▶ Resuming
//	    ▲                │   ▲                 │ │
//	    │                │   └──── failed ─────┘ │
//	    └────────────────┼───── stream up ───────┘
//	                     │ give-up time
//	                     ▼
//	                  GivenUp          (any) ──Close──▶ Closed
//	                                   (any) ─abandon─▶ Abandoned
//
// Waiting is Reconnecting for a restarted process that has not had a
// stream yet.

// LinkPhase is what a match's link is doing.
type LinkPhase uint8

const (
	// LinkWaiting: no stream yet (a new match before its first one, a
	// restarted process until the other peer is back).
	LinkWaiting LinkPhase = iota
	// LinkConnected: a stream carries the match.
	LinkConnected
	// LinkReconnecting: the stream was lost; the dialer opens new ones,
	// the other side waits for them, the give-up clock runs.
	LinkReconnecting
	// LinkResuming: a new stream is open and the resume handshake runs on
	// it; the give-up clock still runs.
	LinkResuming
	// LinkGivenUp: no stream for the give-up time; the other peer
	// forfeits.
	LinkGivenUp
	// LinkClosed: the match is over here; the transport still answers a
	// late resume until it lingered.
	LinkClosed
	// LinkAbandoned: this process stopped mid-match, without the end
	// frame (it will resume).
	LinkAbandoned
)

var linkPhaseNames = [...]string{"waiting", "connected", "reconnecting", "resuming", "given up", "closed", "abandoned"}

func (p LinkPhase) String() string {
	if int(p) < len(linkPhaseNames) {
		return linkPhaseNames[p]
	}
	return "unknown"
}

// Down reports a phase without a stream in which the match still waits
// for the other peer: what the title bar shows as an outage.
func (p LinkPhase) Down() bool {
	return p == LinkWaiting || p == LinkReconnecting || p == LinkResuming
}

// over reports a phase after Close or abandon.
func (p LinkPhase) over() bool { return p == LinkClosed || p == LinkAbandoned }

// linkEvent is what moves a link from one phase to another.
type linkEvent uint8

const (
	evStreamUp        linkEvent = iota // a stream is installed, its handshake done
	evStreamLost                       // the current stream failed
	evHandshake                        // a resume handshake starts on a new stream
	evHandshakeFailed                  // that handshake failed
	evGiveUp                           // the give-up time passed without a stream
	evClose                            // the match is over here
	evAbandon                          // the process stops mid-match
)

var linkEventNames = [...]string{"stream up", "stream lost", "handshake", "handshake failed", "give up", "close", "abandon"}

func (e linkEvent) String() string {
	if int(e) < len(linkEventNames) {
		return linkEventNames[e]
	}
	return "unknown"
}

// linkNext is the table of transitions: the phase ev leads to from p, and
// false for an event that means nothing in p (a give-up timer of an
// outage that is over, a loss reported for a stream already replaced),
// which leaves the phase as it is.
func linkNext(p LinkPhase, ev linkEvent) (LinkPhase, bool) {
	if next, ok := linkStep(p, ev); ok {
		return next, true
	}
	return p, false
}

// linkStep is linkNext's table; its phase for a false answer is not used.
func linkStep(p LinkPhase, ev linkEvent) (LinkPhase, bool) {
	switch {
	case p == LinkAbandoned:
		return p, false // nothing comes back from there
	case ev == evAbandon:
		return LinkAbandoned, true
	case p == LinkClosed:
		// A closed match still answers a late resume and may lose that
		// stream: it stays closed.
		return p, ev != evClose && ev != evGiveUp
	case ev == evClose:
		return LinkClosed, true
	case p == LinkGivenUp:
		return p, false // only Close ends it
	}
	switch ev {
	case evStreamUp:
		return LinkConnected, true
	case evStreamLost:
		return LinkReconnecting, p == LinkConnected || p == LinkResuming
	case evHandshake:
		if p == LinkConnected {
			return p, true // a move to a better connection, beside the current stream
		}
		return LinkResuming, true
	case evHandshakeFailed:
		if p == LinkResuming {
			return LinkReconnecting, true
		}
		return p, p == LinkConnected
	case evGiveUp:
		return LinkGivenUp, p.Down()
	}
	return p, false
}

// LinkState is a snapshot of a match's link.
type LinkState struct {
	Phase LinkPhase
	// Since is when the outage began, while the phase is Down (the
	// stream's loss; for a restarted process its heartbeat's last beat),
	// and when it gave up for LinkGivenUp; zero otherwise.
	Since time.Time
	// GiveUpAt is when the match gives up on the other peer, while the
	// phase is Down and an outage is dated.
	GiveUpAt time.Time
	// Kind is the current stream's kind of connection ("relayed",
	// "hole-punched", …), KindReconnecting without one.
	Kind string
}

// linkState is the phase of a link and when its outage began.
type linkState struct {
	phase LinkPhase
	since time.Time // the stream's loss, while Down or GivenUp
}

// move applies ev to the link at now; it reports false, changing nothing,
// for an event that means nothing in the current phase. A link that goes
// down dates the outage; one that comes back forgets it. The caller holds
// the transport's mu.
func (s *linkState) move(ev linkEvent, now time.Time) bool {
	next, ok := linkNext(s.phase, ev)
	if !ok {
		return false
	}
	switch {
	case next == LinkConnected:
		s.since = time.Time{}
	case next.Down() && !s.phase.Down():
		s.since = now
	}
	s.phase = next
	return true
}
