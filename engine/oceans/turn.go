package oceans

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// MustOpen lists the slots a move by seat must open: the card of a faceup
// deployment or a discard. Facedown plays, attacks and battle decisions open
// nothing. It returns an error for a move that cannot be decoded or that
// names a leaf not in the seat's hand.
func (g *Game) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	m, err := DecodeMove(move)
	if err != nil {
		return nil, err
	}
	if m.Kind != Deploy && m.Kind != Discard {
		return nil, nil
	}
	if seat != 0 && seat != 1 {
		return nil, engine.Illegal("no %s in this match", seat)
	}
	if !slices.Contains(g.seats[seat].hand, m.Leaf) {
		return nil, engine.Illegal("leaf %d is not in %s's hand", m.Leaf, seat)
	}
	return []engine.Slot{FleetSlot(seat, m.Leaf)}, nil
}

// applyMove takes a decision of the seat on move.
func (g *Game) applyMove(in engine.Input) ([]engine.Event, error) {
	m, err := DecodeMove(in.Move)
	if err != nil {
		return nil, err
	}
	want, err := g.MustOpen(in.Seat, in.Move)
	if err != nil {
		return nil, err
	}
	cards, err := g.openedCards(want, in.Opened)
	if err != nil {
		return nil, err
	}
	switch g.phase {
	case PhaseDeploy:
		if m.Kind != Deploy {
			return nil, engine.Illegal("the opening deployment takes a deploy move, not %s", m.Kind)
		}
		return g.deploy(in.Seat, m, want, cards)
	case PhasePlay:
		switch m.Kind {
		case Place:
			return g.place(in.Seat, m)
		case Discard:
			return g.discard(in.Seat, m, want, cards)
		case Attack:
			return g.attack(in.Seat, m.Ocean)
		}
		return nil, engine.Illegal("a turn takes place, discard or attack moves, not %s", m.Kind)
	case PhaseBattle:
		return g.battleMove(in.Seat, m)
	}
	return nil, engine.Illegal("no move expected in phase %s", g.phase)
}

// checkJoin checks that seat may add a card from its hand at leaf to its
// task force in ocean o.
func (g *Game) checkJoin(seat engine.Seat, leaf int, o Ocean) error {
	st := &g.seats[seat]
	switch {
	case !slices.Contains(st.hand, leaf):
		return engine.Illegal("leaf %d is not in %s's hand", leaf, seat)
	case g.control[o] != engine.NoSeat:
		return engine.Illegal("the %s is out of play", o)
	case len(st.forces[o]) >= MaxTaskForce:
		return engine.Illegal("%s's task force in the %s already holds %d cards", seat, o, MaxTaskForce)
	case st.blockaded[o]:
		return engine.Illegal("the %s is blockaded for %s this turn", o, seat)
	}
	return nil
}

// join moves leaf from the hand to the task force in ocean o.
func (g *Game) join(seat engine.Seat, leaf int, o Ocean) {
	st := &g.seats[seat]
	st.hand = slices.DeleteFunc(st.hand, func(x int) bool { return x == leaf })
	st.forces[o] = append(st.forces[o], leaf)
}

// deploy plays an opening card faceup.
func (g *Game) deploy(seat engine.Seat, m Move, slots []engine.Slot, cards []Card) ([]engine.Event, error) {
	if err := g.checkJoin(seat, m.Leaf, m.Ocean); err != nil {
		return nil, err
	}
	if !cards[0].CanJoin() {
		return nil, engine.Illegal("%s cannot join a task force", withArticle(cards[0]))
	}
	if err := g.learn(slots, cards); err != nil {
		return nil, err
	}
	g.join(seat, m.Leaf, m.Ocean)
	g.deployed++
	if g.deployed == FirstDeploy+SecondDeploy {
		g.phase, g.turn = PhaseDraw, other(g.first)
	} else {
		g.turn = other(seat)
	}
	return []engine.Event{engine.Eventf(seat, "deploy", "%s deploys %s to the %s", seat, withArticle(cards[0]), m.Ocean)}, nil
}

// secondPlayAllowed checks that the seat on turn may play a second card.
func (g *Game) secondPlayAllowed(seat engine.Seat) error {
	if g.plays == 1 && g.mustAttack(seat) {
		return engine.Illegal("every task force of %s is full: it must attack", seat)
	}
	return nil
}

