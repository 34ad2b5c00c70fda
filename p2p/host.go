package p2p

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/muxer/yamux"
	"github.com/libp2p/go-libp2p/p2p/net/connmgr"
	"github.com/libp2p/go-libp2p/p2p/net/swarm"
	"github.com/libp2p/go-libp2p/p2p/security/noise"
	libp2ptls "github.com/libp2p/go-libp2p/p2p/security/tls"
	libp2pquic "github.com/libp2p/go-libp2p/p2p/transport/quic"
	"github.com/libp2p/go-libp2p/p2p/transport/tcp"
	ma "github.com/multiformats/go-multiaddr"
)

// ErrClosed is returned by operations on a closed Host or Conn.
var ErrClosed = errors.New("closed")

// Config configures New. The zero value is usable: an ephemeral key, every
// interface on a random port, no name, no mDNS, no logging.
type Config struct {
	// Key is the host's identity; use LoadOrCreateIdentity so the peer ID
	// stays the same across runs. Nil means a fresh ephemeral Ed25519 key.
	Key crypto.PrivKey
	// ListenAddrs are multiaddrs to listen on; empty means TCP and QUIC-v1
	// on every IPv4 and IPv6 interface, port 0. Tests use
	// /ip4/127.0.0.1/tcp/0 and /ip4/127.0.0.1/udp/0/quic-v1.
	ListenAddrs []string
	// Name is the display name other players see (untrusted.ValidateName:
	// 32 characters at most, no control or format characters).
	Name string
	// EnableMDNS announces this host on the LAN and reports other Salvo
	// hosts found there on LANPeers.
	EnableMDNS bool
	// Logger receives this package's logs and go-libp2p's own (go-libp2p's
	// filtered by GOLOG_LOG_LEVEL, errors only by default). go-libp2p's
	// logging is process-wide, so with several hosts in one process its
	// records go to the logger of the newest open host. Nil discards. The
	// mDNS library (zeroconf) writes its rare errors through the standard
	// log package instead; the program should route that one
	// (slog.SetDefault or log.SetOutput), as this package does not touch it.
	Logger *slog.Logger
	// IdleTimeout is how long Conn.Recv waits for a frame; 0 means
	// DefaultIdle.
	IdleTimeout time.Duration

	// Bootstrap are multiaddrs (each ending in /p2p/<ID>) of peers to
	// join the DHT through: PublicBootstrap for the public network, or
	// any Salvo peer of a DHT of one's own (salvo relay runs a dedicated
	// one). They are dialed at start. Test hosts refuse any outside the
	// test network (TestNetsEnv).
	Bootstrap []string
	// DHT is how this host takes part in the Salvo DHT (rendezvous by name,
	// finding a peer by ID); DHTOff (the zero value) runs none.
	DHT DHTMode
	// Relays are multiaddrs (each ending in /p2p/<ID>) of circuit relays to
	// hold a reservation on, so that peers behind other NATs can reach this
	// host through them; their circuit addresses appear in Addrs and
	// InviteCode. libp2p's autorelay holds the reservations, renews them
	// and makes them again after an outage; they lapse while AutoNAT
	// finds the host public.
	Relays []string
	// RelayService says whether this host relays for others (with Salvo's
	// limits and access filter, see RelayLimits).
	RelayService RelayMode
	// RelayLimits are what the relay service grants; the zero value means
	// DefaultRelayLimits.
	RelayLimits RelayLimits
	// NoPortMap turns UPnP / NAT-PMP port mapping off (it is on unless
	// every listen address is a loopback one).
	NoPortMap bool
	// Reachability forces what AutoNAT would find (public or private);
	// unknown (the zero value) lets AutoNAT find out.
	Reachability network.Reachability
	// NoHolePunching turns DCUtR hole punching off (it is on by default).
	NoHolePunching bool
	// AddrsFactory, if set, rewrites the addresses this host announces
	// (in identify, Addrs and invites): libp2p's own hook, for a host
	// that knows it is reached at other addresses than it listens on
	// (benchmarks put a slow link in front of every host this way).
	AddrsFactory func([]ma.Multiaddr) []ma.Multiaddr
	// DiscoverRelays finds Salvo peers that offer to relay (RelayAuto or
	// RelayOn hosts advertise themselves in the DHT) and holds a
	// reservation on up to MaxDiscoveredRelays of them while this host is
	// not publicly reachable. It needs the DHT.
	DiscoverRelays bool
}

