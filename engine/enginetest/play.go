package enginetest

import (
	"errors"
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Apply feeds in to the game. When the game accepts it, Apply records the
// input, feeds the shadow engine, checks the hash changed (with
// RequireChange) and runs the AfterApply hooks. When the game refuses it,
// Apply checks that the state did not change (an error saying so if it
// did) and otherwise returns the game's own error unwrapped.
func (h *Harness[G]) Apply(in engine.Input) ([]engine.Event, error) {
	n := h.Game.Next()
	for _, f := range h.before {
		f(n, in)
	}
	before := h.Game.Hash()
	ev, err := h.Game.Apply(in)
	if err != nil {
		if h.Game.Hash() != before {
			// Every engine's contract: a refused input changes nothing.
			return nil, fmt.Errorf("the game refused a %s input (%w) but its state changed", in.Kind, err)
		}
		return nil, err
	}
	h.inputs = append(h.inputs, in)
	if h.Shadow != nil {
		if _, err := h.Shadow.Apply(in); err != nil {
			return ev, fmt.Errorf("the shadow engine refused what the game took: %w", err)
		}
		if h.Shadow.Hash() != h.Game.Hash() {
			return ev, errors.New("the shadow engine's hash differs")
		}
	}
	if h.RequireChange && h.Game.Hash() == before {
		return ev, fmt.Errorf("a %s input was accepted but changed nothing", in.Kind)
	}
	for _, f := range h.after {
		if err := f(n, in, ev); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

// Step builds the honest input for the current need and applies it.
func (h *Harness[G]) Step() ([]engine.Event, error) {
	n := h.Game.Next()
	in, err := h.Input()
	if err != nil {
		return nil, fmt.Errorf("step %d (%s %q): %w", h.Steps(), n.Kind, n.Name, err)
	}
	ev, err := h.Apply(in)
	if err != nil {
		return ev, fmt.Errorf("step %d (%s %q from %s): %w", h.Steps(), n.Kind, n.Name, in.Seat, err)
	}
	return ev, nil
}

// Play steps until the match is over and returns its outcome; it fails
// after limit steps.
func (h *Harness[G]) Play(limit int) (engine.Outcome, error) {
	if err := h.run(func(engine.Need) bool { return false }, limit); err != nil && !errors.Is(err, ErrOver) {
		return engine.Outcome{}, err
	}
	return h.Game.Outcome(), nil
}

// RunUntil steps until stop holds for the current need. It fails after
// limit steps, and with an error wrapping [ErrOver] when the match ends
// first (stop sees the final NeedNone need, so it can accept the end).
func (h *Harness[G]) RunUntil(stop func(n engine.Need) bool, limit int) error {
	return h.run(stop, limit)
}

func (h *Harness[G]) run(stop func(n engine.Need) bool, limit int) error {
	for i := 0; ; i++ {
		n := h.Game.Next()
		if stop(n) {
			return nil
		}
		if n.Kind == engine.NeedNone {
			return fmt.Errorf("after %d steps: %w", h.Steps(), ErrOver)
		}
		if i >= limit {
			return fmt.Errorf("still at %s %q after %d steps", n.Kind, n.Name, limit)
		}
		if _, err := h.Step(); err != nil {
			return err
		}
	}
}
