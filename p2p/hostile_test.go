package p2p

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"
)

// dripReader hands out its bytes one Read at a time, one byte each: a peer
// that announces a big frame and then drips it.
type dripReader struct{ b []byte }

func (d *dripReader) Read(p []byte) (int, error) {
	if len(d.b) == 0 {
		return 0, io.EOF
	}
	p[0], d.b = d.b[0], d.b[1:]
	return 1, nil
}

// allocated is how many bytes f allocated (all goroutines; the caller
// keeps the others quiet).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestAttackSlowLengthPrefix (finding 9): a frame's buffer used to be
// allocated at the length its prefix announced, before any byte came, so a
// stream that sent only a 1 MiB prefix held 1 MiB. Now the buffer grows
// with the bytes: a 1 MiB prefix followed by a slow drip costs at most
// frameChunk, in a bare read as on a real match stream; and the first
// frame of a handshake (RecvMax with MaxFirstFrame) refuses such a prefix
// before reading anything.
func TestAttackSlowLengthPrefix(t *testing.T) {
	prefix := binary.AppendUvarint(nil, MaxFrame)
	t.Run("frame", func(t *testing.T) {
		var err error
		n := allocated(func() {
			_, err = ReadFrame(io.MultiReader(bytes.NewReader(prefix), &dripReader{b: make([]byte, 100)}), MaxFrame)
		})
		if !errors.Is(err, ErrTruncatedFrame) {
			t.Fatalf("ReadFrame: %v, want a truncated frame", err)
		}
		t.Logf("a 1 MiB prefix and a 100-byte drip allocated %d bytes", n)
		if n > 2*frameChunk {
			t.Errorf("a 1 MiB prefix and 100 bytes cost %d bytes, want at most %d", n, 2*frameChunk)
		}
	})
	t.Run("stream", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{})
		streams := PendingPerPeer // as many as one peer may keep waiting
		for i := range streams {
			s := rawStream(t, a, b)
			if _, err := s.Write(append(prefix, byte(i))); err != nil {
				t.Fatal(err)
			}
		}
		before := heapInUse()
		conns := make([]*Conn, streams)
		results := make(chan error, streams)
		for i := range conns {
			conns[i] = accept(t, b)
			go func(c *Conn) {
				_, err := c.Recv(ctxT(t, 30*time.Second))
				results <- err
			}(conns[i])
		}
		time.Sleep(200 * time.Millisecond) // every Recv has its prefix and waits for the rest
		grew := int64(heapInUse()) - int64(before)
		for _, c := range conns {
			c.Abort()
		}
		for range conns {
			<-results
		}
		t.Logf("%d streams that sent a 1 MiB prefix hold %d bytes more heap", streams, grew)
		if limit := int64(streams*2*frameChunk + 4<<20); grew > limit {
			t.Errorf("%d streams that sent a 1 MiB prefix grew the heap by %d bytes, want under %d", streams, grew, limit)
		}
	})
	t.Run("first frame", func(t *testing.T) {
		a, b := pair(t, "tcp", Config{}, Config{})
		s := rawStream(t, a, b)
		if _, err := s.Write(prefix); err != nil {
			t.Fatal(err)
		}
		c := accept(t, b)
		if _, err := c.RecvMax(ctxT(t, 10*time.Second), MaxFirstFrame); !errors.Is(err, ErrFrameTooLarge) {
			t.Fatalf("RecvMax: %v, want the prefix refused as too large", err)
		}
	})
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestAdmissionProperties: whatever the order of arrivals and departures,
// an Admission never holds more than its limits, refuses only a peer over
// its own, and when full evicts from a peer holding at least as many as
// any other: an honest peer with one item goes last.
func TestAdmissionProperties(t *testing.T) {
	const perPeer, all = 3, 8
	peers := make([]peer.ID, 6)
	for i := range peers {
		peers[i] = testPeerID(t)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		a := NewAdmission[int](perPeer, all)
		held := map[int]peer.ID{}
		for item := range 100 {
			if len(held) > 0 && r.IntN(3) == 0 { // someone finishes
				for it, p := range held {
					a.Leave(p, it)
					delete(held, it)
					break
				}
				continue
			}
			p := peers[r.IntN(len(peers))]
			count := func(p peer.ID) int {
				n := 0
				for _, q := range held {
					if q == p {
						n++
					}
				}
				return n
			}
			most := 0
			for _, q := range peers {
				most = max(most, count(q))
			}
			old, evicted, err := a.Enter(p, item)
			switch {
			case err != nil:
				if count(p) < perPeer {
					t.Fatalf("round %d: refused %s with %d held: %v", round, p, count(p), err)
				}
				continue
			case count(p) >= perPeer:
				t.Fatalf("round %d: admitted %s over its limit", round, p)
			case evicted:
				if len(held) < all || count(held[old]) < most {
					t.Fatalf("round %d: evicted %d of a peer with %d while one held %d (%d held)", round, old, count(held[old]), most, len(held))
				}
				delete(held, old)
			case len(held) >= all:
				t.Fatalf("round %d: admitted past the limit without evicting", round)
			}
			held[item] = p
		}
	}
}
