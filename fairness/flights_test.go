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
			runs, diceRuns, answering := senderRuns(t, perfFile(name))
			if got.Flights != runs || got.DiceOnly != diceRuns || got.DiceAfterChoice != answering {
				t.Fatalf("counted %+v; by sender runs: %d flights, %d only dice, %d of them after another's decision", got, runs, diceRuns, answering)
			}
			if got.Decisions == 0 || got.DiceOnly > got.Flights {
				t.Fatalf("counts %+v", got)
			}
		})
	}
}

// senderRuns counts a chained record's runs of envelopes from one sender,
// the runs that carry only dice shares, and those of them whose first
// envelope follows another seat's decision.
func senderRuns(t *testing.T, path string) (runs, diceRuns, answering int) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, tr, err := ReadTranscript(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(mustSpec(t, h.Game), h)
	if err != nil {
		t.Fatal(err)
	}
	last, lastDecided := "", false // the previous envelope's sender; whether it held a decision
	dice, answers := false, false  // the current run: only dice so far; it follows another's decision
	end := func() {
		if runs > 0 && dice {
			diceRuns++
			if answers {
				answering++
			}
		}
	}
	for {
		ln, err := tr.Next()
		if err != nil || ln.Envelope == nil {
			end()
			return runs, diceRuns, answering
		}
		body, err := DecodeBody(ln.Envelope.Body)
		if err != nil {
			t.Fatal(err)
		}
		onlyDice, decided := true, false
		for _, in := range body.Inputs {
			st, _ := m.Next()
			onlyDice = onlyDice && in.T == InShare
			decided = decided || (in.T == InMove && !st.Need.Auto) || in.T == InCommit || in.T == InChoose
			if _, err := m.Stage(h.Seat(ln.Envelope.From), in); err != nil {
				t.Fatal(err)
			}
		}
		if ln.Envelope.From != last {
			end()
			runs++
			dice, answers = onlyDice, last != "" && lastDecided
		} else {
			dice = dice && onlyDice
		}
		last, lastDecided = ln.Envelope.From, decided
	}
}
