package fairness

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/deck"
)

// A seat the game puts out before the match ends (engine.Outer: a squadron
// shot down in 3-4 player Air) must never be waited for again, or its
// leaving would stall the others and end the match with its forfeit. The
// engine asks it for no move, roll, choice or shuffle; what is left is the
// shared deck: every card not yet dealt is masked under its key share too.
// So the match asks it once, right away, for its unmasking shares of all
// those cards (InRelease). They reveal nothing, since each card stays
// masked under the keys of the seats still playing; after them no deal
// needs the seat, and decks shuffled later hold no key of it.

// out reports whether the game says seat is out of the game.
func (m *Match) out(seat engine.Seat) bool {
	o, ok := m.game.(engine.Outer)
	return ok && o.Out(seat)
}

// allOthersOut reports whether every seat not in seats is out: a shuffle
// may then leave them without a key share.
func (m *Match) allOthersOut(seats []engine.Seat) bool {
	for s := range m.keys {
		if !slices.Contains(seats, engine.Seat(s)) && !m.out(engine.Seat(s)) {
			return false
		}
	}
	return true
}

// unreleased returns the name of the first shared deck (by name, so every
// peer agrees) that still needs seat's unmasking share of an undealt card.
func (m *Match) unreleased(seat engine.Seat) (string, bool) {
	var names []string
	for name, d := range m.decks {
		if d.holder == nil || d.joint.Key(int(seat)) == nil {
			continue
		}
		for p := d.dealt; p < d.size; p++ {
			if _, ok := d.shares[p][seat]; !ok {
				names = append(names, name)
				break
			}
		}
	}
	if len(names) == 0 {
		return "", false
	}
	slices.Sort(names)
	return names[0], true
}

// releaseStep is the InRelease the match waits for before anything else,
// if a seat is out and a deck still needs its shares. A joint step in
// progress finishes first (a seat goes out only as one completes).
func (m *Match) releaseStep(need engine.Need) (Step, bool) {
	if m.gather != nil {
		return Step{}, false
	}
	for s := range m.keys {
		seat := engine.Seat(s)
		if !m.hello[s] || !m.out(seat) || m.Removed(seat) {
			continue
		}
		if name, ok := m.unreleased(seat); ok {
			return Step{Seat: seat, Kind: InRelease, Need: engine.Need{Kind: need.Kind, Seat: seat, Name: name, Prompt: "publish the unmasking shares of the undealt cards"}}, true
		}
	}
	return Step{}, false
}

// dealers lists the seats that must unmask the cards of a deal for its
// receiver: every other seat that holds a key of the deck and has not
// published its shares of those cards already (by InRelease).
func (m *Match) dealers(need engine.Need) []engine.Seat {
	d := m.decks[need.Name]
	var seats []engine.Seat
	for s := range m.keys {
		seat := engine.Seat(s)
		if seat == need.Seat || d == nil || d.joint == nil || d.joint.Key(s) == nil || m.Removed(seat) {
			continue
		}
		for p := d.dealt; p < d.dealt+need.Count && p < d.size; p++ {
			if _, ok := d.shares[p][seat]; !ok {
				seats = append(seats, seat)
				break
			}
		}
	}
	return seats
}

// applyRelease checks and stores an out seat's shares of every undealt card.
func (m *Match) applyRelease(st Step, in WireInput) ([]engine.Event, error) {
	from, name := st.Seat, st.Need.Name
	d := m.decks[name]
	if in.Name != name {
		return nil, fmt.Errorf("release of deck %q, the match waits for deck %q", in.Name, name)
	}
	if len(in.Shares) != d.size-d.dealt {
		return nil, fmt.Errorf("release: %d unmasking shares for the %d undealt cards of %s", len(in.Shares), d.size-d.dealt, name)
	}
	got := make([]*deck.Share, len(in.Shares))
	for i, b := range in.Shares {
		pos := d.dealt + i
		sh := new(deck.Share)
		if err := sh.UnmarshalBinary(b); err != nil {
			return nil, fmt.Errorf("release: unmasking share %d: %w", i+1, err)
		}
		if sh.Seat != int(from) {
			return nil, fmt.Errorf("release: unmasking share %d names seat %d", i+1, sh.Seat)
		}
		if err := d.p.VerifyShare(d.joint, pos, d.cards[pos], sh); err != nil {
			return nil, fmt.Errorf("release: unmasking share for %s[%d]: %w", name, pos, err)
		}
		got[i] = sh
	}
	for _, sh := range got {
		d.shares[sh.Pos][from] = sh
	}
	m.releases++
	return []engine.Event{engine.Eventf(from, "release", "%s is out of the game: it unmasked the %d undealt card(s) of %s for the others, proofs ✓; nothing waits for it any more", from, len(got), name)}, nil
}

// produceRelease builds the local seat's InRelease: its unmasking shares of
// every undealt card of the deck the step names.
func (r *Referee) produceRelease(st Step) (WireInput, error) {
	name := st.Need.Name
	d, k := r.m.decks[name], r.secrets.deckKeys[name]
	if d == nil || k == nil {
		return WireInput{}, fmt.Errorf("referee: release %s: no key share for it", name)
	}
	shares, err := unmaskShares(d, k, d.dealt, d.size)
	if err != nil {
		return WireInput{}, fmt.Errorf("referee: release %s: %w", name, err)
	}
	return WireInput{T: InRelease, Name: name, Shares: shares}, nil
}
