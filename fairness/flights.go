package fairness

import (
	"errors"
	"fmt"
	"io"
	"slices"

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
	// DiceAfterChoice counts the dice-only flights that answer another
	// seat's sealed decision (some envelope of the flight follows a message
	// holding another seat's decision, or its choice of a next dice chain,
	// a share naming one: see preshare.go): the roll must wait for that
	// choice, so such a flight cannot be saved. The others follow only
	// rolls or the seat's own messages.
	DiceAfterChoice int
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

// AvoidableDiceShare is the part of the flights that carries only dice
// shares without answering another seat's decision.
func (f Flights) AvoidableDiceShare() float64 {
	if f.Flights == 0 {
		return 0
	}
	return float64(f.DiceOnly-f.DiceAfterChoice) / float64(f.Flights)
}

// DiceShare is the part of the flights that carries only dice shares.
func (f Flights) DiceShare() float64 {
	if f.Flights == 0 {
		return 0
	}
	return float64(f.DiceOnly) / float64(f.Flights)
}

// CountFlights reads a transcript and counts its flights, replaying it to
// tell decisions from automatic answers. A flight is a round of waiting:
// a seat sends a chained envelope once it holds every message before it,
// so one flight after the last of them another seat sent (its own cost
// none); a member of a parallel group (parallel.go) once it holds its
// group's base. The envelopes sent in one round make one flight. It does
// not audit: it counts what the record holds up to its first line that
// does not apply.
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
	// known[n][s] is the latest round of the messages 1..n seat s sent
	// (-1: none); index[id] is the number of the message with that ID.
	known := [][]int{slices.Repeat([]int{-1}, len(h.Players))}
	index := map[string]int{h.Match: 0}
	dicey := map[int]bool{}                 // per round: every envelope sent in it only dice
	answers := map[int]bool{}               // per round: an envelope of it follows another seat's decision
	decided := []engine.Seat{engine.NoSeat} // per message: the seat that decided in it, if any
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
		from, shares, decider := h.Seat(e.From), 0, engine.NoSeat
		for _, in := range body.Inputs {
			st, _ := m.Next()
			switch {
			case in.T == InShare, in.T == InPreshare:
				shares++
				if in.Next != "" {
					decider = from // a new dice chain, chosen freely
				}
			case in.T == InMove && !st.Need.Auto, in.T == InCommit, in.T == InChoose:
				f.Decisions++
				decider = from
			}
			if _, err := m.Stage(from, in); err != nil {
				return f, fmt.Errorf("count flights: line %d: %w", ln.No, err)
			}
		}
		m.Staged(e, from, body.Inputs)
		base, ok := index[e.Prev]
		if !ok {
			return f, fmt.Errorf("count flights: line %d follows no earlier message", ln.No)
		}
		round := 0
		for s, t := range known[base] {
			if engine.Seat(s) != from {
				t++
			}
			round = max(round, t)
		}
		only, seen := dicey[round]
		dicey[round] = (only || !seen) && shares == len(body.Inputs)
		if d := decided[base]; d != engine.NoSeat && d != from {
			answers[round] = true
		}
		decided = append(decided, decider)
		f.Flights = max(f.Flights, round+1)
		next := slices.Clone(known[len(known)-1])
		next[from] = max(next[from], round)
		known = append(known, next)
		index[hexDigest(e.Hash())] = len(known) - 1
	}
	for round, only := range dicey {
		if only {
			f.DiceOnly++
			if answers[round] {
				f.DiceAfterChoice++
			}
		}
	}
	return f, nil
}
