package fairness

import (
	"errors"
	"fmt"
	"io"

	"github.com/salvo-game/salvo/engine"
)

// Flights is what a match's record says its messages cost in waiting.
//
// A flight is one trip across the link that somebody has to wait for: an
// envelope that answers the one before it. Envelopes sent at once for one
// step (they all follow the same earlier envelope, and none waits for
// another) travel together and are one flight. On a link with one-way
// delay d a match takes at least Flights × d, whatever its CPU.
type Flights struct {
	// Flights counts the trips: chained envelopes, and each group of
	// envelopes that follow the same one.
	Flights int
	// DiceOnly counts the flights that carry nothing but dice preimages.
	DiceOnly int
	// Decisions counts what agents chose: moves that are not automatic
	// answers, set-up commitments, and hidden choices.
	Decisions int
}

// PerDecision is flights per decision (0 for a record without one).
func (f Flights) PerDecision() float64 {
	if f.Decisions == 0 {
		return 0
	}
	return float64(f.Flights) / float64(f.Decisions)
}

// DiceShare is the part of the flights that carries only dice shares.
func (f Flights) DiceShare() float64 {
	if f.Flights == 0 {
		return 0
	}
	return float64(f.DiceOnly) / float64(f.Flights)
}

// CountFlights reads a transcript and counts its flights, replaying it to
// tell decisions from automatic answers. It does not audit: it counts what
// the record holds up to its first line that does not apply.
func CountFlights(r io.Reader, spec func(string) (engine.Spec, bool)) (Flights, error) {
	var f Flights
	h, tr, err := ReadTranscript(r)
	if err != nil {
		return f, err
	}
	sp, ok := spec(h.Game)
	if !ok {
		return f, fmt.Errorf("count flights: no game %q", h.Game)
	}
	m, err := NewMatch(sp, h)
	if err != nil {
		return f, fmt.Errorf("count flights: %w", err)
	}
	var lastPrev, lastID string
	flightDice := false // the current flight carries only shares so far
	for {
		ln, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return f, fmt.Errorf("count flights: %w", err)
		}
		e := ln.Envelope
		if e == nil {
			continue
		}
		body, err := DecodeBody(e.Body)
		if err != nil {
			return f, fmt.Errorf("count flights: line %d: %w", ln.No, err)
		}
		shares := true
		for _, in := range body.Inputs {
			st, _ := m.Next()
			switch {
			case in.T == InShare:
			case in.T == InMove && !st.Need.Auto, in.T == InCommit, in.T == InChoose:
				f.Decisions++
				shares = false
			default:
				shares = false
			}
			if _, err := m.Stage(h.Seat(e.From), in); err != nil {
				return f, fmt.Errorf("count flights: line %d: %w", ln.No, err)
			}
		}
		together := lastID != "" && e.Prev == lastPrev && e.Prev != lastID
		if together {
			flightDice = flightDice && shares
		} else {
			if lastID != "" && flightDice {
				f.DiceOnly++
			}
			f.Flights++
			flightDice = shares
		}
		lastPrev, lastID = e.Prev, hexDigest(e.Hash())
	}
	if f.Flights > 0 && flightDice {
		f.DiceOnly++
	}
	return f, nil
}
