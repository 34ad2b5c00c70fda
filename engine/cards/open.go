package cards

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Openings: every opened leaf is decoded and counted against the multiset
// its commitment must hold, so a stacked deck or an altered grid is caught
// by the first value too many.

// openLeaf records the opening of one leaf of seat s at the final reveal.
func (g *Game) openLeaf(s engine.Seat, sl engine.Slot, v []byte) error {
	if sl.Name == CoordsName {
		_, err := g.openCoord(s, sl.Index, v)
		return err
	}
	n, _ := parseDeckName(sl.Name)
	_, err := g.openCard(s, CardRef{Deck: n, Leaf: sl.Index}, v)
	return err
}

// openCoord records the value of coordinate leaf i of seat s, rejecting a
// value that is no coordinate card or one more than the grid holds.
func (g *Game) openCoord(s engine.Seat, i int, v []byte) (Ship, error) {
	k, err := DecodeCoord(v)
	if err != nil {
		return 0, &engine.Fault{Seat: s, Err: fmt.Errorf("%s[%d]: %w", CoordsName, i, err)}
	}
	c := &g.players[s].coords
	if c.opened[i] {
		return 0, engine.Illegal("%s[%d] of %s is already open", CoordsName, i, s)
	}
	c.seen[k]++
	if c.seen[k] > coordCounts[k] {
		return 0, &engine.Fault{Seat: s, Err: engine.Illegal("%s's coordinate cards hold %d %s card(s), the game has %d (altered grid)", s, c.seen[k], k, coordCounts[k])}
	}
	c.opened[i] = true
	c.value[i] = k
	return k, nil
}

// openCard records the face of card c of seat s, rejecting a value that is no
// card or one more of its face than that deck holds.
func (g *Game) openCard(s engine.Seat, c CardRef, v []byte) (Face, error) {
	f, err := DecodeCard(v)
	if err != nil {
		return 0, &engine.Fault{Seat: s, Err: fmt.Errorf("%s: %w", c, err)}
	}
	d, err := g.deckOf(s, c)
	if err != nil {
		return 0, err
	}
	if d.opened[c.Leaf] {
		return 0, engine.Illegal("%s of %s is already open", c, s)
	}
	d.seen[f]++
	if d.seen[f] > d.expect[f] {
		return 0, &engine.Fault{Seat: s, Err: engine.Illegal("%s's %s holds %d %s card(s), it may hold %d (stacked or altered deck)", s, DeckName(c.Deck), d.seen[f], f, d.expect[f])}
	}
	d.opened[c.Leaf] = true
	return f, nil
}

// deckOf returns the deck card c belongs to.
func (g *Game) deckOf(s engine.Seat, c CardRef) (*deckTree, error) {
	p := &g.players[s]
	if c.Deck < 1 || c.Deck > len(p.decks) || c.Leaf < 0 || c.Leaf >= len(p.decks[c.Deck-1].drawn) {
		return nil, engine.Illegal("%s has no card %s", s, c)
	}
	return &p.decks[c.Deck-1], nil
}

// checkComplete re-checks every commitment of seat s once all its leaves are
// open: the grid and every deck must hold exactly their multisets.
func (g *Game) checkComplete(s engine.Seat) error {
	p := &g.players[s]
	if p.coords.seen != coordCounts {
		return &engine.Fault{Seat: s, Err: engine.Illegal("%s's coordinate cards are %v, want %v", s, p.coords.seen, coordCounts)}
	}
	for i, d := range p.decks {
		if d.seen != d.expect {
			return &engine.Fault{Seat: s, Err: engine.Illegal("%s's %s holds %v, want %v", s, DeckName(i+1), d.seen, d.expect)}
		}
	}
	return nil
}
