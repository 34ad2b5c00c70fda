package fairness

import (
	"os"
	"testing"

	"github.com/salvo-game/salvo/engine/games"
)

// TestFlightsOfAChainAreItsTurnsOfSender: in records made before envelopes
// could travel together, every envelope answers the one before it, so a
// flight is a run of envelopes from one sender (its own next envelope
// waits for nobody): counted here from the senders alone.
func TestFlightsOfAChainAreItsTurnsOfSender(t *testing.T) {
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
			if runs := senderRuns(t, perfFile(name)); got.Flights != runs {
				t.Fatalf("%d flights, %d runs of one sender", got.Flights, runs)
			}
			if got.Decisions == 0 || got.DiceOnly > got.Flights {
				t.Fatalf("counts %+v", got)
			}
		})
	}
}

func senderRuns(t *testing.T, path string) int {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, tr, err := ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	runs, last := 0, ""
	for {
		ln, err := tr.Next()
		if err != nil || ln.Envelope == nil {
			return runs
		}
		if ln.Envelope.From != last {
			runs++
		}
		last = ln.Envelope.From
	}
}
