package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
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
// prefix (finding 9), a slow drip of a frame never finished, frames
// replayed from another match's handshake (a join, a resume, an accept),
// and a valid join whose sender then stalls the handshake.
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
		{proto: p2p.ResumeProtocol, data: uv(1 << 20), hold: true}, // kinds[2]: finding 9
		{proto: p2p.MatchProtocol, data: append(uv(3000), `{"t":"join","ver`...), hold: true},
		{proto: p2p.MatchProtocol, data: framed(frame{T: tJoin, Version: Version, Name: "ann", Nonce: strings.Repeat("0f", 16)})},
		{proto: p2p.MatchProtocol, data: framed(frame{T: tJoin, Version: Version, Name: "eve", Nonce: strings.Repeat("1e", 16)}), hold: true},
		{proto: p2p.ResumeProtocol, data: framed(resumeFrame{T: "resume", Match: other, Seq: 7})},
		{proto: p2p.MatchProtocol, data: framed(frame{T: tAccept, Match: other})},
	}
}

// hostileAttack is the attacking side of one run: many identities that
// open hostile streams to a victim. It runs in a process of its own
// (TestHostileAttackerProcess), so that the victim's heap is measured
// alone.
type hostileAttack struct {
	victim    peer.AddrInfo
	attackers []host.Host
	mu        sync.Mutex
	held      []network.Stream
	opened    atomic.Int64
}

