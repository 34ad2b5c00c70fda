package p2p

import (
	"context"
	"testing"
)

// BenchmarkNewHost starts and closes a loopback host: what autorelay and
// the rest cost each Salvo process and each test.
func BenchmarkNewHost(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		h, err := New(context.Background(), Config{ListenAddrs: loopTCP})
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