// Host is a Salvo peer: a libp2p host plus the match and info protocols and
// optional mDNS discovery. It is safe for concurrent use.
type Host struct {
	h    host.Host
	cm   *connmgr.BasicConnMgr
	log  *slog.Logger
	sink *slog.Logger // Config.Logger as given, the target of go-libp2p's logs
	idle time.Duration
	// acceptWait and writeTimeout are AcceptWait and WriteTimeout,
	// shortened by tests.
	acceptWait   time.Duration
	writeTimeout time.Duration

	closing chan struct{} // closed when Close starts
	wg      sync.WaitGroup

	mu        sync.Mutex
	closed    bool
	name      string
	offer     string
	handler   func(*Conn)
	resume    func(*Conn)
	conns     map[*Conn]struct{}
	protected map[peer.ID]int
	incoming  chan *Conn
	pending   *Admission[*Conn] // incoming streams before their first frame

	lan *lan
	net *netState
}

// New starts a host listening on cfg.ListenAddrs. The context only bounds
// the start (mDNS included); the host lives until Close.
func New(ctx context.Context, cfg Config) (*Host, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	if err := checkName(cfg.Name); err != nil {
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	if cfg.IdleTimeout < 0 {
		return nil, fmt.Errorf("p2p: new host: negative idle timeout %v", cfg.IdleTimeout)
	}
	key := cfg.Key
	if key == nil {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("p2p: new host: ephemeral key: %w", err)
		}
		key = k
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	listen := cfg.ListenAddrs
	if len(listen) == 0 {
		listen = slices.Clone(defaultListenAddrs)
	}
	listenMA := make([]ma.Multiaddr, 0, len(listen))
	for _, a := range listen {
		m, err := ma.NewMultiaddr(a)
		if err != nil {
			return nil, fmt.Errorf("p2p: new host: listen address %q: %w", a, err)
		}
		listenMA = append(listenMA, m)
	}
	cm, err := connmgr.NewConnManager(ConnLow, ConnHigh, connmgr.WithGracePeriod(ConnGrace))
	if err != nil {
		return nil, fmt.Errorf("p2p: new host: connection manager: %w", err)
	}
	bootstrap, err := parsePeers("bootstrap peer", cfg.Bootstrap)
	if err != nil {
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	relays, err := parsePeers("relay", cfg.Relays)
	if err != nil {
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	if err := checkNetConfig(cfg); err != nil {
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	var gate []libp2p.Option
	if g := testGuard(); g != nil {
		if err := g.checkPeers("bootstrap peer", bootstrap); err != nil {
			return nil, fmt.Errorf("p2p: new host: %w", err)
		}
		if err := g.checkPeers("relay", relays); err != nil {
			return nil, fmt.Errorf("p2p: new host: %w", err)
		}
		gate = append(gate, libp2p.ConnectionGater(guardGater{g}))
	}
	rm, err := newResourceManager()
	if err != nil {
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	ns := newNetState()
	ns.bootstrap, ns.relays, ns.announce = bootstrap, relays, cfg.AddrsFactory
	pushSink(logger)
	opts := append([]libp2p.Option{
		libp2p.Identity(key),
		libp2p.ListenAddrStrings(listen...),
		libp2p.SwarmOpts(swarm.WithDialRanker(listenedRanker(listenMA))),
		libp2p.Transport(tcp.NewTCPTransport),
		libp2p.Transport(libp2pquic.NewTransport),
		libp2p.Security(noise.ID, noise.New),
		libp2p.Security(libp2ptls.ID, libp2ptls.New),
		libp2p.Muxer(yamux.ID, yamux.DefaultTransport),
		libp2p.ConnectionManager(heldWatch{cm, ns}),
		libp2p.ResourceManager(rm),
		libp2p.Ping(true),
		libp2p.UserAgent("salvo/1"),
	}, append(ns.libp2pOptions(cfg), gate...)...)
	lh, err := libp2p.New(opts...)
	if err != nil {
		ns.cancel()
		popSink(logger)
		_ = cm.Close()
		_ = rm.Close()
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	idle := cfg.IdleTimeout
	if idle == 0 {
		idle = DefaultIdle
	}
	h := &Host{
		h:            lh,
		cm:           cm,
		log:          logger.With("component", "p2p", "self", ShortID(lh.ID())),
		sink:         logger,
		idle:         idle,
		acceptWait:   acceptWait,
		writeTimeout: writeTimeout,
		closing:      make(chan struct{}),
		name:         cfg.Name,
		conns:        make(map[*Conn]struct{}),
		protected:    make(map[peer.ID]int),
		incoming:     make(chan *Conn, IncomingBuffer),
		pending:      NewAdmission[*Conn](pendingPerPeer, pendingTotal),
	}
	h.lan = newLAN(h)
	h.net = ns
	// The protocols go in before the network services start: identify
	// tells the relays we reach what we speak, and a Salvo relay admits
	// only peers that list MatchProtocol. Set after, a restarted peer's
	// first reservation raced them and was refused ("not a Salvo peer",
	// seen after a resume), and autorelay left the relay alone for
	// RelayBackoff.
	lh.SetStreamHandler(MatchProtocol, h.handleMatch)
	lh.SetStreamHandler(InfoProtocol, h.handleInfo)
	lh.SetStreamHandler(ResumeProtocol, h.handleResume)
	if err := ns.start(h, cfg); err != nil {
		_ = h.Close()
		return nil, fmt.Errorf("p2p: new host: %w", err)
	}
	if cfg.EnableMDNS {
		h.lan.start()
	}
	h.log.Debug("host started", "addrs", h.Addrs())
	return h, nil
}

// ID is the host's peer ID.
func (h *Host) ID() peer.ID { return h.h.ID() }

// Libp2p exposes the underlying libp2p host (for the referee's tests and
// for extra protocols). Do not close it directly; call Close.
func (h *Host) Libp2p() host.Host { return h.h }

// Name is the display name given in Config.
func (h *Host) Name() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.name
}

// Addrs returns the host's dialable addresses, each ending in /p2p/<ID>:
// public addresses first, then private (LAN) ones, loopback last.
func (h *Host) Addrs() []ma.Multiaddr {
	addrs := slices.Clone(h.h.Addrs())
	slices.SortStableFunc(addrs, func(a, b ma.Multiaddr) int {
		return cmp.Compare(addrRank(a), addrRank(b))
	})
	full, err := peer.AddrInfoToP2pAddrs(&peer.AddrInfo{ID: h.h.ID(), Addrs: addrs})
	if err != nil { // only for an empty peer ID, which a running host never has
		return nil
	}
	return full
}

// Invite returns Addrs as one comma-separated string, the form Connect
// accepts.
func (h *Host) Invite() string {
	addrs := h.Addrs()
	s := make([]string, len(addrs))
	for i, a := range addrs {
		s[i] = a.String()
	}
	return strings.Join(s, ",")
}

// Close closes every open Conn, stops discovery and shuts the libp2p host
// down; the Incoming and LANPeers channels are closed once nothing can send
// on them any more. Close is idempotent.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	close(h.closing)
	conns := make([]*Conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()

	h.h.RemoveStreamHandler(MatchProtocol)
	h.h.RemoveStreamHandler(InfoProtocol)
	h.h.RemoveStreamHandler(ResumeProtocol)
	h.lan.stop()
	h.net.stop()
	for _, c := range conns {
		_ = c.Close()
	}
	err := h.h.Close()
	h.wg.Wait()
	close(h.incoming)
	h.lan.closeChan()
	popSink(h.sink)
	if err != nil {
		return fmt.Errorf("p2p: close host: %w", err)
	}
	return nil
}

// goTracked runs f in a goroutine that Close waits for, unless the host is
// already closing (then f does not run and goTracked reports false).
func (h *Host) goTracked(f func()) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		f()
	}()
	return true
}

// ShortID is the tail of a peer ID (its last 8 characters), for logs and
// messages.
func ShortID(id peer.ID) string {
	s := id.String()
	if len(s) > 8 {
		return s[len(s)-8:]
	}
	return s
}
