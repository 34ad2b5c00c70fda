// Package p2p is Salvo's networking layer: a libp2p host with a persistent
// identity, direct dialing by multiaddr, LAN discovery over mDNS with a tiny
// info protocol, and the framed match stream the referee talks over.
//
// # Pieces
//
//   - Identity: [LoadOrCreateIdentity] keeps one Ed25519 key per user in
//     [DataDir] (file 0600, directory 0700, written atomically), so the peer
//     ID, and any invite built from it, stays the same across restarts.
//   - Host: [New] builds a libp2p host with TCP and QUIC-v1, Noise and TLS,
//     yamux, identify, ping, the default resource manager and a connection
//     manager. go-libp2p's own logging is routed to [Config.Logger], never to
//     stderr (see [Config.Logger] for the details).
//   - Direct dial: [Host.Connect] takes one or more comma-separated
//     /ip4|ip6/.../p2p/<ID> multiaddrs (what [Host.Invite] prints).
//   - Match stream ([MatchProtocol]): [Host.OpenMatch] and [Host.Incoming] /
//     [Host.HandleMatch] give a [*Conn] carrying length-prefixed frames
//     (unsigned varint length then the bytes, the go-msgio varint format) of
//     at most [MaxFrame] bytes. OpenMatch returns once the peer accepted the
//     protocol, so either side may send first. The remote peer is protected
//     in the connection manager while a Conn is open. A context that ends
//     while Recv waits between frames (or before Send handed over a byte)
//     only returns its error; every other failure, a context ending in the
//     middle of a frame included, is terminal: the stream is reset and the
//     Conn is closed. Relayed (limited) connections are allowed;
//     [Conn.Kind] tells them apart.
//   - Frame codec: [WriteFrame] and [ReadFrame] work over any io stream.
//   - LAN discovery: mDNS with the service name [MDNSService]; every found
//     peer is asked for its display name and current offer over
//     [InfoProtocol] and reported on [Host.LANPeers].
//   - Invite codes: [Host.InviteCode] writes the host's peer ID, its useful
//     addresses (relay circuit addresses included) and the time, in
//     Crockford's base 32 after the prefix SALVO1-, with a 4-byte BLAKE2b
//     checksum; [ParseInvite] reads it leniently (case, dashes, spaces and
//     the lookalikes I, L, O, U) and says what is wrong with a mistyped,
//     newer-format or stale code; [Host.ConnectInvite] dials it (retrying
//     a failed dial or handshake with backoff until the caller's deadline:
//     [DialAttempt], [DialRetryFirst], [DialRetryMax]), falling back to the
//     DHT when its addresses went stale. The code is enough: its relays
//     become the joiner's relays and bootstrap peers ([Host.UseRelays]), so
//     DCUtR is up when the host punches. [Host.NetPeers] and
//     [Host.UseNetPeers] carry them over a resume; [Host.AddPeerAddrs] and
//     [Host.CircuitAddrs] give a redial every address the peer may be at. [Host.Invite] (plain
//     multiaddrs) still works and ParseInvite reads it. The short form
//     ([EncodeShortInvite], [Host.ShortInviteCode]; 64 characters: the
//     peer ID and a checksum) is offered once the DHT can find the host
//     ([Host.Findable]); ConnectInvite looks its addresses up there.
//   - Internet: the public Amino Kademlia DHT ([DHTProtocol];
//     [Config.DHT], [Config.Bootstrap], by default [PublicBootstrap]; any
//     Salvo peer can bootstrap others in a DHT of one's own) for rendezvous on a hashed match name ([Host.Advertise],
//     [Host.Rendezvous]) and finding a peer by ID ([Host.FindPeer]);
//     AutoNAT ([Host.Reachability]; v2's per-address verdicts,
//     [Host.ConfirmedAddrs]); UPnP / NAT-PMP port
//     mapping ([Config.NoPortMap]); circuit relay v2 reservations held by
//     libp2p's autorelay ([Config.Relays], an invite's relays, relays
//     found in the DHT with [Config.DiscoverRelays] or handed in with
//     [Host.AddRelayCandidates]) whose addresses go into the host's
//     addresses and invite code; a relay service for Salvo peers only,
//     with limits sized to a match ([Config.RelayService],
//     [RelayLimits]); DCUtR hole punching, with
//     each attempt kept ([Host.Punches]) and hole-punched connections told
//     apart by [Conn.Kind] ([KindHolePunched]).
//   - Resume streams ([ResumeProtocol], [Host.OpenResume],
//     [Host.HandleResume]) carry a match again after its stream was lost;
//     package session runs the handshake over them.
//
// # House values
//
// Everything the brief left open is a named constant in house.go:
//
//	MaxFrame         1 MiB   largest match frame (brief)
//	MaxInfo          1 KiB   largest /salvo/info/1 response
//	MaxNameRunes     32      display name, characters
//	MaxOfferBytes    64      offer string, UTF-8 bytes
//	DefaultIdle      15 min  Recv gives ErrIdle after this long without a frame
//	WriteTimeout     30 s    Send gives up when the peer does not drain
//	OpenTimeout      30 s    OpenMatch without a context deadline
//	InfoTimeout      5 s     one info query, dial included
//	LANDialWait      2 s     how long the larger peer ID waits to be dialed
//	LANDialTimeout   5 s     a dial made because of a discovery
//	LANAddrTTL       10 min  how long mDNS addresses stay in the peerstore
//	LANProbeAttempts 3       info queries to a newly found peer (500 ms, 1 s apart)
//	LANRefresh       10 s    how often known LAN peers are asked again
//	LANBuffer        64      LANPeers channel buffer (events beyond it are dropped)
//	IncomingBuffer   16      Incoming channel buffer
//	MaxFirstFrame    4 KiB   first frame of a handshake (RecvMax): join, invite, resume
//	PendingPerPeer   8       incoming streams of one peer before their first frame
//	PendingTotal     256     all of them; past it the oldest of the busiest peer goes
//	AcceptWait       10 s    how long an incoming match stream waits for a reader
//	RTTPingTimeout   2 s     bound on the ping behind Conn.RTT
//	RTTRefresh       15 s    Conn.RTT re-pings in the background when older
//	LivenessEvery    1 s     a match pings its peers this long after the last ping
//	LivenessTimeout  2.5 s   an unanswered ping means the link is dead (relayed links too)
//	PunchAddrTTL     2 min 1 s  a hole punch's peer addresses (identify's clean-up spares them)
//	ConnLow/High     32/96   connection manager watermarks, grace 1 min
//	InvitePrefix     SALVO1  invite code prefix and format version
//	InviteMaxAge     7 days  older codes are stale (relay reservations last 1 h)
//	InviteMaxSkew    10 min  how far ahead of this clock a code's issue time may be
//	InviteMaxAddrs   8       addresses in a code, in either form (all of the named peer)
//	InviteGroup      5       symbols between dashes
//	RendezvousPrefix salvo/rendezvous/1/  DHT namespace (then a hash of the name)
//	AdvertiseTTL     10 min  rendezvous records renewed at 3/4 of it
//	FindInterval     2 s     longest wait between DHT lookups (first 100 ms)
//	BootstrapTimeout 15 s    one dial to a bootstrap peer or relay
//	RelayLimitDuration 2 h   one relayed connection on a Salvo relay (libp2p: 2 min)
//	RelayLimitData   8 MiB   each way, per relayed connection (libp2p: 128 KiB)
//	RelayReservationTTL 1 h  a reservation's life (at least MinReservationTTL 90 s)
//	RelayMaxCircuits 8       relayed connections per peer (libp2p: 16)
//	RelayMaxReservations 256 peers a Salvo relay serves (libp2p: 128)
//	RelayMaxReservationsPerIP 8  per IPv4 address or IPv6 /64
//	RelayReserveBurst 4, RelayReserveEvery 15 s  reservation requests per peer (x8 per IP)
//	RelayIdentifyWait 5 s  a relay's wait for identify before its access decision
//	RelayReservations 2      relays autorelay holds a reservation on
//	RelayRetry       5 s     autorelay asks for relay candidates again (after an outage)
//	RelayBackoff     15 s    a relay where a reservation failed is left alone
//	MaxRelayCandidates 8     relays found elsewhere kept for autorelay
//	MaxDiscoveredRelays 2    relays found in the DHT handed to autorelay
//	RelaySearchInterval 30 s longest wait between DHT relay searches
//	HolePunchReadyWait 3 s   wait for our DCUtR service before an internet dial
//	UnlistenedDialDelay 1 s  a transport we do not listen on is dialed after the others
//
// Display names and offers must be valid UTF-8 without control, format
// (bidi overrides, zero-width) or line-separator characters, since they end
// up on other players' terminals (package fairness/untrusted).
//
// Against a hostile peer: a frame's buffer grows only as its bytes arrive
// (64 KiB ahead at most), whatever length its prefix announces; incoming
// streams waiting for their first frame are bounded per peer and in all
// (an [Admission]); the libp2p resource manager has limits for
// MatchProtocol, ResumeProtocol and InfoProtocol, in all and per peer
// (protocolLimits in limits.go).
package p2p
