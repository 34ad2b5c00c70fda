package fairnesstest

import (
	"context"
	"io"
	"math/rand/v2"
	"sync"
	"time"
)

// Hub is an in-memory group transport (a fairness.GroupTransport per
// member) that delivers every frame to every other member after a random
// delay of up to 3 ms, so frames often arrive out of order, as on a pubsub
// topic.
type Hub struct {
	mu      sync.Mutex
	members []*Member
	closed  chan struct{}
	once    sync.Once
}

// Member is one seat's end of a Hub.
type Member struct {
	h    *Hub
	id   string
	in   chan [2]string
	rand *rand.Rand
}

// NewHub returns a hub with one member per ID (a player's peer ID, which
// RecvFrom reports as the author of its frames); seed makes the delays
// reproducible.
func NewHub(ids []string, seed uint64) *Hub {
	h := &Hub{closed: make(chan struct{})}
	for i, id := range ids {
		h.members = append(h.members, &Member{h: h, id: id, in: make(chan [2]string, 256), rand: rand.New(rand.NewPCG(uint64(i), seed))})
	}
	return h
}

// Member returns the i-th member.
func (h *Hub) Member(i int) *Member { return h.members[i] }

// Close ends the hub for every member; it may be called more than once.
func (h *Hub) Close() { h.once.Do(func() { close(h.closed) }) }

// Send delivers b to every other member, each after its own delay.
func (m *Member) Send(ctx context.Context, b []byte) error {
	m.h.mu.Lock()
	defer m.h.mu.Unlock()
	for _, o := range m.h.members {
		if o == m {
			continue
		}
		delay := time.Duration(m.rand.IntN(3000)) * time.Microsecond
		go func(o *Member, b string) {
			time.Sleep(delay)
			select {
			case o.in <- [2]string{b, m.id}:
			case <-m.h.closed:
			}
		}(o, string(b))
	}
	return nil
}

// Recv returns the next frame.
func (m *Member) Recv(ctx context.Context) ([]byte, error) {
	b, _, err := m.RecvFrom(ctx)
	return b, err
}

// RecvFrom returns the next frame and its author's ID; io.EOF once the hub
// is closed.
func (m *Member) RecvFrom(ctx context.Context) ([]byte, string, error) {
	select {
	case f := <-m.in:
		return []byte(f[0]), f[1], nil
	case <-m.h.closed:
		return nil, "", io.EOF
	case <-ctx.Done():
		return nil, "", ctx.Err()
	}
}
