package session

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/core/protocol"

	"github.com/salvo-game/salvo/p2p"
)

var long = flag.Bool("long", false, "run the hostile-streams attack at full size (10,000 streams)")

// hostileStream is one kind of stream an attacker opens.
type hostileStream struct {
	proto protocol.ID
	data  []byte
	hold  bool // keep it open (half-sent) until the attack ends
}

// hostileKinds are the streams of the attack, taken in turn: garbage, a
// length prefix over every limit, a resume stream that sends only a 1 MiB
// prefix (finding 9), a slow drip of a frame never finished, and frames
// replayed from another match's handshake (a join, a resume, an accept).
func hostileKinds() []hostileStream {
	uv := func(n uint64) []byte { return binary.AppendUvarint(nil, n) }
	framed := func(v any) []byte {
		b, _ := json.Marshal(v)
		return append(uv(uint64(len(b))), b...)
	}
	other := strings.Repeat("ab", 32) // another match's ID
	return []hostileStream{
		{proto: p2p.MatchProtocol, data: bytes.Repeat([]byte{0xff}, 64)},
		{proto: p2p.MatchProtocol, data: uv(1 << 40)},
		{proto: p2p.ResumeProtocol, data: uv(1 << 20), hold: true},
		{proto: p2p.MatchProtocol, data: append(uv(3000), `{"t":"join","ver`...), hold: true},
		{proto: p2p.MatchProtocol, data: framed(frame{T: tJoin, Version: Version, Name: "ann", Nonce: strings.Repeat("0f", 16)})},
		{proto: p2p.ResumeProtocol, data: framed(resumeFrame{T: "resume", Match: other, Seq: 7})},
		{proto: p2p.MatchProtocol, data: framed(frame{T: tAccept, Match: other})},
	}
}

// hostileAttack is one run: a victim host waiting for a joiner (HostFirst,
// as salvo netplay --role host does) with a Resumer, attacked by streams
// from many identities, then joined by an honest peer.
type hostileAttack struct {
	victim    *p2p.Host
	attackers []host.Host
	honest    *p2p.Host
	honestKey crypto.PrivKey
	mu        sync.Mutex
	held      []network.Stream
	opened    atomic.Int64
	accepted  atomic.Int64 // streams the victim's libp2p host agreed to
	ended     atomic.Int64 // streams the victim ended (reset or closed)
}

func newHostileAttack(tb testing.TB, identities int) *hostileAttack {
	tb.Helper()
	ctx := context.Background()
	loop := []string{"/ip4/127.0.0.1/tcp/0"}
	vKey, _, _ := crypto.GenerateEd25519Key(nil)
	victim, err := p2p.New(ctx, p2p.Config{Key: vKey, ListenAddrs: loop})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { victim.Close() })
	a := &hostileAttack{victim: victim}
	a.honestKey, _, _ = crypto.GenerateEd25519Key(nil)
	if a.honest, err = p2p.New(ctx, p2p.Config{Key: a.honestKey, ListenAddrs: loop}); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.honest.Close() })
	for range identities {
		// An attacker sets no limits on itself.
		h, err := libp2p.New(libp2p.NoListenAddrs, libp2p.ResourceManager(&network.NullResourceManager{}))
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { h.Close() })
		if err := h.Connect(ctx, peer.AddrInfo{ID: victim.ID(), Addrs: victim.Libp2p().Addrs()}); err != nil {
			tb.Fatal(err)
		}
		a.attackers = append(a.attackers, h)
	}
	return a
}

// attack opens streams streams, spread over the attackers, each one of
// hostileKinds in turn; the held ones stay open until release.
func (a *hostileAttack) attack(streams int) {
	kinds := hostileKinds()
	per := (streams + len(a.attackers) - 1) / len(a.attackers)
	var wg sync.WaitGroup
	for i, h := range a.attackers {
		wg.Go(func() {
			for j := range per {
				if int(a.opened.Add(1)) > streams {
					return
				}
				a.open(h, kinds[(i+j)%len(kinds)])
			}
		})
	}
	wg.Wait()
}

func (a *hostileAttack) open(h host.Host, k hostileStream) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := h.NewStream(ctx, a.victim.ID(), k.proto)
	if err != nil {
		return // refused: the victim's limits at work
	}
	a.accepted.Add(1)
	_ = s.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := s.Write(k.data); err != nil || !k.hold {
		_ = s.CloseWrite()
		go func() { // read whatever the victim answers, until it ends the stream
			_ = s.SetReadDeadline(time.Now().Add(30 * time.Second))
			var buf [512]byte
			for {
				if _, err := s.Read(buf[:]); err != nil {
					a.ended.Add(1)
					_ = s.Reset()
					return
				}
			}
		}()
		return
	}
	a.mu.Lock()
	a.held = append(a.held, s)
	a.mu.Unlock()
}

