package oceans

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// The read-only accessors below give a board view everything public on the
// table. Seats outside 0 and 1 read as empty.

func validSeat(s engine.Seat) bool { return s == 0 || s == 1 }

// Phase returns the stage the match is in.
func (g *Game) Phase() Phase { return g.phase }

// Turn returns the seat that acts in the current phase (the player on turn
// during play and battles), or NoSeat.
func (g *Game) Turn() engine.Seat { return g.turn }

// First returns player #1 (who drew six cards and deployed three), or NoSeat
// before the coin flip.
func (g *Game) First() engine.Seat { return g.first }

// Plays returns how many cards the player on turn has played this turn.
func (g *Game) Plays() int { return g.plays }

// LastTurn reports whether the player on turn has drawn its last card, so
// that the match ends with this turn.
func (g *Game) LastTurn() bool { return g.lastTurn }

// Controller returns the seat that controls ocean o, or NoSeat while the
// ocean is in play.
func (g *Game) Controller(o Ocean) engine.Seat {
	if !o.Valid() {
		return engine.NoSeat
	}
	return g.control[o]
}

// Controlled counts the oceans seat controls.
func (g *Game) Controlled(seat engine.Seat) int {
	if !validSeat(seat) {
		return 0
	}
	return g.controlled(seat)
}

// OceansInPlay counts the oceans still on the table.
func (g *Game) OceansInPlay() int { return g.inPlay() }

// TaskForceCard is one card of a task force as the table shows it.
type TaskForceCard struct {
	Leaf int  // the card's leaf in its owner's fleet deck
	Card Card // the card once revealed; NoCard while facedown
}

// TaskForce returns seat's task force in ocean o, in the order it was played.
func (g *Game) TaskForce(seat engine.Seat, o Ocean) []TaskForceCard {
	if !validSeat(seat) || !o.Valid() {
		return nil
	}
	st := &g.seats[seat]
	out := make([]TaskForceCard, len(st.forces[o]))
	for i, leaf := range st.forces[o] {
		out[i] = TaskForceCard{Leaf: leaf, Card: st.known[leaf]}
	}
	return out
}

// Hand returns the leaves in seat's hand (its owner reads the cards with
// [Game.HandCards]).
func (g *Game) Hand(seat engine.Seat) []int {
	if !validSeat(seat) {
		return nil
	}
	return slices.Clone(g.seats[seat].hand)
}

// DeckLeft counts the cards left in seat's draw pile.
func (g *Game) DeckLeft(seat engine.Seat) int {
	if !validSeat(seat) {
		return 0
	}
	return len(g.seats[seat].deck)
}

// Discards returns seat's discard pile, oldest first (every card in it is
// revealed).
func (g *Game) Discards(seat engine.Seat) []Card {
	if !validSeat(seat) {
		return nil
	}
	st := &g.seats[seat]
	out := make([]Card, len(st.discard))
	for i, leaf := range st.discard {
		out[i] = st.known[leaf]
	}
	return out
}

// Known returns the value of leaf of seat's deck if it has been opened, or
// NoCard.
func (g *Game) Known(seat engine.Seat, leaf int) Card {
	if !validSeat(seat) || leaf < 0 || leaf >= DeckSize {
		return NoCard
	}
	return g.seats[seat].known[leaf]
}

// Blockaded reports whether seat may not add cards to ocean o this turn (or
// on its next turn, if it is not on turn).
func (g *Game) Blockaded(seat engine.Seat, o Ocean) bool {
	return validSeat(seat) && o.Valid() && g.seats[seat].blockaded[o]
}

// Surprised reports whether seat may not attack nor play a second card this
// turn (or on its next turn, if it is not on turn).
func (g *Game) Surprised(seat engine.Seat) bool {
	return validSeat(seat) && g.seats[seat].surprised
}

// MustAttack reports whether every task force of seat is full, so that
// its third step must be an attack.
func (g *Game) MustAttack(seat engine.Seat) bool { return validSeat(seat) && g.mustAttack(seat) }

// AttackOceans lists the oceans seat may attack right now (empty unless it
// is seat's third step and an attack is allowed).
func (g *Game) AttackOceans(seat engine.Seat) []Ocean {
	if !validSeat(seat) || g.turn != seat {
		return nil
	}
	return g.attackOceans(seat)
}

// BattleView is the battle in progress as the table shows it.
type BattleView struct {
	// Ocean is where the battle is fought.
	Ocean Ocean
	// Attacker is the seat that declared the attack.
	Attacker engine.Seat
	// Revealed is false while the task forces are being revealed.
	Revealed bool
	// Attacking and Defending are the cards still standing on each side.
	Attacking, Defending []Card
	// AttackTotal and DefendTotal are each side's current value.
	AttackTotal, DefendTotal int
}

// Battle returns the battle in progress, if any.
func (g *Game) Battle() (BattleView, bool) {
	if g.phase != PhaseBattle {
		return BattleView{}, false
	}
	b := &g.battle
	v := BattleView{Ocean: b.ocean, Attacker: b.attacker, Revealed: b.step == stepFight}
	if !v.Revealed {
		return v, true
	}
	for _, c := range b.fight.side(attackerSide) {
		v.Attacking = append(v.Attacking, c.card)
	}
	for _, c := range b.fight.side(defenderSide) {
		v.Defending = append(v.Defending, c.card)
	}
	v.AttackTotal, v.DefendTotal = b.fight.total(attackerSide), b.fight.total(defenderSide)
	return v, true
}
