package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// BenchmarkSelfplay plays one full match per iteration between two bots on
// two libp2p hosts over loopback, transcripts written and synced, and
// reports the messages and bytes both seats sent, the process CPU time of
// a match (both seats, their hosts and the check of the transcript), and
// the messages per decision (for U-Build: per volley with its answer; the target is one).
func BenchmarkSelfplay(b *testing.B) {
	for _, c := range []struct{ game, variant, transport string }{
		{"ubuild", "standard", "tcp"},
		{"ubuild", "standard", "quic"},
		{"ubuild", "classic", "tcp"},
		{"ubuild", "custom", "tcp"},
		{"cards", "standard", "tcp"},
		{"oceans", "standard", "tcp"},
	} {
		b.Run(c.game+"/"+c.variant+"/"+c.transport, func(b *testing.B) {
			dir := b.TempDir()
			var msgs, bytes, turns float64
			seed := uint64(0)
			cpu := perfCPU()
			for b.Loop() {
				seed++
				o := selfplayOptions{Game: c.game, Variant: c.variant, Seed: seed, Out: filepath.Join(dir, fmt.Sprintf("m%d.jsonl", seed)),
					Bots: [2]string{"strong", "strong"}, Transport: c.transport, Timeout: 30 * time.Second}
				res, err := selfplay(context.Background(), o)
				if err != nil || res.Results[0].Violation != nil || !res.Results[0].Outcome.Done {
					b.Fatalf("%v %+v", err, res)
				}
				for _, r := range res.Results {
					msgs += float64(r.Sent)
					bytes += float64(r.BytesSent)
				}
				turns += float64(countTurns(b, res.Paths[0]))
			}
			n := float64(b.N)
			b.ReportMetric(float64(perfCPU()-cpu)/1e6/n, "cpu-ms/match")
			b.ReportMetric(msgs/n, "msgs/match")
			b.ReportMetric(bytes/n, "bytes/match")
			b.ReportMetric(msgs/turns, "msgs/decision")
		})
	}
}

// countTurns counts the decisions agents made in a transcript (moves that
// are not automatic answers: for U-Build, the volleys), after checking the
// transcript audits clean.
func countTurns(b *testing.B, path string) int {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	h, tr, err := fairness.ReadTranscript(f)
	if err != nil {
		b.Fatal(err)
	}
	spec, _ := games.Spec(h.Game)
	m, err := fairness.NewMatch(spec, h)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		ln, err := tr.Next()
		if err != nil {
			break
		}
		if ln.Envelope == nil {
			b.Fatalf("line %d is not an envelope", ln.No)
		}
		body, err := fairness.DecodeBody(ln.Envelope.Body)
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range body.Inputs {
			if st, ok := m.Next(); ok && in.T == fairness.InMove && !st.Need.Auto {
				n++
			}
			if _, err := m.Stage(m.Header().Seat(ln.Envelope.From), in); err != nil {
				b.Fatal(err)
			}
		}
	}
	if !m.Done() {
		b.Fatal("transcript ends before the match")
	}
	return n
}
