package cards

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Apply consumes one input. An input that does not fit the current need or
// breaks a rule returns an error wrapping engine.ErrIllegal (or an
// *engine.Fault naming the seat to blame) and leaves the match unchanged.
func (g *Game) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if n.Kind == engine.NeedNone {
		return nil, engine.Illegal("the match is over")
	}
	if in.Kind != n.Kind {
		return nil, engine.Illegal("got a %s input, the match needs a %s", in.Kind, n.Kind)
	}
	want := n.Seat
	if n.Kind == engine.NeedRandom {
		want = engine.NoSeat
	}
	if in.Seat != want {
		return nil, engine.Illegal("input from %s, the match needs one from %s", in.Seat, want)
	}
	// Work on a copy so that a rejected input changes nothing.
	c := g.clone()
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
	*g = *c
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
		evs := []engine.Event{{Seat: s, Kind: "reshuffle", Text: fmt.Sprintf("%s shuffles its discard pile into a new draw pile (%s)", s, n.Name)}}
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
		return []engine.Event{{Seat: g.first, Kind: "first", Text: fmt.Sprintf("%s plays first", g.first)}}, nil
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
		evs := []engine.Event{{Seat: s, Kind: "draw", Text: fmt.Sprintf("%s draws %d card(s)", s, k)}}
		return append(evs, g.advance()...), nil
	}
	return nil, engine.Illegal("no roll expected")
}

// checkOpened checks that opened names exactly the slots want (in any order,
// each once) and returns the values by slot.
func checkOpened(want []engine.Slot, opened []engine.Opened) (map[engine.Slot][]byte, error) {
	if len(opened) != len(want) {
		return nil, engine.Illegal("%d slots opened, want %d", len(opened), len(want))
	}
	need := make(map[engine.Slot]bool, len(want))
	for _, s := range want {
		need[s] = true
	}
	got := make(map[engine.Slot][]byte, len(opened))
	for _, o := range opened {
		if !need[o.Slot] {
			return nil, engine.Illegal("slot %s opened but not required", o.Slot)
		}
		if _, dup := got[o.Slot]; dup {
			return nil, engine.Illegal("slot %s opened twice", o.Slot)
		}
		got[o.Slot] = o.Value
	}
	return got, nil
}

func (g *Game) applyOpen(n engine.Need, opened []engine.Opened) ([]engine.Event, error) {
	vals, err := checkOpened(n.Open, opened)
	if err != nil {
		return nil, fmt.Errorf("%s opening: %w", n.Seat, err)
	}
	switch g.step {
	case stFlipOpen:
		s := n.Open[0]
		k, err := g.openCoord(n.Seat, s.Index, vals[s])
		if err != nil {
			return nil, err
		}
		return g.resolveFlip(k), nil
	case stReveal:
		for _, s := range n.Open {
			if err := g.openLeaf(n.Seat, s, vals[s]); err != nil {
				return nil, err
			}
		}
		if err := g.checkComplete(n.Seat); err != nil {
			return nil, err
		}
		evs := []engine.Event{{Seat: n.Seat, Kind: "revealed", Text: fmt.Sprintf("%s revealed every hidden card; its deck and grid check out", n.Seat)}}
		g.nextReveal(n.Seat + 1)
		return evs, nil
	}
	return nil, engine.Illegal("no opening expected")
}

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

// resolveFlip turns the tapped card faceup and resolves the peg card that
// tapped it.
func (g *Game) resolveFlip(k Ship) []engine.Event {
	f := g.flip
	a, d := f.attacker, other(f.attacker)
	g.flip = nil
	var evs []engine.Event
	if k == NoShip {
		g.players[a].disc[f.face]++
		evs = append(evs, engine.Event{Seat: d, Kind: "miss", Text: fmt.Sprintf("%s's tap on %s turns up a miss", a, PosName(f.pos))})
	} else {
		sh := &g.players[d].ships[k]
		sh.revealed, sh.pos = true, f.pos
		evs = append(evs, engine.Event{Seat: d, Kind: "found", Text: fmt.Sprintf("%s's tap on %s finds the %s", a, PosName(f.pos), k.Title())})
		evs = append(evs, g.hitShip(a, k, f.face)...)
	}
	evs = append(evs, g.settleBoard()...)
	return append(evs, g.advance()...)
}

