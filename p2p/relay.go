package p2p

import (
	"context"
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
)

// RelayResources are the limits of a Salvo relay: libp2p's defaults with
// the per-connection limits raised so a whole match fits in one relayed
// connection (see RelayLimitDuration and RelayLimitData).
func RelayResources() relay.Resources {
	rc := relay.DefaultResources()
	rc.Limit = &relay.RelayLimit{Duration: RelayLimitDuration, Data: RelayLimitData}
	rc.MaxCircuits = RelayMaxCircuits
	rc.MaxReservations = RelayMaxReservations
	return rc
}

// startRelay starts the circuit relay v2 service with Salvo's limits.
func (n *netState) startRelay() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.relaySvc != nil || n.ctx.Err() != nil {
		return nil
	}
	rc := RelayResources()
	if n.relayLimit != nil {
		rc.Limit = n.relayLimit
	}
	svc, err := relay.New(n.h.h, relay.WithResources(rc))
	if err != nil {
		return fmt.Errorf("p2p: relay service: %w", err)
	}
	n.relaySvc = svc
	n.h.log.Info("relay service on", "duration", rc.Limit.Duration, "data", rc.Limit.Data)
	if n.kad != nil {
		n.h.goTracked(func() { n.advertise(n.ctx, RelayRendezvous) })
	}
	return nil
}

// stopRelay stops the relay service (RelayAuto when we became private).
func (n *netState) stopRelay() {
	n.mu.Lock()
	svc := n.relaySvc
	n.relaySvc = nil
	n.mu.Unlock()
	if svc != nil {
		_ = svc.Close()
		n.h.log.Info("relay service off")
	}
}

// IsRelay reports whether this host is relaying for others right now.
func (h *Host) IsRelay() bool {
	h.net.mu.Lock()
	defer h.net.mu.Unlock()
	return h.net.relaySvc != nil
}

// RelayAddrs are this host's circuit addresses (…/p2p/<relay>/p2p-circuit)
// through the relays it holds a reservation on, without the final
// /p2p/<own ID>.
func (h *Host) RelayAddrs() []ma.Multiaddr {
	return h.net.addrsFactory(nil)
}

// reserve makes or renews one reservation and records the circuit
// addresses it gives.
func (n *netState) reserve(ctx context.Context, ai peer.AddrInfo) error {
	if ai.ID == n.h.ID() {
		return fmt.Errorf("p2p: relay %s is this host", ai.ID)
	}
	ctx, cancel := context.WithTimeout(ctx, BootstrapTimeout)
	defer cancel()
	if err := n.h.h.Connect(ctx, ai); err != nil {
		return fmt.Errorf("p2p: reach relay %s: %w", ai.ID, err)
	}
	res, err := client.Reserve(ctx, n.h.h, ai)
	if err != nil {
		n.mu.Lock()
		delete(n.reserved, ai.ID)
		n.mu.Unlock()
		return fmt.Errorf("p2p: reserve a slot on relay %s: %w", ai.ID, err)
	}
	n.h.cm.Protect(ai.ID, relayProtectTag)
	relayAddrs := ai.Addrs
	if len(relayAddrs) == 0 {
		relayAddrs = n.h.h.Peerstore().Addrs(ai.ID)
	}
	var circuits []ma.Multiaddr
	for _, a := range relayAddrs {
		if IsRelayAddr(a) {
			continue
		}
		c, err := ma.NewMultiaddr(a.String() + "/p2p/" + ai.ID.String() + "/p2p-circuit")
		if err == nil {
			circuits = append(circuits, c)
		}
	}
	n.mu.Lock()
	n.reserved[ai.ID] = circuits
	n.mu.Unlock()
	n.announceRelayAddrs()
	n.h.log.Info("relay reservation", "relay", ShortID(ai.ID), "expires", res.Expiration.Format(time.RFC3339),
		"limit_duration", res.LimitDuration, "limit_data", res.LimitData)
	return nil
}

// keepReservation renews the reservation on a relay before it expires and
// retries failures with a growing wait, until the host closes. The first
// attempt comes after first. A host that AutoNAT finds public needs no
// relay and lets it lapse.
func (n *netState) keepReservation(ai peer.AddrInfo, first time.Duration) {
	wait := first
	retry := ReservationRetry
	for {
		if !sleepCtx(n.ctx, wait) {
			return
		}
		if n.h.Reachability() == network.ReachabilityPublic {
			wait = renewEvery()
			continue
		}
		if err := n.reserve(n.ctx, ai); err != nil {
			if n.ctx.Err() != nil {
				return
			}
			n.h.log.Warn("relay reservation failed", "relay", ShortID(ai.ID), "err", err, "retry_in", retry)
			wait = retry
			retry = min(2*retry, ReservationRetryMax)
			continue
		}
		retry = ReservationRetry
		wait = renewEvery()
	}
}

// renewEvery is how often a held reservation is renewed: relays grant an
// hour, so ReservationRenew before that (tests shorten it).
func renewEvery() time.Duration {
	if reservationRenewEvery > 0 {
		return reservationRenewEvery
	}
	return time.Hour - ReservationRenew
}

// reservationRenewEvery shortens renewals in tests; 0 means the default.
var reservationRenewEvery time.Duration
