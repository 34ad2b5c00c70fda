package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/relay"

	"github.com/salvo-game/salvo/p2p"
)

// runRelay is `salvo relay`: a public Salvo peer that relays for players
// behind NATs (with Salvo's raised limits) and serves the DHT as a
// bootstrap peer, until interrupted.
func runRelay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("salvo relay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var nf netFlags
	nf.register(fs, "server")
	addrFile := fs.String("addr-file", "", "write this relay's multiaddrs (one a line) to this file once listening")
	serve := fs.Bool("relay-service", true, "relay for others (false: serve the DHT only, a bootstrap node)")
	circuitTime := fs.Duration("circuit-time", p2p.RelayLimitDuration, "how long one relayed connection may last (public relays: 2m)")
	circuitBytes := fs.Int64("circuit-bytes", p2p.RelayLimitData, "how many bytes one relayed connection may carry each way (public relays: 131072)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: salvo relay [flags]\n\nRun a Salvo relay and DHT bootstrap peer on a public address: players behind\nNATs reserve a slot on it and are reached through it (limits raised so a\nwhole match fits), and hole-punch a direct connection when their NATs allow.\nGive its address to players as --bootstrap and --relay.")
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
	np, err := nf.start("relay", stderr, func(cfg *p2p.Config) {
		cfg.DiscoverRelays = false
		if *serve {
			cfg.RelayService = p2p.RelayOn
			cfg.RelayLimit = &relay.RelayLimit{Duration: *circuitTime, Data: *circuitBytes}
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
		fmt.Fprintf(stdout, "salvo relay %s: relaying (%s, %d KiB per connection each way) and serving the DHT\n", h.ID(), *circuitTime, *circuitBytes>>10)
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
