// Package group carries one match among more than two Salvo peers over a
// libp2p pubsub topic (gossipsub), as a fairness.GroupTransport.
//
// Every frame on the topic "salvo/match/<match id>" is one of the match's
// signed envelopes, unchanged: the referee of every peer checks every
// envelope itself, so a cheat is caught by every honest peer, and a seat
// that goes silent forfeits by timeout at every other peer. The topic adds
// no trust of its own; it only has to deliver.
//
// # What the topic does
//
//   - One [Router] per libp2p host runs gossipsub with flood publishing: a
//     peer publishes every frame straight to every peer it knows is
//     subscribed, not only to its mesh, so delivery does not wait for the
//     mesh to form. libp2p signs every pubsub message with the author's
//     key and checks it (strict signing), so the author of a frame is known.
//   - [Router.Join] joins the topic of one match and protects the
//     connections to the other players in the host's connection manager
//     until the topic is closed. Its validator rejects a
//     frame over [MaxFrame] bytes or authored by a peer that is not a player
//     of the match; such frames never reach the referee and are not
//     forwarded.
//   - [Topic.RecvFrom] delivers each frame with its author's peer ID (the
//     signed pubsub author, msg.GetFrom, whichever peer forwarded it; not
//     ReceivedFrom, the last hop), so the referee can blame the sender of a
//     frame that does not even decode, and never blames the seat an envelope
//     names for a frame that seat neither signed nor sent (see "More than
//     two seats" in docs/PROTOCOL.md). The peer's own frames are dropped.
//     Frames may arrive out of order: the referee holds early ones, once
//     their signature verifies, until their turn.
//   - [Topic.WaitPeers] blocks until this peer sees every other player
//     subscribed. A frame published before a peer has seen another's
//     subscription can be lost for that peer (gossipsub forwards only to
//     known subscribers; its gossip recovers recent messages only for a few
//     heartbeats), so the session handshake has every peer wait, and report
//     ready, before the first envelope.
//   - A reader goroutine drains the subscription into a queue bounded per
//     author in frames and bytes ([QueuePerAuthor], [QueueBytesPerAuthor]), so pubsub never drops a frame because the
//     referee is busy verifying a shuffle, and a player flooding the topic
//     only loses its own frames.
//   - Once every other player has left the topic (after all had been on
//     it), RecvFrom returns [ErrAllLeft] after the frames already received:
//     the referee then ends the match at once instead of waiting out its
//     timeout. A player left when it unsubscribed with its connection up;
//     one whose connections were lost (a cut link, a killed process) may
//     come back or resume, and is given up on by the session's give-up time.
//   - [Topic.Deliver] queues a frame this peer missed on the topic and took
//     back from another player (the session's fetch protocol), as if its
//     author had published it.
//   - [Topic.Away] says which other players are gone and since when: seen
//     on the topic and no longer subscribed (left, or every connection
//     closed), or no answer to libp2p pings on an open connection
//     (p2p.Liveness: a link that died without a word, which gossipsub
//     would keep subscribed until the transport gives up, 30 s and more).
//     A player that comes back is no longer listed; one whose connections
//     closed is dialed again ([RedialFirst] to [RedialMax] apart), since
//     gossipsub never dials. The session gives up on a seat gone past its
//     give-up time once the match waits for it.
//   - [Topic.Linger] keeps the subscription open after the match, until the
//     other players have left (they leave only once their referee is done,
//     so they have every frame they need) or a bound passes.
//
// # House values
//
// The numbers live in house.go: [MaxFrame] (960 KiB: a match stream's
// 1 MiB less room for the pubsub RPC around it), [QueuePerAuthor] (1,024
// frames), [QueueBytesPerAuthor] (8 MiB), [SubscriptionBuffer] (1,024), [LeftGrace] (500 ms),
// [PollInterval] (20 ms), [RedialFirst] (500 ms) to [RedialMax] (5 s)
// between dials of a lost player, and the topic name prefix [TopicPrefix].
//
// # Limits
//
// Peers must be directly connected (or connected through a relay) to see
// each other's subscriptions: gossipsub announces subscriptions only to
// connected peers. The session handshake passes every player's addresses
// and has the joiners dial each other; a player nobody can reach makes
// WaitPeers fail with its peer ID named.
package group
