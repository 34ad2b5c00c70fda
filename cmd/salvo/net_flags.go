package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/libp2p/go-libp2p/core/network"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
)

// listFlag is a repeatable (or comma-separated) string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

// Set adds one value, or several separated by commas.
func (l *listFlag) Set(s string) error {
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// netFlags are the network settings shared by relay, netplay and resume.
type netFlags struct {
	listen, bootstrap, relays      listFlag
	dht, reach, logPath            string
	mdns, noPunch, findRelays      bool
	noPortMap, offerRelay, lanOnly bool
	logLevel                       string
	// dir is the claimed data directory; start claims one if it is nil.
	dir *dataDir
}

func (nf *netFlags) register(fs *flag.FlagSet, dhtDefault string) {
	fs.Var(&nf.listen, "listen", "multiaddr to listen on (repeatable; default every interface, TCP and QUIC, random ports)")
	fs.Var(&nf.bootstrap, "bootstrap", "MULTIADDR of a peer to join the DHT through, ending in /p2p/<ID> (repeatable; any Salvo peer can serve); replaces the public network's bootstrap peers; none: a DHT of your own, joined through nobody")
	fs.Var(&nf.relays, "relay", "MULTIADDR of a circuit relay to keep a reservation on, ending in /p2p/<ID> (repeatable)")
	fs.StringVar(&nf.dht, "dht", dhtDefault, "DHT mode: off, auto, client or server (default: client, off with --lan-only and no --bootstrap)")
	fs.BoolVar(&nf.lanOnly, "lan-only", false, "stay off the public network (the Amino DHT and relays found there): only the LAN, and the --relay and --bootstrap peers given (also the setting lan_only)")
	fs.StringVar(&nf.reach, "reachability", "", "force reachability: public or private (default: AutoNAT finds out)")
	fs.BoolVar(&nf.mdns, "mdns", false, "announce on the LAN and find LAN peers by mDNS")
	fs.BoolVar(&nf.noPunch, "no-holepunch", false, "turn DCUtR hole punching off")
	fs.BoolVar(&nf.noPortMap, "no-portmap", false, "do not ask the home router (UPnP / NAT-PMP) to forward a port")
	fs.BoolVar(&nf.findRelays, "find-relays", false, "find relays in the DHT and reserve a slot on them while not publicly reachable (the default when in a DHT with no --relay)")
	fs.BoolVar(&nf.offerRelay, "offer-relay", false, "relay for other players while AutoNAT finds this peer publicly reachable")
	fs.StringVar(&nf.logPath, "log", "", "log file (default: warnings on stderr)")
	fs.StringVar(&nf.logLevel, "log-level", "info", "log level for --log: debug, info, warn")
}

// reuse takes the relays and bootstrap peers a saved match was played
// with, for the flags not given: a resumed peer is reachable, and
// hole-punches, as it was (a code-only joiner's relays came from the
// code). A bootstrap peer needs the DHT only to find others; the
// connection alone tells this peer its public address.
func (nf *netFlags) reuse(sv session.Saved) {
	if len(nf.relays) == 0 {
		nf.relays = sv.Relays
	}
	if len(nf.bootstrap) == 0 {
		nf.bootstrap = sv.Bootstrap
	}
}

// network is how the peer reaches beyond the LAN: with no --bootstrap it
// joins the public network through its standard bootstrap peers
// (p2p.PublicBootstrap), to be found and to find relays, unless
// --lan-only (or the lan_only setting, read by the interface) keeps it
// off; "--bootstrap none" runs a DHT of its own. The DHT mode is --dht's,
// or client when there is a DHT to join and off when there is none.
func (nf *netFlags) network() ([]string, p2p.DHTMode, error) {
	bootstrap := []string(nf.bootstrap)
	public := false
	switch {
	case len(bootstrap) == 1 && bootstrap[0] == "none":
		bootstrap = nil
	case len(bootstrap) == 0 && !nf.lanOnly:
		bootstrap, public = p2p.PublicBootstrap(), true
	}
	if nf.dht == "" {
		if len(bootstrap) == 0 && len(nf.bootstrap) == 0 { // --lan-only
			return nil, p2p.DHTOff, nil
		}
		return bootstrap, p2p.DHTClient, nil
	}
	mode, err := p2p.ParseDHTMode(nf.dht)
	if err != nil {
		return nil, p2p.DHTOff, err
	}
	if mode == p2p.DHTOff && public {
		bootstrap = nil // nothing to join; the public peers would only be dialed
	}
	return bootstrap, mode, nil
}

// discoverRelays says whether the peer finds relays in the DHT: when asked
// to, or when it is in a DHT and was given no relay of its own.
func (nf *netFlags) discoverRelays(mode p2p.DHTMode) bool {
	return nf.findRelays || (mode != p2p.DHTOff && len(nf.relays) == 0)
}

// config turns the flags into a host configuration.
func (nf *netFlags) config(name string, stderr io.Writer) (p2p.Config, func(), error) {
	bootstrap, mode, err := nf.network()
	if err != nil {
		return p2p.Config{}, nil, err
	}
	cfg := p2p.Config{Name: name, ListenAddrs: nf.listen, Bootstrap: bootstrap, Relays: nf.relays, DHT: mode,
		EnableMDNS: nf.mdns, NoHolePunching: nf.noPunch, DiscoverRelays: nf.discoverRelays(mode), NoPortMap: nf.noPortMap}
	if nf.offerRelay {
		cfg.RelayService = p2p.RelayAuto
	}
	switch nf.reach {
	case "":
	case "public":
		cfg.Reachability = network.ReachabilityPublic
	case "private":
		cfg.Reachability = network.ReachabilityPrivate
	default:
		return p2p.Config{}, nil, fmt.Errorf("--reachability %q: want public or private", nf.reach)
	}
	closeLog := func() {}
	var h slog.Handler = slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})
	if nf.logPath != "" {
		var lvl slog.Level
		if err := lvl.UnmarshalText([]byte(nf.logLevel)); err != nil {
			return p2p.Config{}, nil, fmt.Errorf("--log-level: %w", err)
		}
		f, err := os.OpenFile(nf.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return p2p.Config{}, nil, fmt.Errorf("log file: %w", err)
		}
		closeLog = func() { f.Close() }
		h = slog.NewTextHandler(f, &slog.HandlerOptions{Level: lvl})
	}
	cfg.Logger = slog.New(h)
	if nf.dir == nil {
		d, err := claimDataDir()
		if err != nil {
			closeLog()
			return p2p.Config{}, nil, err
		}
		nf.dir = d
		closeFile := closeLog
		closeLog = func() { closeFile(); d.release() }
	}
	key, err := nf.dir.key()
	if err != nil {
		closeLog()
		return p2p.Config{}, nil, err
	}
	cfg.Key = key
	return cfg, closeLog, nil
}

