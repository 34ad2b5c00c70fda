package p2p

import (
	"fmt"
	"time"

	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"
	ma "github.com/multiformats/go-multiaddr"
)

// RelayLimits are what a Salvo relay grants (salvo relay's flags change
// them). The defaults are sized to a match, not to libp2p's general
// traffic: see DefaultRelayLimits.
type RelayLimits struct {
	// Duration is how long one relayed connection stays open; a match
	// that outlasts it moves to a new circuit (or a hole-punched link)
	// through the resume machinery.
	Duration time.Duration
	// Data is how many bytes one relayed connection carries in each
	// direction before the relay closes it.
	Data int64
	// ReservationTTL is how long a reservation lasts before the holder
	// must renew it. libp2p's autorelay renews once a minute whatever
	// expires within two, so anything under MinReservationTTL would leave
	// holders without a slot between renewals.
	ReservationTTL time.Duration
	// MaxReservations is how many peers the relay serves at once.
	MaxReservations int
	// MaxCircuits is how many relayed connections one peer may have open.
	MaxCircuits int
	// MaxReservationsPerIP is how many peers behind one IP address (one
	// /64 for IPv6, see reserveRate) hold a reservation at once.
	MaxReservationsPerIP int
	// ReserveBurst and ReserveEvery are the reservation requests one peer
	// may make: ReserveBurst at once, then one every ReserveEvery. An
	// honest holder asks once an hour, plus once after each outage. One
	// IP address (a home with several players) gets MaxReservationsPerIP
	// times that.
	ReserveBurst int
	ReserveEvery time.Duration
}

// DefaultRelayLimits are the limits of a Salvo relay without flags.
func DefaultRelayLimits() RelayLimits {
	return RelayLimits{
		Duration: RelayLimitDuration, Data: RelayLimitData, ReservationTTL: RelayReservationTTL,
		MaxReservations: RelayMaxReservations, MaxCircuits: RelayMaxCircuits,
		MaxReservationsPerIP: RelayMaxReservationsPerIP,
		ReserveBurst:         RelayReserveBurst, ReserveEvery: RelayReserveEvery,
	}
}

// Check says what is wrong with the limits, naming the first bad one.
func (l RelayLimits) Check() error {
	switch {
	case l.Duration <= 0:
		return fmt.Errorf("relay circuit duration %v: must be positive", l.Duration)
	case l.Data <= 0:
		return fmt.Errorf("relay circuit data %d: must be positive", l.Data)
	case l.ReservationTTL < MinReservationTTL:
		return fmt.Errorf("reservation TTL %v: at least %v (autorelay renews once a minute)", l.ReservationTTL, MinReservationTTL)
	case l.MaxReservations < 1 || l.MaxCircuits < 1 || l.MaxReservationsPerIP < 1:
		return fmt.Errorf("relay reservations %d, circuits %d, per IP %d: each at least 1", l.MaxReservations, l.MaxCircuits, l.MaxReservationsPerIP)
	case l.ReserveBurst < 1 || l.ReserveEvery <= 0:
		return fmt.Errorf("reservation rate %d then one every %v: burst at least 1, interval positive", l.ReserveBurst, l.ReserveEvery)
	}
	return nil
}

// resources turns the limits into libp2p's relay resources.
func (l RelayLimits) resources() relay.Resources {
	rc := relay.DefaultResources()
	rc.Limit = &relay.RelayLimit{Duration: l.Duration, Data: l.Data}
	rc.ReservationTTL = l.ReservationTTL
	rc.MaxCircuits = l.MaxCircuits
	rc.MaxReservations = l.MaxReservations
	rc.MaxReservationsPerIP = l.MaxReservationsPerIP
	return rc
}

// RelayResources are the libp2p relay resources of a Salvo relay with the
// default limits.
func RelayResources() relay.Resources { return DefaultRelayLimits().resources() }

// startRelay starts the circuit relay v2 service with Salvo's limits and
// its access filter (Salvo peers only, reservations rate-limited).
func (n *netState) startRelay() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.relaySvc != nil || n.ctx.Err() != nil {
		return nil
	}
	lim := n.relayLimits
	svc, err := relay.New(n.h.h, relay.WithResources(lim.resources()), relay.WithACL(newRelayACL(n.h, lim)))
	if err != nil {
		return fmt.Errorf("p2p: relay service: %w", err)
	}
	n.relaySvc = svc
	n.h.log.Info("relay service on", "duration", lim.Duration, "data", lim.Data, "ttl", lim.ReservationTTL,
		"reservations", lim.MaxReservations, "per_ip", lim.MaxReservationsPerIP)
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
