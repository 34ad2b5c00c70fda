package group

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkRoundTrip is one frame from peer 0 to the others and the reply
// of the last one back, on a topic of n players on loopback TCP.
func BenchmarkRoundTrip(b *testing.B) {
	for _, n := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("%d-peers", n), func(b *testing.B) {
			s := newPeers(b, n, true)
			topics := s.joinAll(b, testMatch)
			waitAll(b, topics)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			frame := make([]byte, 1024)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := topics[0].Send(ctx, frame); err != nil {
					b.Fatal(err)
				}
				for _, tp := range topics[1:] {
					if _, _, err := tp.RecvFrom(ctx); err != nil {
						b.Fatal(err)
					}
				}
				last := topics[n-1]
				if err := last.Send(ctx, frame); err != nil {
					b.Fatal(err)
				}
				for _, tp := range topics[:n-1] {
					if _, _, err := tp.RecvFrom(ctx); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
