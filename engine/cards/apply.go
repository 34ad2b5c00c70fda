package cards

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Apply consumes one input. An input that does not fit the current need or
// breaks a rule returns an error wrapping engine.ErrIllegal (or an
// *engine.Fault naming the seat to blame) and leaves the match unchanged.
func (g *Game) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if err := engine.CheckKind(n, in); err != nil {
		return nil, err
	}
	want := n.Seat
	if n.Kind == engine.NeedRandom {
		want = engine.NoSeat
	}
	if in.Seat != want {
		return nil, engine.Illegal("input from %s, the match needs one from %s", in.Seat, want)
	}
	// Work on a copy so that a rejected input changes nothing, unless the
	// input is a commitment or a roll: applyCommit and applyRandom check
	// everything before they change anything (TestPropertyRandomMatches
	// tries rolls and commitments refused at their last check),
	// so those, a third of the inputs an audit replays, go without the copy.
	c := g
	if n.Kind != engine.NeedCommit && n.Kind != engine.NeedRandom {
		c = g.clone()
	}
	var evs []engine.Event
	var err error
	switch n.Kind {
	case engine.NeedCommit:
		evs, err = c.applyCommit(n, in.Commitment)
	case engine.NeedRandom:
		evs, err = c.applyRandom(n, in.Random)
	case engine.NeedOpen:
		evs, err = c.applyOpen(n, in.Opened)
	case engine.NeedMove:
		evs, err = c.applyMove(in.Seat, in.Move, in.Opened)
	default:
		err = engine.Illegal("unexpected %s input", in.Kind)
	}
	if err != nil {
		return nil, err
	}
	if c != g {
		*g = *c
	}
	return evs, nil
}

func (g *Game) applyCommit(n engine.Need, cm *engine.Commitment) ([]engine.Event, error) {
	if cm == nil {
		return nil, engine.Illegal("commit input without a commitment")
	}
	if cm.Owner != n.Seat || cm.Name != n.Name || cm.Size != n.Size {
		return nil, engine.Illegal("commitment %s %q of %d leaves, want %s %q of %d", cm.Owner, cm.Name, cm.Size, n.Seat, n.Name, n.Size)
	}
	s := n.Seat
	p := &g.players[s]
	switch g.step {
	case stCommitCoords:
		p.coords.committed = true
		if s == 0 {
			g.seat = 1
		} else {
			g.step, g.seat = stCommitDeck, 0
		}
	case stCommitDeck:
		p.addDeck(deckCounts(g.variant))
		if s == 0 {
			g.seat = 1
		} else {
			g.step, g.seat = stFirst, engine.NoSeat
		}
	case stReshuffle:
		p.addDeck(p.disc)
		p.disc = [NumFaces]int{}
		evs := []engine.Event{engine.Eventf(s, "reshuffle", "%s shuffles its discard pile into a new draw pile (%s)", s, n.Name)}
		g.step = stDraw
		return append(evs, g.advance()...), nil
	}
	return nil, nil
}

func (g *Game) applyRandom(n engine.Need, vals []int) ([]engine.Event, error) {
	if len(vals) != n.Count {
		return nil, engine.Illegal("roll %q has %d values, want %d", n.Name, len(vals), n.Count)
	}
	for _, v := range vals {
		if v < 0 || v >= n.Bound {
			return nil, engine.Illegal("roll %q value %d outside [0, %d)", n.Name, v, n.Bound)
		}
	}
	switch g.step {
	case stFirst:
		g.first = engine.Seat(vals[0])
		g.step = stDeal
		return []engine.Event{engine.Eventf(g.first, "first", "%s plays first", g.first)}, nil
	case stDeal:
		for s := range g.players {
			g.drawLeaves(engine.Seat(s), HandSize, vals[s])
		}
		evs := []engine.Event{{Seat: engine.NoSeat, Kind: "deal", Text: "both players draw their opening hands"}}
		return append(evs, g.beginTurn(g.first)...), nil
	case stFlipPick:
		def := other(g.flip.attacker)
		var free []int
		for i, pl := range g.players[def].coords.placed {
			if !pl {
				free = append(free, i)
			}
		}
		leaf := free[vals[0]]
		g.flip.leaf = leaf
		g.players[def].coords.placed[leaf] = true
		g.players[def].grid[g.flip.pos] = leaf
		g.step, g.seat = stFlipOpen, def
		return nil, nil
	case stDraw:
		s := g.draw.seat
		k := drawCount(g.pile(s), g.draw.left)
		got := g.drawLeaves(s, k, vals[0])
		g.draw.left -= k
		g.draw.got = append(g.draw.got, got...)
		evs := []engine.Event{engine.Eventf(s, "draw", "%s draws %d card(s)", s, k)}
		return append(evs, g.advance()...), nil
	}
	return nil, engine.Illegal("no roll expected")
}