// release resets every stream the attack held open.
func (a *hostileAttack) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.held {
		_ = s.Reset()
	}
	a.held = nil
}

// join plays the honest joiner's handshake with the victim.
func (a *hostileAttack) join(ctx context.Context) error {
	if _, err := a.honest.Connect(ctx, a.victim.Invite()); err != nil {
		return err
	}
	c, err := a.honest.OpenMatch(ctx, a.victim.ID())
	if err != nil {
		return err
	}
	_, err = Join(ctx, c, Self{Key: a.honestKey, Name: "bob"}, nil)
	return err
}

// heapSampler records the highest live heap seen until stop.
type heapSampler struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func sampleHeap() *heapSampler {
	hs := &heapSampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(hs.done)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > hs.peak.Load() {
				hs.peak.Store(m.HeapInuse)
			}
			select {
			case <-t.C:
			case <-hs.stop:
				return
			}
		}
	}()
	return hs
}

func (hs *heapSampler) end() uint64 {
	close(hs.stop)
	<-hs.done
	return hs.peak.Load()
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// hostileRun is what one attack cost the process: the live heap's growth
// once collected, with the held streams still open, and the highest heap
// in use seen during it (garbage included).
type hostileRun struct {
	live, peak float64 // MiB
}

// runHostileStreams attacks a fresh victim with streams hostile streams
// from identities identities, then has an honest peer join it: the
// handshake must complete while the attack's streams are still held.
func runHostileStreams(tb testing.TB, identities, streams int) hostileRun {
	tb.Helper()
	a := newHostileAttack(tb, identities)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	type hosted struct {
		m   *Match
		err error
	}
	got := make(chan hosted, 1)
	go func() {
		m, err := HostFirst(ctx, a.victim.Incoming(), Self{Key: a.victimKey(tb), Name: "ann"}, Offer{Game: "ubuild"}, nil)
		got <- hosted{m, err}
	}()
	res := NewResumer(a.victim, nil)
	defer res.Close()
	base := liveHeap()
	sampler := sampleHeap()
	a.attack(streams)
	live := liveHeap()
	if err := a.join(ctx); err != nil {
		tb.Fatalf("after %d hostile streams, the honest joiner: %v", streams, err)
	}
	if h := <-got; h.err != nil {
		tb.Fatalf("after %d hostile streams, the host: %v", streams, h.err)
	}
	peak := sampler.end()
	a.mu.Lock()
	tb.Logf("%d streams opened, %d held open", a.accepted.Load(), len(a.held))
	a.mu.Unlock()
	a.release()
	mib := func(n, base uint64) float64 { return (float64(n) - float64(base)) / (1 << 20) }
	return hostileRun{live: mib(live, base), peak: mib(peak, base)}
}

// victimKey is not kept by p2p.Host; HostFirst needs the key only to name
// seat 0, so the test reads it back from the libp2p host.
func (a *hostileAttack) victimKey(tb testing.TB) crypto.PrivKey {
	k := a.victim.Libp2p().Peerstore().PrivKey(a.victim.ID())
	if k == nil {
		tb.Fatal("no private key for the victim")
	}
	return k
}

// TestHostileStreams: hostile streams from many identities (garbage,
// oversized and 1 MiB-only prefixes, slow drips, replays of another
// match's handshake) neither end nor wedge a host waiting for a joiner:
// an honest joiner still completes its handshake, and the host's heap stays
// bounded. 500 streams by default, 10,000 with -long (and in
// BenchmarkHostileStreams, which reports the memory).
func TestHostileStreams(t *testing.T) {
	identities, streams := 10, 500
	if *long {
		identities, streams = 50, 10_000
	}
	r := runHostileStreams(t, identities, streams)
	t.Logf("%d hostile streams from %d identities: live heap +%.1f MiB, peak heap in use +%.1f MiB", streams, identities, r.live, r.peak)
	if r.live > 64 {
		t.Errorf("the attack grew the live heap by %.1f MiB, want under 64", r.live)
	}
}

// BenchmarkHostileStreams measures the memory 10,000 hostile streams from
// 50 identities cost (the target is under 64 MiB).
func BenchmarkHostileStreams(b *testing.B) {
	var worst hostileRun
	for b.Loop() {
		r := runHostileStreams(b, 50, 10_000)
		worst.live, worst.peak = max(worst.live, r.live), max(worst.peak, r.peak)
	}
	b.ReportMetric(worst.live, "live-MiB")
	b.ReportMetric(worst.peak, "peak-MiB")
}