// beginTurn starts seat s's turn and runs the match on to its first need.
func (g *Game) beginTurn(s engine.Seat) []engine.Event {
	g.startTurn(s)
	return g.advance()
}

// startTurn sets up seat s's turn: one play, the reload still to come, and
// the PT Boat decision if the seat has one. Past MaxTurns the match is drawn.
func (g *Game) startTurn(s engine.Seat) {
	g.turn = s
	g.turns++
	g.playsLeft = 1
	g.mustFrom = nil
	g.reloaded = false
	g.ptPending = g.ptRepairable(s)
	if g.turns > MaxTurns {
		g.over, g.isDraw, g.reason = true, true, fmt.Sprintf("turn limit of %d reached", MaxTurns)
	}
}

// ptRepairable reports whether seat s's PT Boat can remove a peg card now.
func (g *Game) ptRepairable(s engine.Seat) bool {
	return g.powerOn(s, PTBoat) && g.damagedShip(s)
}

// damagedShip reports whether seat s has an afloat ship with a peg card on it.
func (g *Game) damagedShip(s engine.Seat) bool {
	for _, k := range Ships {
		sh := &g.players[s].ships[k]
		if sh.revealed && !sh.sunk && len(sh.pegs) > 0 {
			return true
		}
	}
	return false
}

// advance moves the match on to the next input it needs: it runs draws,
// ends plays and turns, and starts the final reveal once play is decided.
func (g *Game) advance() []engine.Event {
	var evs []engine.Event
	for {
		if g.over {
			g.nextReveal(0)
			return evs
		}
		switch {
		case g.draw.purpose != drawNone && g.draw.left > 0:
			switch {
			case g.pile(g.draw.seat) > 0:
				g.step, g.seat = stDraw, g.draw.seat
				return evs
			case countTotal(g.players[g.draw.seat].disc) > 0:
				g.step, g.seat = stReshuffle, g.draw.seat
				return evs
			}
			g.draw.left = 0
			evs = append(evs, engine.Event{Seat: g.draw.seat, Kind: "no-cards", Text: fmt.Sprintf("%s has no cards left to draw", g.draw.seat)})
		case g.draw.purpose != drawNone:
			if g.draw.purpose == drawPower {
				g.mustFrom = g.draw.got
			}
			g.draw = drawState{}
		case g.ptPending:
			g.step, g.seat = stStart, g.turn
			return evs
		case g.playsLeft > 0:
			switch {
			case g.mustFrom != nil && len(g.mustFrom) == 0:
				g.playsLeft--
				g.mustFrom = nil
			case len(g.players[g.turn].hand) == 0:
				g.playsLeft = 0
			default:
				g.step, g.seat = stPlay, g.turn
				return evs
			}
		case !g.reloaded:
			g.reloaded = true
			g.mustFrom = nil
			if k := g.HandLimit(g.turn) - len(g.players[g.turn].hand); k > 0 {
				g.startDraw(g.turn, k, drawReload)
			}
		default:
			g.startTurn(other(g.turn))
		}
	}
}

// nextReveal moves the final reveal to the first seat from s on that still
// has hidden leaves, or ends the match.
func (g *Game) nextReveal(s engine.Seat) {
	for ; s < 2; s++ {
		if len(g.hiddenSlots(s)) > 0 {
			g.step, g.seat = stReveal, s
			return
		}
	}
	g.step, g.seat = stOver, engine.NoSeat
}

// HandLimit returns the hand size seat s reloads to now: 7 while its
// Aircraft Carrier is revealed and afloat, else 5.
func (g *Game) HandLimit(s engine.Seat) int {
	if validSeat(s) && g.powerOn(s, Carrier) {
		return CarrierHandSize
	}
	return HandSize
}
