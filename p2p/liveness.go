package p2p

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
)

// A link can die without a word: a peer killed with SIGKILL over QUIC, a
// cable pulled, a NAT that forgets the mapping. Nothing is sent back, so
// the connection looks open until the transport's own keep-alive gives up
// (yamux pings every 30 s and allows 10 s more; QUIC's idle timeout is
// 30 s), and a match meanwhile shows a calm "waiting for …". A match
// watches its peers with libp2p's ping protocol instead: a ping that
// stays unanswered for LivenessTimeout means the link is dead for a
// person's purposes, within LivenessEvery + LivenessTimeout of its death.

// Liveness probe house values (a Liveness with zero fields uses them).
const (
	// LivenessEvery is how long after one probe the next one starts.
	LivenessEvery = time.Second
	// LivenessTimeout is how long a probe waits for its answer. On a link
	// with 200 ms of delay and 10% loss a ping still comes back well
	// within it (TCP's first retransmission waits 200 ms plus the RTT).
	LivenessTimeout = 2500 * time.Millisecond
)

// Liveness probes one peer over the connections the host already has to
// it, never dialing: a link that is down is the caller's to re-establish.
type Liveness struct {
	Every, Timeout time.Duration
}

func (l Liveness) every() time.Duration {
	if l.Every > 0 {
		return l.Every
	}
	return LivenessEvery
}

func (l Liveness) timeout() time.Duration {
	if l.Timeout > 0 {
		return l.Timeout
	}
	return LivenessTimeout
}

// Watch probes p with one ping every Every until ctx ends and hands report
// each probe's outcome: nil for an answer, an error for a ping that failed
// or stayed unanswered for Timeout. While the host has no connection to p
// nothing is probed and nothing reported (there is no link to judge). The
// reports come from Watch's own goroutine, in order.
func (l Liveness) Watch(ctx context.Context, h host.Host, p peer.ID, report func(error)) {
	go func() {
		t := time.NewTimer(0)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			// A relayed link alone is Limited, not Connected: it is
			// probed too (the probe may use a limited connection).
			if c := h.Network().Connectedness(p); c == network.Connected || c == network.Limited {
				err := l.probe(ctx, h, p)
				if ctx.Err() != nil {
					return
				}
				report(err)
			}
			t.Reset(l.every())
		}
	}()
}

// probe sends one ping to p on an existing connection.
func (l Liveness) probe(ctx context.Context, h host.Host, p peer.ID) error {
	ctx, cancel := context.WithTimeout(ctx, l.timeout())
	defer cancel()
	ctx = network.WithNoDial(network.WithAllowLimitedConn(ctx, "salvo-liveness"), "salvo-liveness")
	res, ok := <-ping.Ping(ctx, h, p)
	switch {
	case !ok: // ping closes its channel without a result when ctx ends
		return fmt.Errorf("p2p: liveness: no answer to a ping from %s within %v", ShortID(p), l.timeout())
	case res.Error != nil:
		return fmt.Errorf("p2p: liveness: ping %s: %w", ShortID(p), res.Error)
	}
	return nil
}