// checkOpened checks that opened names exactly the slots want (in any order,
// each once) and returns the values in want's order: vals[i] is want[i]'s.
// It finds a slot in want by a scan while want is short (a play opens one
// card, or a few to discard; maps for those were most of what an audit
// allocated for a move), by a map past that (the final reveal).
func checkOpened(want []engine.Slot, opened []engine.Opened) ([][]byte, error) {
	if len(opened) != len(want) {
		return nil, engine.Illegal("%d slots opened, want %d", len(opened), len(want))
	}
	find := slotIndex(want)
	vals := make([][]byte, len(want))
	filled := make([]bool, len(want))
	for _, o := range opened {
		i := find(o.Slot)
		if i < 0 {
			return nil, engine.Illegal("slot %s opened but not required", o.Slot)
		}
		if filled[i] {
			return nil, engine.Illegal("slot %s opened twice", o.Slot)
		}
		vals[i], filled[i] = o.Value, true
	}
	return vals, nil
}

// scanSlots is the most slots slotIndex scans instead of indexing.
const scanSlots = 8

// slotIndex returns a function that gives the first index of a slot in
// want, or -1.
func slotIndex(want []engine.Slot) func(engine.Slot) int {
	if len(want) <= scanSlots {
		return func(s engine.Slot) int { return slices.Index(want, s) }
	}
	index := make(map[engine.Slot]int, len(want))
	for i := len(want) - 1; i >= 0; i-- {
		index[want[i]] = i
	}
	return func(s engine.Slot) int {
		if i, ok := index[s]; ok {
			return i
		}
		return -1
	}
}

func (g *Game) applyOpen(n engine.Need, opened []engine.Opened) ([]engine.Event, error) {
	vals, err := checkOpened(n.Open, opened)
	if err != nil {
		return nil, fmt.Errorf("%s opening: %w", n.Seat, err)
	}
	switch g.step {
	case stFlipOpen:
		k, err := g.openCoord(n.Seat, n.Open[0].Index, vals[0])
		if err != nil {
			return nil, err
		}
		return g.resolveFlip(k), nil
	case stReveal:
		for i, s := range n.Open {
			if err := g.openLeaf(n.Seat, s, vals[i]); err != nil {
				return nil, err
			}
		}
		if err := g.checkComplete(n.Seat); err != nil {
			return nil, err
		}
		evs := []engine.Event{engine.Eventf(n.Seat, "revealed", "%s revealed every hidden card; its deck and grid check out", n.Seat)}
		g.nextReveal(n.Seat + 1)
		return evs, nil
	}
	return nil, engine.Illegal("no opening expected")
}

// resolveFlip turns the tapped card faceup and resolves the peg card that
// tapped it.
func (g *Game) resolveFlip(k Ship) []engine.Event {
	f := g.flip
	a, d := f.attacker, other(f.attacker)
	g.flip = nil
	var evs []engine.Event
	if k == NoShip {
		g.players[a].disc[f.face]++
		evs = append(evs, engine.Eventf(d, "miss", "%s's tap on %s turns up a miss", a, PosName(f.pos)))
	} else {
		sh := &g.players[d].ships[k]
		sh.revealed, sh.pos = true, f.pos
		evs = append(evs, engine.Eventf(d, "found", "%s's tap on %s finds the %s", a, PosName(f.pos), k.Title()))
		evs = append(evs, g.hitShip(a, k, f.face)...)
	}
	evs = append(evs, g.settleBoard()...)
	return append(evs, g.advance()...)
}
