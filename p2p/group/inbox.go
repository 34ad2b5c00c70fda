package group

import "github.com/libp2p/go-libp2p/core/peer"

// inbound is one frame waiting to be read, with its author.
type inbound struct {
	data []byte
	from peer.ID
}

// inbox is the queue of frames between the subscription and the reader,
// bounded per author: an author with limit frames waiting loses its next
// ones, and nobody else's. Not safe for concurrent use (Topic locks it).
type inbox struct {
	limit   int
	queue   []inbound
	pending map[peer.ID]int
	max     int // the longest the queue has been
}

func newInbox(limit int) *inbox { return &inbox{limit: limit, pending: map[peer.ID]int{}} }

// push queues a frame; it reports false (and drops the frame) when its
// author already has limit frames waiting.
func (q *inbox) push(in inbound) bool {
	if q.pending[in.from] >= q.limit {
		return false
	}
	q.pending[in.from]++
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
	}
	return in, true
}

// len is the number of frames waiting.
func (q *inbox) len() int { return len(q.queue) }
