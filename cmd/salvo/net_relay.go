package main

import (
	"flag"
	"fmt"
	"io"
	"strings"


	"github.com/salvo-game/salvo/p2p"
)

// runRelay is `salvo relay`: a public Salvo peer that relays for Salvo
// players behind NATs (with limits sized to a match, see
// p2p.RelayLimits) and serves the DHT as a bootstrap peer, until
// interrupted.
func runRelay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf netFlags
	nf.register(fs, "server")
	addrFile := fs.String("addr-file", "", "write this relay's multiaddrs (one a line) to this file once listening")
	lim := relayLimitFlags(fs)
	serve := fs.Bool("relay-service", true, "relay for others (false: serve the DHT only, a bootstrap node)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo relay [flags]\n\nRun a Salvo relay and DHT bootstrap peer on a public address: players behind\nNATs reserve a slot on it and are reached through it, and hole-punch a direct\nconnection when their NATs allow. It serves Salvo peers only, with limits\nsized to a match and reservation requests rate-limited (the flags below).\nGive its address to players as --bootstrap and --relay.")
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if nf.reach == "" {
		nf.reach = "public" // the operator runs a relay where it is reachable
	}
	if len(nf.listen) == 0 {
		nf.listen = listFlag{"/ip4/0.0.0.0/tcp/4001", "/ip4/0.0.0.0/udp/4001/quic-v1", "/ip6/::/tcp/4001", "/ip6/::/udp/4001/quic-v1"}
	}
	if err := lim.Check(); err != nil {
		fmt.Fprintf(stderr, "salvo relay: %v\n", err)
		return exitUsage
	}
	np, err := nf.start("relay", stderr, func(cfg *p2p.Config) {
		cfg.DiscoverRelays = false
		if *serve {
			cfg.RelayService, cfg.RelayLimits = p2p.RelayOn, *lim
		}
	}, false)
	if err != nil {
		fmt.Fprintf(stderr, "salvo relay: %v\n", err)
		return exitUsage
	}
	defer np.close()
	ctx, h := np.ctx, np.h
	var lines []string
	for _, a := range h.Addrs() {
		lines = append(lines, a.String())
	}
	if *serve {
		fmt.Fprintf(stdout, "salvo relay %s: relaying for Salvo peers (%s and %d KiB each way per circuit, %d reservations, %d per IP) and serving the DHT\n",
			h.ID(), lim.Duration, lim.Data>>10, lim.MaxReservations, lim.MaxReservationsPerIP)
	} else {
		fmt.Fprintf(stdout, "salvo relay %s: serving the DHT (not relaying)\n", h.ID())
	}
	for _, l := range lines {
		fmt.Fprintln(stdout, "  "+l)
	}
	if *addrFile != "" {
		if err := writeAtomic(*addrFile, strings.Join(lines, "\n")+"\n"); err != nil {
			fmt.Fprintf(stderr, "salvo relay: %v\n", err)
			return exitUsage
		}
	}
	<-ctx.Done()
	return exitOK
}

// relayLimitFlags registers the flags that change a Salvo relay's limits
// and returns the limits they fill in (p2p.DefaultRelayLimits unless
// given; docs/PROTOCOL.md says how the defaults were sized).
func relayLimitFlags(fs *flag.FlagSet) *p2p.RelayLimits {
	l := p2p.DefaultRelayLimits()
	fs.DurationVar(&l.Duration, "circuit-duration", l.Duration, "how long one relayed connection may stay open")
	fs.Int64Var(&l.Data, "circuit-data", l.Data, "bytes one relayed connection may carry each way")
	fs.DurationVar(&l.ReservationTTL, "reservation-ttl", l.ReservationTTL, "how long a reservation lasts before it must be renewed (at least 90s)")
	fs.IntVar(&l.MaxReservations, "max-reservations", l.MaxReservations, "peers served at once")
	fs.IntVar(&l.MaxCircuits, "max-circuits", l.MaxCircuits, "relayed connections one peer may have open")
	fs.IntVar(&l.MaxReservationsPerIP, "reservations-per-ip", l.MaxReservationsPerIP, "peers behind one IPv4 address or IPv6 /64 served at once")
	fs.IntVar(&l.ReserveBurst, "reserve-burst", l.ReserveBurst, "reservation requests one peer may make at once (an IP address: this times --reservations-per-ip)")
	fs.DurationVar(&l.ReserveEvery, "reserve-every", l.ReserveEvery, "then one request per peer every this long")
	return &l
}
