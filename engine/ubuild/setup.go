package ubuild

import (
	"github.com/salvo-game/salvo/engine"
)

// applyCommit records a seat's commitment to its grid or weapon counts.
func (st *state) applyCommit(in engine.Input, need engine.Need) ([]engine.Event, error) {
	c := in.Commitment
	if c == nil {
		return nil, engine.Illegal("commit: no commitment")
	}
	if len(in.Opened) > 0 {
		return nil, engine.Illegal("commit: unexpected openings")
	}
	if c.Owner != need.Seat || c.Name != need.Name || c.Size != need.Size {
		return nil, engine.Illegal("commit: got %s's %q of %d leaves, want %s's %q of %d",
			c.Owner, c.Name, c.Size, need.Seat, need.Name, need.Size)
	}
	f := &st.fleets[need.Seat]
	f.roots[f.committed] = c.Root
	f.committed++
	st.step++
	if st.step == len(commitSteps(st.variant)) {
		st.phase = PhaseFirst
		st.step = 0
	}
	return []engine.Event{engine.Eventf(need.Seat, "commit", "%s committed its %s (%s)", need.Seat, need.Name, c.Root.Short())}, nil
}

// applyFirst takes the coin flip that picks the first attacker.
func (st *state) applyFirst(in engine.Input) ([]engine.Event, error) {
	if len(in.Random) != 1 {
		return nil, engine.Illegal("first player: %d values, want 1", len(in.Random))
	}
	v := in.Random[0]
	if v < 0 || v > 1 {
		return nil, engine.Illegal("first player: value %d out of [0, 2)", v)
	}
	if len(in.Opened) > 0 {
		return nil, engine.Illegal("first player: unexpected openings")
	}
	st.first = engine.Seat(v)
	st.attacker = st.first
	st.phase = PhaseFire
	return []engine.Event{engine.Eventf(st.first, "first", "%s attacks first", st.first)}, nil
}