// place plays a card facedown to a task force; its leaf stays closed.
func (g *Game) place(seat engine.Seat, m Move) ([]engine.Event, error) {
	if err := g.secondPlayAllowed(seat); err != nil {
		return nil, err
	}
	if err := g.checkJoin(seat, m.Leaf, m.Ocean); err != nil {
		return nil, err
	}
	g.join(seat, m.Leaf, m.Ocean)
	g.plays++
	return []engine.Event{engine.Eventf(seat, "place", "%s plays a card facedown to the %s", seat, m.Ocean)}, nil
}

// discard plays a card faceup to the discard pile and issues its special
// command. Targets are optional: a command without one is wasted (house).
func (g *Game) discard(seat engine.Seat, m Move, slots []engine.Slot, cards []Card) ([]engine.Event, error) {
	if err := g.secondPlayAllowed(seat); err != nil {
		return nil, err
	}
	card := cards[0]
	if err := g.checkCommand(seat, card, m); err != nil {
		return nil, err
	}
	if err := g.learn(slots, cards); err != nil {
		return nil, err
	}
	st := &g.seats[seat]
	st.hand = slices.DeleteFunc(st.hand, func(x int) bool { return x == m.Leaf })
	st.discard = append(st.discard, m.Leaf)
	g.plays++
	ev := []engine.Event{engine.Eventf(seat, "discard", "%s discards %s", seat, withArticle(card))}
	return append(ev, g.command(seat, card, m)...), nil
}

// opposingCard finds an opposing task-force card by leaf: its ocean and
// whether it is in a task force at all.
func (g *Game) opposingCard(seat engine.Seat, leaf int) (Ocean, bool) {
	st := &g.seats[other(seat)]
	for o, tf := range st.forces {
		if slices.Contains(tf, leaf) {
			return Ocean(o), true
		}
	}
	return 0, false
}

// checkCommand checks the targets a discarded card's command names.
func (g *Game) checkCommand(seat engine.Seat, card Card, m Move) error {
	opp := &g.seats[other(seat)]
	if card != PTBoat && m.Ocean != 0 {
		return engine.Illegal("%s's command takes no ocean", withArticle(card))
	}
	limit := 0
	switch card {
	case Carrier:
		limit = CarrierReveals
	case Fighter, Submarine, Destroyer:
		limit = 1
	case PTBoat:
		if g.control[m.Ocean] != engine.NoSeat {
			return engine.Illegal("the %s is out of play: it cannot be blockaded", m.Ocean)
		}
	}
	if len(m.Targets) > limit {
		return engine.Illegal("%s's command takes at most %d targets, got %d", withArticle(card), limit, len(m.Targets))
	}
	var first Ocean
	for i, t := range m.Targets {
		o, ok := g.opposingCard(seat, t)
		if !ok {
			return engine.Illegal("target leaf %d is not in a task force of %s", t, other(seat))
		}
		if slices.Contains(m.Targets[:i], t) {
			return engine.Illegal("target leaf %d named twice", t)
		}
		if i == 0 {
			first = o
		} else if o != first {
			return engine.Illegal("a Carrier reveals cards of one task force only (%s and %s)", first, o)
		}
		k := opp.known[t]
		switch card {
		case Carrier, Fighter:
			if k != NoCard {
				return engine.Illegal("target leaf %d is already revealed", t)
			}
		case Submarine:
			if k != Destroyer && k != PTBoat {
				return engine.Illegal("a Submarine destroys a revealed Destroyer or PT Boat, leaf %d is %s", t, k)
			}
		case Destroyer:
			if k != Submarine {
				return engine.Illegal("a Destroyer destroys a revealed Submarine, leaf %d is %s", t, k)
			}
		}
	}
	return nil
}