// ms is a duration in milliseconds, for reports.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// netPeer is a command's running network side.
type netPeer struct {
	cfg p2p.Config
	// dir is the data directory the peer's identity and store are in.
	dir *dataDir
	// ctx ends on ctrl-c, SIGTERM or a hangup (stopSignals).
	ctx context.Context
	h   *p2p.Host
	// close closes the host, stops watching for signals and closes the log.
	close func()
}

// start starts the libp2p host the flags describe, named name, logging as
// the flags say. tune, if not nil, changes the configuration first. With
// anywhere set, a host that cannot listen on the configured addresses
// (their ports may be taken) listens on any instead.
func (nf *netFlags) start(name string, stderr io.Writer, tune func(*p2p.Config), anywhere bool) (*netPeer, error) {
	cfg, closeLog, err := nf.config(name, stderr)
	if err != nil {
		return nil, err
	}
	if tune != nil {
		tune(&cfg)
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals()...)
	h, err := p2p.New(ctx, cfg)
	if err != nil && anywhere {
		cfg.ListenAddrs = nil
		h, err = p2p.New(ctx, cfg)
	}
	if err != nil {
		stop()
		closeLog()
		return nil, err
	}
	return &netPeer{cfg: cfg, dir: nf.dir, ctx: ctx, h: h, close: func() {
		h.Close()
		stop()
		closeLog()
	}}, nil
}
