package p2p

import (
	"time"

	"github.com/libp2p/go-libp2p/core/protocol"
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
	// MaxNameBytes is the longest display name, in UTF-8 bytes.
	MaxNameBytes = 64
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
