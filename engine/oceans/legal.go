package oceans

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// HandCards reads the cards of seat's hand from its secrets, in hand order.
func (g *Game) HandCards(seat engine.Seat, sec engine.Secrets) ([]Card, error) {
	if seat != 0 && seat != 1 {
		return nil, engine.Illegal("no %s in this match", seat)
	}
	hand := g.seats[seat].hand
	out := make([]Card, len(hand))
	for i, leaf := range hand {
		c, err := SecretCard(sec, FleetSlot(seat, leaf))
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// SecretCard reads the card at s from a seat's secrets; an unknown slot
// or a value that is no card is an error, with NoCard.
func SecretCard(sec engine.Secrets, s engine.Slot) (Card, error) {
	v, ok := sec.Value(s)
	if !ok {
		return NoCard, fmt.Errorf("secret %v unknown", s)
	}
	c, err := DecodeCard(v)
	if err != nil {
		return NoCard, fmt.Errorf("secret %v: %w", s, err)
	}
	return c, nil
}

// Moves lists every legal move for seat at the current need, which must be
// a NeedMove of that seat. The seat's secrets tell it which cards it holds.
func (g *Game) Moves(seat engine.Seat, sec engine.Secrets) ([]Move, error) {
	need := g.Next()
	if need.Kind != engine.NeedMove || need.Seat != seat {
		return nil, fmt.Errorf("oceans: %s has no move to make (the match needs a %s from %s)", seat, need.Kind, need.Seat)
	}
	if g.phase == PhaseBattle {
		return g.battleMoves(), nil
	}
	cards, err := g.HandCards(seat, sec)
	if err != nil {
		return nil, fmt.Errorf("oceans: moves of %s: %w", seat, err)
	}
	hand := g.seats[seat].hand
	var out []Move
	if g.phase == PhaseDeploy {
		for i, leaf := range hand {
			out = append(out, g.joinMoves(seat, Deploy, leaf, cards[i])...)
		}
		return out, nil
	}
	if g.plays == 0 || !g.mustAttack(seat) {
		for i, leaf := range hand {
			out = append(out, g.joinMoves(seat, Place, leaf, cards[i])...)
			out = append(out, g.discardMoves(seat, leaf, cards[i])...)
		}
	}
	for _, o := range g.attackOceans(seat) {
		out = append(out, Move{Kind: Attack, Ocean: o})
	}
	return out, nil
}

// joinMoves lists the ways to play card (at leaf) into a task force.
func (g *Game) joinMoves(seat engine.Seat, kind MoveKind, leaf int, card Card) []Move {
	if !card.CanJoin() {
		return nil
	}
	var out []Move
	for o := range Ocean(NumOceans) {
		if g.checkJoin(seat, leaf, o) == nil {
			out = append(out, Move{Kind: kind, Leaf: leaf, Ocean: o})
		}
	}
	return out
}

// discardMoves lists the ways to discard card (at leaf): one per choice of
// targets, including none.
func (g *Game) discardMoves(seat engine.Seat, leaf int, card Card) []Move {
	if card == PTBoat {
		var out []Move
		for o := range Ocean(NumOceans) {
			if g.control[o] == engine.NoSeat {
				out = append(out, Move{Kind: Discard, Leaf: leaf, Ocean: o})
			}
		}
		return out
	}
	out := []Move{{Kind: Discard, Leaf: leaf}}
	foe := other(seat)
	opp := &g.seats[foe]
	for o := range Ocean(NumOceans) {
		tf := opp.forces[o]
		for i, t := range tf {
			k := opp.known[t]
			switch {
			case (card == Carrier || card == Fighter) && k == NoCard,
				card == Submarine && (k == Destroyer || k == PTBoat),
				card == Destroyer && k == Submarine:
				out = append(out, Move{Kind: Discard, Leaf: leaf, Targets: []int{t}})
			}
			if card != Carrier || k != NoCard {
				continue
			}
			for _, u := range tf[i+1:] {
				if opp.known[u] == NoCard {
					out = append(out, Move{Kind: Discard, Leaf: leaf, Targets: []int{t, u}})
				}
			}
		}
	}
	return out
}

// battleMoves lists the options of the battle's pending decision.
func (g *Game) battleMoves() []Move {
	b := &g.battle
	c := b.fight.pending()
	kind := Zero
	if c.kind == choiceTarget {
		kind = Target
	}
	var out []Move
	for i, x := range b.fight.side(c.side) {
		if c.opts&(1<<i) != 0 {
			out = append(out, Move{Kind: kind, Leaf: x.leaf})
		}
	}
	return out
}
