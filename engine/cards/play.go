package cards

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// MustOpen lists the slots a move by seat opens: the card it plays and, for
// "Discard white peg cards", every card it discards. It returns an error for
// a move that cannot be decoded or names a card the seat never committed.
func (g *Game) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	m, err := DecodeMove(move)
	if err != nil {
		return nil, err
	}
	if !validSeat(seat) {
		return nil, engine.Illegal("no such seat %s", seat)
	}
	if err := m.checkShape(); err != nil {
		return nil, err
	}
	if err := g.checkRefs(seat, m); err != nil {
		return nil, err
	}
	return m.slots(seat), nil
}

// checkRefs checks that every card a move names exists in seat's decks.
func (g *Game) checkRefs(seat engine.Seat, m Move) error {
	if !m.Action.playsCard() {
		return nil
	}
	if _, err := g.deckOf(seat, m.Card); err != nil {
		return err
	}
	for _, c := range m.Discard {
		if _, err := g.deckOf(seat, c); err != nil {
			return err
		}
	}
	return nil
}

// applyMove checks and performs a move of seat.
func (g *Game) applyMove(seat engine.Seat, raw []byte, opened []engine.Opened) ([]engine.Event, error) {
	m, err := DecodeMove(raw)
	if err != nil {
		return nil, err
	}
	if err := m.checkShape(); err != nil {
		return nil, err
	}
	if g.step == stStart {
		return g.applyStart(seat, m, opened)
	}
	if !m.Action.playsCard() {
		return nil, engine.Illegal("%s: the match needs a card played", m.Action)
	}
	if err := g.checkRefs(seat, m); err != nil {
		return nil, err
	}
	vals, err := checkOpened(m.slots(seat), opened)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Action, err)
	}
	p := &g.players[seat]
	if !slices.Contains(p.hand, m.Card) {
		return nil, engine.Illegal("card %s is not in %s's hand", m.Card, seat)
	}
	if g.mustFrom != nil && !slices.Contains(g.mustFrom, m.Card) {
		return nil, engine.Illegal("card %s is not one of the cards just drawn with \"Draw 3 cards\" %v", m.Card, g.mustFrom)
	}
	// vals holds the values of m.slots(seat): the card's, then each discard's.
	face, err := g.openCard(seat, m.Card, vals[0])
	if err != nil {
		return nil, err
	}
	if face != m.Face {
		return nil, engine.Illegal("card %s is a %s card, the move claims a %s", m.Card, face, m.Face)
	}
	if err := g.checkUse(seat, m); err != nil {
		return nil, err
	}
	if m.Action == DiscardWhite {
		for i, c := range m.Discard {
			if c == m.Card || !slices.Contains(p.hand, c) {
				return nil, engine.Illegal("discarded card %s is not another card in %s's hand", c, seat)
			}
			f, err := g.openCard(seat, c, vals[1+i])
			if err != nil {
				return nil, err
			}
			if f != White {
				return nil, engine.Illegal("discarded card %s is a %s card, not a white peg card", c, f)
			}
		}
	}
	return g.perform(seat, m), nil
}

// checkShape rejects fields a move's action does not use, so that each
// decision has one encoding.
func (m Move) checkShape() error {
	usesCard := m.Action.playsCard()
	bad := (!usesCard && (m.Card != CardRef{} || m.Face != NoFace)) ||
		(usesCard && !m.Face.Valid()) ||
		(m.Action != Tap && m.Pos != 0) ||
		(m.Action != Attack && m.Action != PlaceShield && m.Action != Repair && m.Action != PTRepair && m.Ship != NoShip) ||
		(m.Action != Repair && m.Action != PTRepair && m.Peg != 0) ||
		(m.Action != DiscardWhite && len(m.Discard) > 0)
	if bad {
		return engine.Illegal("move %q carries fields its action does not use or lacks its card face", m.Action)
	}
	if m.Action == DiscardWhite {
		seen := map[CardRef]bool{m.Card: true}
		for _, c := range m.Discard {
			if seen[c] {
				return engine.Illegal("card %s is named twice in one move", c)
			}
			seen[c] = true
		}
	}
	return nil
}

// applyStart performs the start-of-turn PT Boat decision.
func (g *Game) applyStart(seat engine.Seat, m Move, opened []engine.Opened) ([]engine.Event, error) {
	if m.Action != PTRepair && m.Action != Skip {
		return nil, engine.Illegal("%s: the match needs a PT Boat repair or a skip", m.Action)
	}
	if len(opened) > 0 {
		return nil, engine.Illegal("%s opens nothing, got %d openings", m.Action, len(opened))
	}
	var evs []engine.Event
	if m.Action == PTRepair {
		if err := g.checkRepair(seat, m.Ship, m.Peg); err != nil {
			return nil, fmt.Errorf("PT Boat repair: %w", err)
		}
		evs = append(evs, g.repair(seat, m.Ship, m.Peg, "PT Boat"))
	}
	g.ptPending = false
	return append(evs, g.advance()...), nil
}

// checkRepair checks that seat may remove peg card i from its ship k.
func (g *Game) checkRepair(seat engine.Seat, k Ship, i int) error {
	if !k.Valid() {
		return engine.Illegal("no ship named to repair")
	}
	sh := &g.players[seat].ships[k]
	if !sh.revealed || sh.sunk {
		return engine.Illegal("%s's %s is not revealed and afloat", seat, k.Title())
	}
	if i < 0 || i >= len(sh.pegs) {
		return engine.Illegal("%s's %s has no peg card %d (it carries %d; shields cannot be repaired)", seat, k.Title(), i, len(sh.pegs))
	}
	return nil
}