// command carries out a checked special command.
func (g *Game) command(seat engine.Seat, card Card, m Move) []engine.Event {
	foe := other(seat)
	opp := &g.seats[foe]
	switch card {
	case Carrier, Fighter:
		for _, t := range m.Targets {
			g.reveal = append(g.reveal, FleetSlot(foe, t))
		}
		if len(g.reveal) > 0 {
			g.phase = PhaseReveal
			return []engine.Event{engine.Eventf(foe, "reveal-order", "%s must reveal %d card(s)", foe, len(g.reveal))}
		}
	case Submarine, Destroyer:
		if len(m.Targets) == 1 {
			t := m.Targets[0]
			o, _ := g.opposingCard(seat, t)
			opp.forces[o] = slices.DeleteFunc(opp.forces[o], func(x int) bool { return x == t })
			opp.discard = append(opp.discard, t)
			return []engine.Event{engine.Eventf(foe, "destroy", "%s's %s in the %s is destroyed", foe, opp.known[t], o)}
		}
	case PTBoat:
		opp.blockaded[m.Ocean] = true
		return []engine.Event{engine.Eventf(foe, "blockade", "the %s is blockaded for %s's next turn", m.Ocean, foe)}
	case Surprise:
		opp.surprised = true
		return []engine.Event{engine.Eventf(foe, "surprise", "%s may not attack nor play a second card next turn", foe)}
	}
	if len(m.Targets) == 0 && card != Battleship && card != Minefield && card != DepthCharges {
		return []engine.Event{engine.Eventf(seat, "wasted", "%s's %s command has no target", seat, card)}
	}
	return nil
}

// FleetSize counts the cards seat has in all its task forces.
func (g *Game) FleetSize(seat engine.Seat) int {
	n := 0
	for _, tf := range g.seats[seat].forces {
		n += len(tf)
	}
	return n
}

// mustAttack reports whether every task force of seat is full (and it has
// at least one): then its third step must be an attack.
func (g *Game) mustAttack(seat engine.Seat) bool {
	has := false
	for o, tf := range g.seats[seat].forces {
		if g.control[o] != engine.NoSeat {
			continue
		}
		if len(tf) > 0 && len(tf) < MaxTaskForce {
			return false
		}
		has = has || len(tf) > 0
	}
	return has
}

// attackOceans lists the oceans seat may attack now. A forced attack (every
// task force full) may go to any ocean holding one of its task forces, even
// with no opposing task force there; otherwise the fleet must be at least
// twice the oceans in play and the opponent must have a task force there.
func (g *Game) attackOceans(seat engine.Seat) []Ocean {
	if g.phase != PhasePlay || g.plays != 1 || g.seats[seat].surprised {
		return nil
	}
	forced := g.mustAttack(seat)
	if !forced && g.FleetSize(seat) < AttackFactor*g.inPlay() {
		return nil
	}
	var out []Ocean
	for o := range Ocean(NumOceans) {
		if g.control[o] != engine.NoSeat || len(g.seats[seat].forces[o]) == 0 {
			continue
		}
		if forced || len(g.seats[other(seat)].forces[o]) > 0 {
			out = append(out, o)
		}
	}
	return out
}

// attack declares an attack, which starts a battle.
func (g *Game) attack(seat engine.Seat, o Ocean) ([]engine.Event, error) {
	switch {
	case g.plays != 1:
		return nil, engine.Illegal("an attack replaces the second card: play a card first")
	case g.seats[seat].surprised:
		return nil, engine.Illegal("%s may not attack this turn (Element of Surprise)", seat)
	case g.control[o] != engine.NoSeat:
		return nil, engine.Illegal("the %s is out of play", o)
	case len(g.seats[seat].forces[o]) == 0:
		return nil, engine.Illegal("%s has no task force in the %s", seat, o)
	}
	if !slices.Contains(g.attackOceans(seat), o) {
		if !g.mustAttack(seat) && g.FleetSize(seat) < AttackFactor*g.inPlay() {
			return nil, engine.Illegal("a fleet of %d cannot attack: it needs %d (twice the %d oceans in play)",
				g.FleetSize(seat), AttackFactor*g.inPlay(), g.inPlay())
		}
		return nil, engine.Illegal("%s has no task force in the %s: an empty ocean can only be attacked when forced", other(seat), o)
	}
	g.plays++
	g.phase = PhaseBattle
	g.battle = battle{ocean: o, attacker: seat, step: stepOpenAttacker}
	return []engine.Event{engine.Eventf(seat, "attack", "%s attacks in the %s", seat, o)}, nil
}
