package p2p

import (
	"time"

	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Protocol IDs and service names.
const (
	// MatchProtocol is the stream protocol a match is played over.
	MatchProtocol protocol.ID = "/salvo/match/1"
	// InfoProtocol answers a peer's display name and current offer.
	InfoProtocol protocol.ID = "/salvo/info/1"
	// MDNSService is the mDNS service name Salvo hosts announce and browse.
	MDNSService = "salvo"
	// protectTag is the connection-manager tag held while a match Conn is open.
	protectTag = "salvo-match"
)

// Size limits.
const (
	// MaxFrame is the largest match frame payload, in bytes.
	MaxFrame = 1 << 20
	// MaxInfo is the largest /salvo/info/1 response payload, in bytes.
	MaxInfo = 1 << 10
	// MaxNameRunes is the longest display name, in characters (the rule
	// of the handshake, untrusted.ValidateName).
	MaxNameRunes = untrusted.MaxNameRunes
	// MaxOfferBytes is the longest offer string, in UTF-8 bytes.
	MaxOfferBytes = 64
)

// Timeouts and buffers.
const (
	// DefaultIdle is how long Recv waits for a frame when neither the
	// context nor Config.IdleTimeout says otherwise.
	DefaultIdle = 15 * time.Minute
	// OpenTimeout bounds OpenMatch (dial and protocol negotiation) when its
	// context has no deadline.
	OpenTimeout = 30 * time.Second
	// WriteTimeout bounds one Send when its context has no earlier deadline.
	WriteTimeout = 30 * time.Second
	// InfoTimeout bounds one info query (dial, request and answer) and the
	// answering side's work.
	InfoTimeout = 5 * time.Second
	// LANDialWait is how long the peer with the larger ID waits for the
	// smaller one to dial after an mDNS discovery before dialing itself.
	LANDialWait = 2 * time.Second
	// LANDialTimeout bounds a dial made because of an mDNS discovery.
	LANDialTimeout = 5 * time.Second
	// LANProbeAttempts is how many times a newly found LAN peer is asked
	// for its info before it is ignored (until mDNS reports it again).
	LANProbeAttempts = 3
	// LANRetryDelay is the wait before the second attempt; it doubles.
	LANRetryDelay = 500 * time.Millisecond
	// LANRefresh is how often known LAN peers are asked for their info again,
	// so offers that change show up and peers that left are reported gone.
	LANRefresh = 10 * time.Second
	// LANAddrTTL is how long addresses learnt from mDNS stay in the peerstore.
	LANAddrTTL = 10 * time.Minute
	// LANBuffer is the capacity of the LANPeers channel.
	LANBuffer = 64
	// IncomingBuffer is the capacity of the Incoming channel.
	IncomingBuffer = 16
	// RTTPingTimeout bounds the ping Conn.RTT sends when the peerstore has
	// no latency for the peer yet.
	RTTPingTimeout = 2 * time.Second
	// RTTRefresh is how old the last ping may be before Conn.RTT starts a
	// new one in the background.
	RTTRefresh = 15 * time.Second
	// AcceptWait is how long an incoming match stream waits for room on the
	// Incoming channel before it is reset.
	AcceptWait = 10 * time.Second
)

// Copies of the waits tests shorten; read when a Host starts.
var (
	acceptWait   = AcceptWait
	writeTimeout = WriteTimeout
	lanRefresh   = LANRefresh
)

// Connection manager settings.
const (
	// ConnLow is the connection manager's low watermark.
	ConnLow = 32
	// ConnHigh is the connection manager's high watermark.
	ConnHigh = 96
	// ConnGrace is how long a new connection is safe from trimming.
	ConnGrace = time.Minute
)

// defaultListenAddrs are used when Config.ListenAddrs is empty: every
// interface, a random port, TCP and QUIC-v1 on IPv4 and IPv6.
var defaultListenAddrs = []string{
	"/ip4/0.0.0.0/tcp/0",
	"/ip4/0.0.0.0/udp/0/quic-v1",
	"/ip6/::/tcp/0",
	"/ip6/::/udp/0/quic-v1",
}

// Internet play: DHT, relays, AutoNAT and hole punching.
const (
	// DHTProtocol is the Kademlia protocol hosts speak: the public Amino
	// DHT's, so that with no server of its own a host joins the network
	// IPFS runs on (see PublicBootstrap) to be found and to find relays.
	DHTProtocol protocol.ID = "/ipfs/kad/1.0.0"
	// RendezvousPrefix is the DHT namespace rendezvous names are hashed
	// under (the name itself never goes on the network).
	RendezvousPrefix = "salvo/rendezvous/1/"
	// RelayRendezvous is the DHT namespace Salvo relays advertise under.
	RelayRendezvous = "salvo/relays/1"
	// AdvertiseTTL is how long a rendezvous provider record is asked to
	// live; Advertise renews it before then.
	AdvertiseTTL = 10 * time.Minute
	// FindInterval is how often Rendezvous asks the DHT again while no
	// peer has been found.
	FindInterval = 2 * time.Second
	// BootstrapTimeout bounds one dial to a bootstrap peer.
	BootstrapTimeout = 15 * time.Second

	// Salvo relay defaults (RelayLimits, DefaultRelayLimits). The biggest
	// match measured (Air, 4 players, random bots: 781 records) has a
	// 587 KB transcript; a 2-player match is
	// 50-270 KB. Over a circuit each side also carries libp2p's framing,
	// gossip duplicates in a group match (about 3x) and a liveness ping every
	// second (about 200 B/s each way with headers), so 2 hours of that is
	// 1.4 MB and the whole budget under 4 MB each way: 8 MiB leaves room.
	RelayLimitDuration        = 2 * time.Hour
	RelayLimitData            = 8 << 20
	RelayReservationTTL       = time.Hour
	RelayMaxReservations      = 256
	RelayMaxCircuits          = 8
	RelayMaxReservationsPerIP = 8
	RelayReserveBurst         = 4
	RelayReserveEvery         = 15 * time.Second
	// MinReservationTTL is the shortest reservation a relay may grant
	// (see RelayLimits.ReservationTTL).
	MinReservationTTL = 90 * time.Second
	// RelayReservations is how many relays autorelay holds a reservation
	// on at once (the first ones of Config.Relays, the invite's, then
	// those found in the DHT).
	RelayReservations = 2
	// MaxRelayCandidates bounds the relays found elsewhere (the DHT) that
	// AddRelayCandidates keeps for autorelay.
	MaxRelayCandidates = 8
	// RelayRetry is how often autorelay asks for relay candidates again
	// while it holds fewer than RelayReservations: after an outage the
	// reservation comes back at most this long after the link does.
	RelayRetry = 5 * time.Second
	// RelayBackoff is how long autorelay leaves a relay alone after a
	// reservation failed there (a refusal, or a reservation that timed out
	// on a loaded machine or link). libp2p's default is an hour, far too
	// long for the one relay of an invite code; a minute was still as long
	// as a joiner waits, so one slow answer left a host unreachable for a
	// whole match offer. 15 s is the refill interval of a Salvo relay's
	// own rate limit (RelayReserveEvery), so a host asking again this often
	// never exhausts it.
	RelayBackoff = RelayReserveEvery
	// MaxDiscoveredRelays is how many relays found in the DHT a host
	// hands autorelay (Config.DiscoverRelays).
	MaxDiscoveredRelays = 2
	// RelaySearchInterval is how often a host without enough relays asks
	// the DHT for more.
	RelaySearchInterval = 30 * time.Second
)

// Invite codes.
const (
	// InvitePrefix starts every compact invite code, with its version.
	InvitePrefix = "SALVO1"
	// InviteMaxAge is how old a code may be before ParseInvite calls it
	// stale (relay reservations last an hour and home NAT mappings not
	// much longer; a week leaves room for a persistent identity on a fixed
	// address).
	InviteMaxAge = 7 * 24 * time.Hour
	// InviteMaxSkew is how far ahead of the joiner's clock a code's issue
	// time may be (clocks of two home computers differ by seconds to
	// minutes; a code from years ahead would never go stale).
	InviteMaxSkew = 10 * time.Minute
	// InviteMaxAddrs is how many addresses a code carries at most, in
	// either form.
	InviteMaxAddrs = 8
	// InviteGroup is how many symbols go between dashes in a code.
	InviteGroup = 5
)