func newHostileAttack(victim peer.AddrInfo, identities int) (*hostileAttack, error) {
	a := &hostileAttack{victim: victim}
	for range identities {
		// An attacker sets no limits on itself.
		h, err := libp2p.New(libp2p.NoListenAddrs, libp2p.ResourceManager(&network.NullResourceManager{}))
		if err != nil {
			return nil, err
		}
		a.attackers = append(a.attackers, h)
		if err := h.Connect(context.Background(), victim); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *hostileAttack) close() {
	a.release()
	for _, h := range a.attackers {
		_ = h.Close()
	}
}

// attack opens streams streams, spread over the attackers, each one of
// hostileKinds in turn; the held ones stay open until release.
func (a *hostileAttack) attack(streams int) {
	kinds := hostileKinds()
	if os.Getenv(envHostileOnly9) != "" {
		kinds = kinds[2:3]
	}
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
	s, err := h.NewStream(ctx, a.victim.ID, k.proto)
	if err != nil {
		return // refused: the victim's limits at work
	}
	_ = s.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := s.Write(k.data); err != nil || !k.hold {
		_ = s.CloseWrite()
		go func() { // read whatever the victim answers, until it ends the stream
			_ = s.SetReadDeadline(time.Now().Add(30 * time.Second))
			var buf [512]byte
			for {
				if _, err := s.Read(buf[:]); err != nil {
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

// The attacker process's instructions, in its environment.
const (
	envHostileVictim  = "SALVO_HOSTILE_VICTIM" // the victim's address, ending in /p2p/<ID>
	envHostileStreams = "SALVO_HOSTILE_STREAMS"
	envHostileIDs     = "SALVO_HOSTILE_IDENTITIES"
	envHostileOnly9   = "SALVO_HOSTILE_ONLY_FINDING9" // only resume streams that send a 1 MiB prefix
)

// TestHostileAttackerProcess is the attacker of runHostileStreams, run in a
// process of its own; it does nothing in a normal test run. It attacks,
// says "attacked" on stdout, keeps its streams open until its stdin
// closes, then ends.
func TestHostileAttackerProcess(t *testing.T) {
	addr := os.Getenv(envHostileVictim)
	if addr == "" {
		t.Skip("only run by runHostileStreams")
	}
	ai, err := peer.AddrInfoFromString(addr)
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := strconv.Atoi(os.Getenv(envHostileIDs))
	streams, _ := strconv.Atoi(os.Getenv(envHostileStreams))
	a, err := newHostileAttack(*ai, ids)
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	a.attack(streams)
	a.mu.Lock()
	fmt.Printf("attacked: %d streams, %d held open\n", streams, len(a.held))
	a.mu.Unlock()
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// startAttacker runs TestHostileAttackerProcess against victim and
// returns once its attack is done; stop ends it.
func startAttacker(tb testing.TB, victim *p2p.Host, identities, streams int) (stop func()) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileAttackerProcess$", "-test.bench=^$")
	cmd.Env = append(os.Environ(), envHostileVictim+"="+victim.Addrs()[0].String(),
		envHostileIDs+"="+strconv.Itoa(identities), envHostileStreams+"="+strconv.Itoa(streams))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	stop = func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}
	r := bufio.NewReader(stdout)
	line, err := r.ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, r) }()
	if err != nil || !strings.HasPrefix(line, "attacked") {
		stop()
		tb.Fatalf("the attacker process: %q, %v\n%s", line, err, errOut.String())
	}
	tb.Logf("attacker process: %s", strings.TrimSpace(line))
	return stop
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

// runHostileStreams attacks a fresh victim, a host waiting for a joiner
// (HostFirst, as salvo netplay --role host does) with a Resumer, with
// streams hostile streams from identities identities in another process,
// then has an honest peer join it: the handshake must complete while the
// attack's streams are still held. The heap measured is the victim's
// process's (the honest joiner's host included), not the attacker's.
func runHostileStreams(tb testing.TB, identities, streams int) hostileRun {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	loop := []string{"/ip4/127.0.0.1/tcp/0"}
	keys := [2]crypto.PrivKey{}
	hosts := [2]*p2p.Host{}
	for i := range hosts {
		keys[i], _, _ = crypto.GenerateEd25519Key(nil)
		h, err := p2p.New(ctx, p2p.Config{Key: keys[i], ListenAddrs: loop})
		if err != nil {
			tb.Fatal(err)
		}
		defer h.Close()
		hosts[i] = h
	}
	victim, honest := hosts[0], hosts[1]
	res := NewResumer(victim, nil)
	defer res.Close()
	type hosted struct {
		m   *Match
		err error
	}
	got := make(chan hosted, 1)
	go func() {
		m, err := HostFirst(ctx, victim.Incoming(), HostFirstConfig{Self: Self{Key: keys[0], Name: "ann"}, Offer: Offer{Game: "ubuild"}})
		got <- hosted{m, err}
	}()
	base := liveHeap()
	sampler := sampleHeap()
	stop := startAttacker(tb, victim, identities, streams)
	defer stop()
	live := liveHeap()
	if _, err := honest.Connect(ctx, victim.Invite()); err != nil {
		tb.Fatal(err)
	}
	c, err := honest.OpenMatch(ctx, victim.ID())
	if err == nil {
		_, err = Join(ctx, c, Self{Key: keys[1], Name: "bob"}, nil)
	}
	if err != nil {
		tb.Fatalf("after %d hostile streams, the honest joiner: %v", streams, err)
	}
	if h := <-got; h.err != nil {
		tb.Fatalf("after %d hostile streams, the host: %v", streams, h.err)
	}
	peak := sampler.end()
	mib := func(n uint64) float64 { return (float64(n) - float64(base)) / (1 << 20) }
	return hostileRun{live: mib(live), peak: mib(peak)}
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
	t.Logf("%d hostile streams from %d identities: the host's live heap +%.1f MiB, peak heap in use +%.1f MiB", streams, identities, r.live, r.peak)
	if r.live > 64 {
		t.Errorf("the attack grew the live heap by %.1f MiB, want under 64", r.live)
	}
}

// BenchmarkHostileStreams measures the memory hostile streams cost the
// host they attack (the attacker runs in another process): 10,000 streams
// of every kind from 50 identities (the target is under 64 MiB), and
// finding 9's attack, 16 identities x 160 resume streams that each send
// only a 1 MiB length prefix (1.2 GB before).
func BenchmarkHostileStreams(b *testing.B) {
	for _, bc := range []struct {
		name                string
		identities, streams int
		only9               bool
	}{{"mixed", 50, 10_000, false}, {"finding9", 16, 16 * 160, true}} {
		b.Run(bc.name, func(b *testing.B) {
			if bc.only9 {
				b.Setenv(envHostileOnly9, "1")
			}
			var worst hostileRun
			for b.Loop() {
				r := runHostileStreams(b, bc.identities, bc.streams)
				worst.live, worst.peak = max(worst.live, r.live), max(worst.peak, r.peak)
			}
			b.ReportMetric(worst.live, "live-MiB")
			b.ReportMetric(worst.peak, "peak-MiB")
		})
	}
}
