package deck

import (
	"fmt"
	"testing"
)

// BenchmarkShuffleProve is one seat's shuffle of the 60-card deck with its
// proof.
func BenchmarkShuffleProve(b *testing.B) {
	tb := newTable(b, 2, 60, 1)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShuffleVerify is one check of a 60-card shuffle proof.
func BenchmarkShuffleVerify(b *testing.B) {
	tb := newTable(b, 2, 60, 1)
	out, proof, err := tb.p.Shuffle(tb.rng, tb.jk, tb.deck)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := tb.p.VerifyShuffle(tb.jk, tb.deck, out, proof); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetup is the whole 60-card set-up as one peer computes it: key
// generation and joint key, then every seat's shuffle proven by its owner
// and verified by this peer (so n proofs and n verifications; each peer
// proves only its own, so the wall time of a real match is about n·(prove +
// verify) plus network latency).
func BenchmarkSetup(b *testing.B) {
	for _, seats := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("players=%d", seats), func(b *testing.B) {
			for b.Loop() {
				tb := newTable(b, seats, 60, 2)
				tb.shuffleAll()
			}
		})
	}
}

// BenchmarkDealAll deals all 60 cards round-robin after the shuffles: for
// each card every other seat makes a share with proof, and the receiver
// verifies them and peeks.
func BenchmarkDealAll(b *testing.B) {
	for _, seats := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("players=%d", seats), func(b *testing.B) {
			tb := newTable(b, seats, 60, 3)
			tb.shuffleAll()
			b.ResetTimer()
			for b.Loop() {
				for pos := range 60 {
					tb.deal(pos, pos%seats)
				}
			}
		})
	}
}

// BenchmarkDraw is one card dealt: the other seats' shares (made and
// verified) and the receiver's peek; bytes/deal is what crosses the wire.
func BenchmarkDraw(b *testing.B) {
	for _, seats := range []int{2, 3, 4} {
		b.Run(fmt.Sprintf("players=%d", seats), func(b *testing.B) {
			tb := newTable(b, seats, 60, 4)
			tb.shuffleAll()
			b.ResetTimer()
			for b.Loop() {
				tb.deal(17, 0)
			}
			b.ReportMetric(float64((seats-1)*ShareSize), "bytes/deal")
		})
	}
}

// BenchmarkShare is one unmasking share with its proof.
func BenchmarkShare(b *testing.B) {
	tb := newTable(b, 2, 60, 5)
	tb.shuffleAll()
	b.ResetTimer()
	for b.Loop() {
		if _, err := tb.p.UnmaskShare(tb.keys[0], 3, tb.deck[3]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyShare is one check of an unmasking share.
func BenchmarkVerifyShare(b *testing.B) {
	tb := newTable(b, 2, 60, 5)
	tb.shuffleAll()
	sh, err := tb.p.UnmaskShare(tb.keys[0], 3, tb.deck[3])
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := tb.p.VerifyShare(tb.jk, 3, tb.deck[3], sh); err != nil {
			b.Fatal(err)
		}
	}
}
