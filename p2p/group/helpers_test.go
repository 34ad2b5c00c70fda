package group

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
)

// peerSet is n Salvo hosts on 127.0.0.1, each with a router.
type peerSet struct {
	hosts   []*p2p.Host
	routers []*Router
}

func (s *peerSet) ids() []peer.ID {
	out := make([]peer.ID, len(s.hosts))
	for i, h := range s.hosts {
		out[i] = h.ID()
	}
	return out
}

// newPeers starts n hosts and routers; mesh says whether every pair is
// connected (otherwise only to host 0, a star).
func newPeers(t testing.TB, n int, mesh bool) *peerSet {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s := &peerSet{}
	t.Cleanup(func() {
		for _, r := range s.routers {
			r.Close()
		}
		for _, h := range s.hosts {
			h.Close()
		}
	})
	for i := 0; i < n; i++ {
		h, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, Name: fmt.Sprintf("peer-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		s.hosts = append(s.hosts, h)
		r, err := NewRouter(h.Libp2p(), Config{})
		if err != nil {
			t.Fatal(err)
		}
		s.routers = append(s.routers, r)
	}
	for i := 1; i < n; i++ {
		for j := 0; j < i; j++ {
			if j > 0 && !mesh {
				break
			}
			if _, err := s.hosts[i].Connect(ctx, s.hosts[j].Invite()); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s
}

// joinAll joins every router to the match's topic.
func (s *peerSet) joinAll(t testing.TB, match string) []*Topic {
	t.Helper()
	topics := make([]*Topic, len(s.routers))
	for i, r := range s.routers {
		tp, err := r.Join(match, s.ids())
		if err != nil {
			t.Fatal(err)
		}
		topics[i] = tp
		t.Cleanup(func() { tp.Close() })
	}
	return topics
}

func waitAll(t testing.TB, topics []*Topic) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, tp := range topics {
		if err := tp.WaitPeers(ctx); err != nil {
			t.Fatalf("peer %d: %v", i, err)
		}
	}
}

// recvN reads n frames from tp, failing after d.
func recvN(t testing.TB, tp *Topic, n int, d time.Duration) []inbound {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out []inbound
	for len(out) < n {
		b, from, err := tp.RecvFrom(ctx)
		if err != nil {
			t.Fatalf("after %d of %d frames: %v", len(out), n, err)
		}
		id, err := peer.Decode(from)
		if err != nil {
			t.Fatalf("author %q: %v", from, err)
		}
		out = append(out, inbound{data: b, from: id})
	}
	return out
}

// expectNothing checks that tp delivers no frame within d.
func expectNothing(t testing.TB, tp *Topic, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	b, from, err := tp.RecvFrom(ctx)
	if err == nil {
		t.Fatalf("unexpected frame %q from %s", b, from)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RecvFrom: %v", err)
	}
}

const testMatch = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
