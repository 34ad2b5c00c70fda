package group

import "github.com/libp2p/go-libp2p/core/peer"

// inbound is one frame waiting to be read, with its author.
type inbound struct {
	data []byte
	from peer.ID
}

// inbox is the queue of frames between the subscription and the reader,
// bounded per author in frames and in bytes: an author with limit frames,
// or byteLimit bytes, waiting loses its next ones, and nobody else's. Not
// safe for concurrent use (Topic locks it).
type inbox struct {
	limit     int
	byteLimit int
	queue     []inbound
	pending   map[peer.ID]int
	bytes     map[peer.ID]int
	max       int // the longest the queue has been
}

func newInbox(limit, byteLimit int) *inbox {
	return &inbox{limit: limit, byteLimit: byteLimit, pending: map[peer.ID]int{}, bytes: map[peer.ID]int{}}
}

// push queues a frame; it reports false (and drops the frame) when its
// author already has limit frames waiting, or the frame would take its
// bytes waiting over byteLimit.
func (q *inbox) push(in inbound) bool {
	if q.pending[in.from] >= q.limit || q.bytes[in.from]+len(in.data) > q.byteLimit {
		return false
	}
	q.pending[in.from]++
	q.bytes[in.from] += len(in.data)
	q.queue = append(q.queue, in)
	q.max = max(q.max, len(q.queue))
	return true
}

// pop takes the oldest frame.
func (q *inbox) pop() (inbound, bool) {
	if len(q.queue) == 0 {
		return inbound{}, false
	}
	in := q.queue[0]
	q.queue[0] = inbound{}
	q.queue = q.queue[1:]
	if q.pending[in.from]--; q.pending[in.from] == 0 {
		delete(q.pending, in.from)
		delete(q.bytes, in.from)
	} else {
		q.bytes[in.from] -= len(in.data)
	}
	return in, true
}

// len is the number of frames waiting.
func (q *inbox) len() int { return len(q.queue) }
