package session

import (
	"time"
)

// A restarted process's DCUtR service comes up only once identify has told
// it its public address (p2p.Host.WaitHolePunchReady), and the other peer
// often reaches it through the relay before that: the hole punch that
// relayed connection would start is refused ("protocol not supported") or
// never begun, and libp2p starts no other. The resumed match then stayed
// relayed to its end (TestNetKillAndResumeBehindNATs, host killed).

// punchAgain waits for this host's DCUtR and for the match's stream; if
// the match then travels on a relayed connection made before DCUtR was
// up, it drops that connection once, so that the dialer's re-dial makes a
// new relayed connection whose receiving side punches. It runs on its own
// goroutine for a resumed match.
func (r *Reconnecting) punchAgain() {
	if r.h.WaitHolePunchReady(r.ctx); !r.h.HolePunchReady() {
		return
	}
	ready := time.Now()
	deadline := time.NewTimer(r.cfg.GiveUp)
	defer deadline.Stop()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		r.mu.Lock()
		up, over := r.link.phase == LinkConnected, r.link.phase.over() || r.link.phase == LinkGivenUp
		r.mu.Unlock()
		if over {
			return
		}
		if up {
			break
		}
		select {
		case <-tick.C:
		case <-deadline.C:
			return
		case <-r.ctx.Done():
			return
		}
	}
	if !r.h.RelayedBefore(r.remote, ready) {
		return // a direct link, or a relayed one DCUtR saw
	}
	r.log.Info("the resumed match is relayed on a connection older than our hole punching: dropping it once to punch")
	_ = r.h.Libp2p().Network().ClosePeer(r.remote)
}