// repair removes peg card i from seat's ship k; it goes back to the
// discard pile of the opponent who played it.
func (g *Game) repair(seat engine.Seat, k Ship, i int, by string) engine.Event {
	sh := &g.players[seat].ships[k]
	f := sh.pegs[i]
	sh.pegs = slices.Delete(sh.pegs, i, i+1)
	if len(sh.pegs) == 0 {
		sh.pegs = nil
	}
	g.players[other(seat)].disc[f]++
	return engine.Eventf(seat, "repair", "%s's %s removes a %s card from its %s", seat, by, f, k.Title())
}

// checkUse checks that the played face may do what the move says, on the
// board as it stands.
func (g *Game) checkUse(seat engine.Seat, m Move) error {
	f := m.Face
	opp := other(seat)
	switch m.Action {
	case Tap:
		if !f.IsPeg() {
			return engine.Illegal("only peg cards tap coordinate cards, not %s", f)
		}
		if m.Pos < 0 || m.Pos >= GridSize {
			return engine.Illegal("tap position %d outside the grid", m.Pos)
		}
		if g.players[opp].grid[m.Pos] >= 0 {
			return engine.Illegal("%s of %s is already faceup", PosName(m.Pos), opp)
		}
	case Attack:
		if !f.IsPeg() {
			return engine.Illegal("only peg cards attack ships, not %s", f)
		}
		if !g.afloat(opp, m.Ship) {
			return engine.Illegal("%s's %s is not a revealed ship afloat", opp, m.Ship)
		}
		if f == White && !g.whiteDamages(seat, m.Ship) {
			return engine.Illegal("a white peg card cannot damage the %s without your Destroyer's power", m.Ship.Title())
		}
	case PlaceShield:
		if f != ShieldCard {
			return engine.Illegal("a %s card is not a shield", f)
		}
		if !g.afloat(seat, m.Ship) {
			return engine.Illegal("your %s is not a revealed ship afloat", m.Ship)
		}
		if g.players[seat].ships[m.Ship].shield {
			return engine.Illegal("your %s already carries a shield", m.Ship.Title())
		}
	case DiscardWhite, PlayTwo:
		if f != DiscardPlay {
			return engine.Illegal("%s needs a %s card, not %s", m.Action, DiscardPlay, f)
		}
		if m.Action == DiscardWhite && len(m.Discard) == 0 {
			return engine.Illegal("discard-white discards no card")
		}
	case Repair:
		if f != RepairDraw {
			return engine.Illegal("a repair needs a %s card, not %s", RepairDraw, f)
		}
		if err := g.checkRepair(seat, m.Ship, m.Peg); err != nil {
			return err
		}
	case Draw3:
		if f != RepairDraw {
			return engine.Illegal("draw3 needs a %s card, not %s", RepairDraw, f)
		}
	case DiscardDead:
		if g.hasUse(seat, f) {
			return engine.Illegal("a %s card can still be played, it may not be discarded", f)
		}
	default:
		return engine.Illegal("%s does not play a card", m.Action)
	}
	return nil
}

// afloat reports whether ship k of seat s is revealed and not sunk.
func (g *Game) afloat(s engine.Seat, k Ship) bool {
	if !k.Valid() {
		return false
	}
	sh := &g.players[s].ships[k]
	return sh.revealed && !sh.sunk
}

// hasUse reports whether seat could play a card of face f now other than
// by discarding it.
func (g *Game) hasUse(seat engine.Seat, f Face) bool {
	opp := other(seat)
	switch {
	case f.IsPeg():
		if slices.Contains(g.players[opp].grid[:], -1) {
			return true
		}
		for _, k := range Ships {
			if g.afloat(opp, k) && (f.IsRed() || g.whiteDamages(seat, k)) {
				return true
			}
		}
		return false
	case f == ShieldCard:
		for _, k := range Ships {
			if g.afloat(seat, k) && !g.players[seat].ships[k].shield {
				return true
			}
		}
		return false
	}
	return f.Valid()
}

// perform carries out a checked card play.
func (g *Game) perform(seat engine.Seat, m Move) []engine.Event {
	p := &g.players[seat]
	p.hand = removeRef(p.hand, m.Card)
	g.mustFrom = nil
	g.playsLeft--
	evs := []engine.Event{engine.Eventf(seat, "play", "%s plays %s", seat, m)}
	switch m.Action {
	case Tap:
		g.flip = &flipState{attacker: seat, pos: m.Pos, face: m.Face, leaf: -1}
		g.step, g.seat = stFlipPick, engine.NoSeat
		return evs
	case Attack:
		evs = append(evs, g.hitShip(seat, m.Ship, m.Face)...)
		evs = append(evs, g.settleBoard()...)
	case PlaceShield:
		p.ships[m.Ship].shield = true
	case DiscardWhite:
		p.disc[DiscardPlay]++
		for _, c := range m.Discard {
			p.hand = removeRef(p.hand, c)
			p.disc[White]++
		}
	case PlayTwo:
		p.disc[DiscardPlay]++
		g.playsLeft += PowerExtraPlays
	case Repair:
		p.disc[RepairDraw]++
		evs = append(evs, g.repair(seat, m.Ship, m.Peg, "repair card"))
		g.playsLeft += RepairExtraPlays
	case Draw3:
		p.disc[RepairDraw]++
		g.startDraw(seat, DrawPowerCards, drawPower)
		g.playsLeft += DrawExtraPlays
	case DiscardDead:
		p.disc[m.Face]++
	}
	return append(evs, g.advance()...)
}

func removeRef(rs []CardRef, c CardRef) []CardRef {
	i := slices.Index(rs, c)
	if i < 0 {
		return rs
	}
	return slices.Delete(rs, i, i+1)
}
