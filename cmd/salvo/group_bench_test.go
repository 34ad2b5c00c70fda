package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkGroupSelfplay is one whole Mission Command Air match among 2, 3
// and 4 strong bots on loopback hosts (a match stream for two, a gossipsub
// topic for more), hosts and handshake included. It reports the messages
// and bytes of a match (each envelope counted once, as sent), its process
// CPU time (every seat and host), and the time,
// at seat 0, from the first message to the first card choice: the shared
// deck's keys, every seat's proven shuffle and the first deal.
func BenchmarkGroupSelfplay(b *testing.B) {
	for _, n := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("%d-players", n), func(b *testing.B) {
			var msgs, bytes, deckBytes int64
			var deal time.Duration
			cpu := perfCPU()
			for i := 0; i < b.N; i++ {
				o := groupOptions{
					selfplayOptions: selfplayOptions{Game: "air", Seed: uint64(i + 1), Out: filepath.Join(b.TempDir(), "m.jsonl"), Transport: "tcp", Timeout: time.Minute},
					Players:         n,
				}
				res, err := groupSelfplay(context.Background(), o)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range res.Results {
					if !r.Outcome.Done || r.Closing != nil {
						b.Fatalf("match %d did not finish cleanly: %+v", i, r)
					}
					msgs += int64(r.Sent)
					bytes += r.BytesSent
				}
				d, err := deckCost(res.Paths[0])
				if err != nil {
					b.Fatal(err)
				}
				deckBytes += d.KeyBytes + d.ShufBytes + d.UnmaskBytes + d.OpenBytes
				deal += res.Deal
			}
			b.ReportMetric(float64(perfCPU()-cpu)/1e6/float64(b.N), "cpu-ms/match")
			b.ReportMetric(float64(msgs)/float64(b.N), "msgs/match")
			b.ReportMetric(float64(bytes)/float64(b.N), "B/match")
			b.ReportMetric(float64(deckBytes)/float64(b.N), "deck-B/match")
			b.ReportMetric(float64(deal.Milliseconds())/float64(b.N), "deal-ms")
		})
	}
}
