package p2p

import (
	"context"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/p2p/protocol/ping"
)

// RTT is the round-trip time to the peer, from the peerstore's moving
// average of ping times. The first call with no measurement yet pings once
// and waits for it (at most RTTPingTimeout); later calls return at once and
// start a background ping when the last one is older than RTTRefresh, so a
// status line can call RTT freely. Zero means unknown (the ping failed or
// the Conn is closed).
func (c *Conn) RTT() time.Duration {
	if d := c.h.h.Peerstore().LatencyEWMA(c.remote); d > 0 {
		c.rttMu.Lock()
		stale := !c.rttBusy && time.Since(c.rttAt) >= RTTRefresh
		if stale {
			c.rttBusy = true
		}
		c.rttMu.Unlock()
		if stale && !c.h.goTracked(c.backgroundPing) {
			c.rttMu.Lock()
			c.rttBusy = false
			c.rttMu.Unlock()
		}
		return d
	}
	return c.ping()
}

// backgroundPing refreshes the latency average.
func (c *Conn) backgroundPing() {
	c.ping()
	c.rttMu.Lock()
	c.rttBusy = false
	c.rttMu.Unlock()
}

// ping measures one round trip (recorded in the peerstore by the ping
// service) and notes when; zero on failure.
func (c *Conn) ping() time.Duration {
	ctx, cancel := context.WithTimeout(c.ctx, RTTPingTimeout)
	defer cancel()
	res := <-ping.Ping(network.WithAllowLimitedConn(ctx, "salvo-rtt"), c.h.h, c.remote)
	c.rttMu.Lock()
	c.rttAt = time.Now()
	c.rttMu.Unlock()
	if res.Error != nil {
		c.h.log.Debug("rtt ping failed", "peer", ShortID(c.remote), "err", res.Error)
		return 0
	}
	return res.RTT
}
