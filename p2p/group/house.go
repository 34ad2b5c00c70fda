package group

import (
	"time"

	"github.com/salvo-game/salvo/p2p"
)

// House values of the group transport.
const (
	// TopicPrefix starts the pubsub topic of a match; the match ID (64 hex
	// digits) follows.
	TopicPrefix = "salvo/match/"
	// MaxFrame is the largest frame a topic carries: a match stream's bound
	// less room for what a pubsub RPC adds around one frame (topic name,
	// author, sequence number, signature, key, protobuf framing), so that
	// gossipsub's default 1 MiB limit on an RPC always holds (raising that
	// limit would also need private protocol IDs, to stay off the public
	// gossipsub network). Real envelopes are far smaller: an Air shuffle,
	// the largest, is about 16 KB.
	MaxFrame = p2p.MaxFrame - rpcSlack
	// rpcSlack is the room kept for the RPC around a frame.
	rpcSlack = 64 << 10
	// QueuePerAuthor bounds the frames of one author waiting to be read;
	// beyond it that author's frames are dropped (and counted).
	QueuePerAuthor = 1024
	// QueueBytesPerAuthor bounds the bytes of one author's frames waiting
	// to be read, likewise: room for eight of the largest frames, or
	// hundreds of real envelopes (an Air shuffle, the largest, is about
	// 16 KB), where QueuePerAuthor frames of MaxFrame would be 960 MiB.
	QueueBytesPerAuthor = 8 << 20
	// SubscriptionBuffer is the pubsub subscription's own buffer, drained
	// at once by the topic's reader.
	SubscriptionBuffer = 1024
	// PollInterval is how often WaitPeers, Linger and the leave watcher
	// look at the topic's peers.
	PollInterval = 20 * time.Millisecond
	// LeftGrace is how long every other player must have been gone before
	// RecvFrom reports ErrAllLeft, so that frames still on their way are
	// read first.
	LeftGrace = 500 * time.Millisecond
	// RedialFirst is the first wait before a player whose connection was
	// lost is dialed again; the wait doubles after each failed dial up to
	// RedialMax. RedialTimeout bounds one dial.
	RedialFirst   = 500 * time.Millisecond
	RedialMax     = 5 * time.Second
	RedialTimeout = 5 * time.Second
)
