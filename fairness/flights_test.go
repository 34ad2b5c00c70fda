package fairness

import (
	"bufio"
	"os"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
)

// TestFlightsOfAChainAreItsEnvelopes: in records made before envelopes
// could travel together, every envelope answers the one before it, so the
// flights are the envelope lines, and the counts agree with the perf
// benchmark's per-envelope count.
func TestFlightsOfAChainAreItsEnvelopes(t *testing.T) {
	for _, name := range append([]string{"ubuild"}, perfTranscripts...) {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(perfFile(name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			got, err := CountFlights(f, games.Spec)
			if err != nil {
				t.Fatal(err)
			}
			flights, decisions, dice := countFlights(t, perfFile(name))
			if got.Flights != flights || got.Decisions != decisions || got.DiceOnly != dice {
				t.Fatalf("CountFlights %+v, per envelope %d flights %d decisions %d dice-only", got, flights, decisions, dice)
			}
			if lines := envelopeLines(t, perfFile(name)); got.Flights != lines {
				t.Fatalf("%d flights, %d envelope lines", got.Flights, lines)
			}
			if got.PerDecision() <= 0 || got.DiceShare() < 0 || got.DiceShare() > 1 {
				t.Fatalf("ratios %v %v", got.PerDecision(), got.DiceShare())
			}
		})
	}
}

func envelopeLines(t *testing.T, path string) int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 4<<20)
	n := -1 // the header
	for sc.Scan() {
		n++
	}
	return n
}
