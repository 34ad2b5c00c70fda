package enginetest

import (
	"context"
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Input returns the honest input for the game's current need: from
// Answers when it has a function for the need's kind, else from [Honest].
func (h *Harness[G]) Input() (engine.Input, error) {
	n := h.Game.Next()
	if f := h.Answers[n.Kind]; f != nil {
		return f(n)
	}
	return h.Honest(n)
}

// Honest returns the input an honest referee builds for n, ignoring
// Answers: the agents' leaves committed, the agent's move (or the
// [engine.Answerer]'s for an Auto need) with the openings it must carry,
// openings from the opener's secrets, joint values, and every listed seat's
// choice.
func (h *Harness[G]) Honest(n engine.Need) (engine.Input, error) {
	switch n.Kind {
	case engine.NeedCommit:
		d, err := h.decide(n.Seat, n)
		if err != nil {
			return engine.Input{}, err
		}
		return h.Commit(n, d.Leaves)
	case engine.NeedMove:
		move, err := h.move(n)
		if err != nil {
			return engine.Input{}, err
		}
		return h.MoveInput(n.Seat, move)
	case engine.NeedOpen:
		op, err := h.Open(n.Seat, n.Open)
		if err != nil {
			return engine.Input{}, err
		}
		return engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: op}, nil
	case engine.NeedRandom:
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: h.Roll(n)}, nil
	case engine.NeedChoice:
		choices := make([][]byte, 0, len(n.Seats))
		for _, s := range n.Seats {
			d, err := h.decide(s, n)
			if err != nil {
				return engine.Input{}, err
			}
			choices = append(choices, d.Choice)
		}
		return engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Choices: choices}, nil
	}
	return engine.Input{}, fmt.Errorf("enginetest: no answer for a %s need (set Answers)", n.Kind)
}

// decide asks seat's agent, showing it a clone of the game and its secrets.
func (h *Harness[G]) decide(seat engine.Seat, n engine.Need) (engine.Decision, error) {
	if seat < 0 || int(seat) >= len(h.Agents) || h.Agents[seat] == nil {
		return engine.Decision{}, fmt.Errorf("enginetest: %s has no agent for %s %q", seat, n.Kind, n.Name)
	}
	d, err := h.Agents[seat].Decide(context.Background(), h.Game.Clone(), seat, h.Secrets(seat), n)
	if err != nil {
		return engine.Decision{}, fmt.Errorf("%s decides %s %q: %w", seat, n.Kind, n.Name, err)
	}
	return d, nil
}

// move returns the move for a NeedMove: the Answerer's for an Auto need,
// else the agent's.
func (h *Harness[G]) move(n engine.Need) ([]byte, error) {
	if !n.Auto {
		d, err := h.decide(n.Seat, n)
		return d.Move, err
	}
	a, ok := any(h.Game).(engine.Answerer)
	if !ok {
		return nil, fmt.Errorf("enginetest: an Auto need from a game that is no engine.Answerer")
	}
	b, err := a.Answer(n.Seat, n, h.Secrets(n.Seat))
	if err != nil {
		return nil, fmt.Errorf("answer for %s: %w", n.Seat, err)
	}
	return b, nil
}

// Commit stores leaves as the secrets of the committing seat of n and
// returns the commit input, with a stand-in root.
func (h *Harness[G]) Commit(n engine.Need, leaves [][]byte) (engine.Input, error) {
	if len(leaves) != n.Size {
		return engine.Input{}, fmt.Errorf("%s commits %d leaves to %q, want %d", n.Seat, len(leaves), n.Name, n.Size)
	}
	h.Secrets(n.Seat).Add(n.Seat, n.Name, leaves)
	return engine.Input{Kind: engine.NeedCommit, Seat: n.Seat,
		Commitment: &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size, Root: Root(leaves)}}, nil
}

// MoveInput returns the input of move by seat, carrying the openings
// MustOpen lists, from seat's secrets.
func (h *Harness[G]) MoveInput(seat engine.Seat, move []byte) (engine.Input, error) {
	slots, err := h.Game.MustOpen(seat, move)
	if err != nil {
		return engine.Input{}, fmt.Errorf("must open: %w", err)
	}
	op, err := h.Open(seat, slots)
	if err != nil {
		return engine.Input{}, err
	}
	return engine.Input{Kind: engine.NeedMove, Seat: seat, Move: move, Opened: op}, nil
}

// Open returns openings of slots from seat's secrets; a slot the seat does
// not know is an error.
func (h *Harness[G]) Open(seat engine.Seat, slots []engine.Slot) ([]engine.Opened, error) {
	sec := h.Secrets(seat)
	out := make([]engine.Opened, 0, len(slots))
	for _, s := range slots {
		v, ok := sec[s]
		if !ok {
			return nil, fmt.Errorf("%s has no secret for %s", seat, s)
		}
		out = append(out, engine.Opened{Slot: s, Value: v})
	}
	return out, nil
}

// Roll returns the values of the NeedRandom n: queued Script values first,
// then values drawn from Rand.
func (h *Harness[G]) Roll(n engine.Need) []int {
	vals := make([]int, n.Count)
	for i := range vals {
		if len(h.Script) > 0 {
			vals[i], h.Script = h.Script[0], h.Script[1:]
		} else {
			vals[i] = h.Rand.IntN(n.Bound)
		}
	}
	return vals
}
