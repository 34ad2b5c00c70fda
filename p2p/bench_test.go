package p2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/libp2p/go-libp2p/core/network"
	"io"
	"testing"
	"time"
)

// transports lists the benchmarked transports with their loopback listen
// address.
var transports = []struct {
	name   string
	listen []string
}{
	{"tcp", loopTCP},
	{"quic-v1", loopQUIC},
}

// BenchmarkConnect measures a full connection set-up over loopback
// (transport handshake, security, muxer), one per iteration.
func BenchmarkConnect(b *testing.B) {
	for _, tr := range transports {
		b.Run(tr.name, func(b *testing.B) {
			x := newHost(b, Config{ListenAddrs: tr.listen})
			y := newHost(b, Config{ListenAddrs: tr.listen})
			addr := addrOf(b, y, tr.name)
			ctx := context.Background()
			for b.Loop() {
				if _, err := x.Connect(ctx, addr); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				_ = x.Libp2p().Network().ClosePeer(y.ID())
				for x.Libp2p().Network().Connectedness(y.ID()) != network.NotConnected {
					time.Sleep(time.Millisecond)
				}
				b.StartTimer()
			}
		})
	}
}

// BenchmarkOpenMatch measures opening a match stream on an existing
// connection (negotiation included) until the peer has accepted it.
func BenchmarkOpenMatch(b *testing.B) {
	for _, tr := range transports {
		b.Run(tr.name, func(b *testing.B) {
			x, y := pair(b, tr.name, Config{ListenAddrs: tr.listen}, Config{ListenAddrs: tr.listen})
			accepted := make(chan *Conn, 1)
			y.HandleMatch(func(c *Conn) { accepted <- c })
			ctx := context.Background()
			for b.Loop() {
				c, err := x.OpenMatch(ctx, y.ID())
				if err != nil {
					b.Fatal(err)
				}
				other := <-accepted
				b.StopTimer()
				_ = c.Close()
				_ = other.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkFrameRoundTrip measures one frame to the peer and its echo back
// on an open match stream.
func BenchmarkFrameRoundTrip(b *testing.B) {
	for _, tr := range transports {
		for _, size := range []int{64, 4 << 10} {
			b.Run(fmt.Sprintf("%s/%dB", tr.name, size), func(b *testing.B) {
				x, y := pair(b, tr.name, Config{ListenAddrs: tr.listen}, Config{ListenAddrs: tr.listen})
				cx, cy := matchPair(b, x, y)
				ctx := context.Background()
				go func() {
					for {
						p, err := cy.Recv(ctx)
						if err != nil {
							return
						}
						if err := cy.Send(ctx, p); err != nil {
							return
						}
					}
				}()
				msg := bytes.Repeat([]byte{7}, size)
				b.SetBytes(int64(2 * size))
				for b.Loop() {
					if err := cx.Send(ctx, msg); err != nil {
						b.Fatal(err)
					}
					if _, err := cx.Recv(ctx); err != nil {
						b.Fatal(err)
					}
				}
				_ = cx.Close()
			})
		}
	}
}

// BenchmarkFrameStream measures one-way frame throughput: frames are sent
// back to back and the clock stops when the peer has read the last one.
func BenchmarkFrameStream(b *testing.B) {
	for _, tr := range transports {
		for _, size := range []int{256, 64 << 10} {
			b.Run(fmt.Sprintf("%s/%dB", tr.name, size), func(b *testing.B) {
				x, y := pair(b, tr.name, Config{ListenAddrs: tr.listen}, Config{ListenAddrs: tr.listen})
				cx, cy := matchPair(b, x, y)
				ctx := context.Background()
				got := make(chan int, 1)
				go func() {
					n := 0
					for {
						if _, err := cy.Recv(ctx); err != nil {
							got <- n
							return
						}
						n++
					}
				}()
				msg := bytes.Repeat([]byte{9}, size)
				b.SetBytes(int64(size))
				b.ResetTimer()
				for range b.N {
					if err := cx.Send(ctx, msg); err != nil {
						b.Fatal(err)
					}
				}
				// The clock runs until the reader saw everything.
				_ = cx.Close()
				n := <-got
				b.StopTimer()
				if n != b.N {
					b.Fatalf("peer read %d frames of %d", n, b.N)
				}
				b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "frames/s")
			})
		}
	}
}

// BenchmarkFrameCodec measures WriteFrame+ReadFrame in memory.
func BenchmarkFrameCodec(b *testing.B) {
	for _, size := range []int{64, 4 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("%dB", size), func(b *testing.B) {
			msg := bytes.Repeat([]byte{1}, size)
			var buf bytes.Buffer
			b.SetBytes(int64(size))
			for b.Loop() {
				buf.Reset()
				if err := WriteFrame(&buf, msg); err != nil {
					b.Fatal(err)
				}
				if _, err := ReadFrame(&buf, MaxFrame); err != nil && !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
			}
		})
	}
}
