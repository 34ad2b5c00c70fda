package cheat

import (
	"context"
	"slices"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/fairness"
)

// The cheats of the coordinate-card game (issue 7). Each is a dishonest
// decision or a doctored input of seat 1; the honest seat's engine and
// referee catch it at the message that carries it:
//
//   - stacked-deck, altered-grid: a commitment with the wrong multiset; the
//     engine counts every opened value against the multiset, so the first
//     card too many (or at the latest the final reveal) is a fault.
//   - flip-other-leaf: the referee checks that the opening is of exactly the
//     leaf the flip roll picked.
//   - card-not-in-hand, wrong-reload-size: the hand is public (leaf indices),
//     so a card from the discard pile, or from the draw pile as though the
//     reload had drawn one card more, is not in the hand. The engine alone
//     fixes how many cards a reload draws (the roll's bound) and nothing a
//     seat sends carries a reload size; playing an extra card is the only
//     way a bigger reload could show.
//   - red-peg-on-sub: the engine computes damage itself from the opened
//     faces, and a red peg card never damages a Submarine; the only thing a
//     peer sends is the card and the face it claims, so a peer that wants
//     its red peg counted must claim it is a white peg card, which the
//     opened leaf contradicts. (A peer whose own engine counted it anyway
//     would state another state hash; the generic wrong-state kind shows
//     that check.)
//   - repair-without-power: a repair by a seat with no PT Boat power and no
//     repair card in hand, played with another card claimed as a repair
//     card; the opened leaf contradicts the claim.
func init() {
	register("cards",
		Kind{"stacked-deck", "commits a deck with a second four-peg card in place of a one-peg card", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(rigCommit(cards.DeckName(1), cards.EncodeCard(cards.Red1), cards.EncodeCard(cards.Red4)))
		}},
		Kind{"altered-grid", "lays two Aircraft Carriers and no PT Boat among its coordinate cards", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(rigCommit(cards.CoordsName, cards.EncodeCoord(cards.PTBoat), cards.EncodeCoord(cards.Carrier)))
		}},
		Kind{"flip-other-leaf", "opens a miss where the flip roll picked one of its ships", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InOpen}, alter: flipOtherLeaf}, nil
		}},
		Kind{"card-not-in-hand", "plays again a card it already played", func() (Cheat, func(engine.Agent) engine.Agent) {
			c := &replayCard{}
			return agentCheat{}, steering(c.decide)
		}},
		Kind{"wrong-reload-size", "plays a card from its draw pile as though its reload had drawn one card more", func() (Cheat, func(engine.Agent) engine.Agent) {
			c := &overReload{seen: map[cards.CardRef]bool{}}
			return agentCheat{}, steering(c.decide)
		}},
		Kind{"red-peg-on-sub", "plays a red peg card on the Submarine claiming it is a white peg card", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(redPegOnSub)
		}},
		Kind{"repair-without-power", "repairs a ship with no PT Boat and no repair card, claiming another card is one", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(repairWithoutPower)
		}},
	)
}

// rigCommit replaces the first leaf holding from with to in the commitment
// called name; every other decision stays honest.
func rigCommit(name string, from, to []byte) steerFunc {
	return func(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
		d, err := inner.Decide(ctx, g, seat, sec, n)
		if err != nil || n.Kind != engine.NeedCommit || n.Name != name {
			return d, err
		}
		leaves := slices.Clone(d.Leaves)
		for i, v := range leaves {
			if string(v) == string(from) {
				leaves[i] = slices.Clone(to)
				break
			}
		}
		d.Leaves = leaves
		return d, nil
	}
}

// flipOtherLeaf answers a flip that picked one of the seat's ships with the
// genuine opening of a miss leaf instead.
func flipOtherLeaf(_ *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	if len(st.Need.Open) != 1 || st.Need.Open[0].Name != cards.CoordsName || len(in.Open) != 1 {
		return false
	}
	picked := st.Need.Open[0]
	v, ok := sec.Value(picked)
	if !ok {
		return false
	}
	if k, err := cards.DecodeCoord(v); err != nil || k == cards.NoShip {
		return false
	}
	grid, ok := sec.Vector(cards.CoordsName)
	if !ok {
		return false
	}
	for i := range grid.Size() {
		s := engine.Slot{Owner: picked.Owner, Name: cards.CoordsName, Index: i}
		if w, _ := sec.Value(s); i == picked.Index || string(w) != string(cards.EncodeCoord(cards.NoShip)) {
			continue
		}
		o, err := grid.Open(i)
		if err != nil {
			return false
		}
		in.Open[0] = o
		return true
	}
	return false
}

// cardFace reads the face of one of the seat's cards from its secrets.
func cardFace(sec engine.Secrets, seat engine.Seat, c cards.CardRef) cards.Face {
	v, ok := sec.Value(engine.Slot{Owner: seat, Name: cards.DeckName(c.Deck), Index: c.Leaf})
	if !ok {
		return cards.NoFace
	}
	f, err := cards.DecodeCard(v)
	if err != nil {
		return cards.NoFace
	}
	return f
}

// honestPlay asks the honest agent and decodes its move; ok is false when
// the need is not a card play (a commitment, a PT Boat decision, …).
func honestPlay(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, cards.Move, bool, error) {
	d, err := inner.Decide(ctx, g, seat, sec, n)
	if err != nil || n.Kind != engine.NeedMove {
		return d, cards.Move{}, false, err
	}
	m, err := cards.DecodeMove(d.Move)
	if err != nil || m.Card.Deck == 0 {
		return d, cards.Move{}, false, nil
	}
	return d, m, true, nil
}

// replayCard remembers the cards the seat played and, once it has played
// one, plays it again in place of its next play.
type replayCard struct{ played []cards.CardRef }

func (c *replayCard) decide(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	d, m, ok, err := honestPlay(ctx, inner, g, seat, sec, n)
	if err != nil || !ok {
		return d, err
	}
	if len(c.played) > 0 && m.Action != cards.DiscardWhite {
		// Prefer a played card of the face the honest move uses, so that
		// nothing but the card's place is wrong.
		pick := c.played[0]
		for _, p := range c.played {
			if cardFace(sec, seat, p) == m.Face {
				pick = p
				break
			}
		}
		m.Card, m.Face = pick, cardFace(sec, seat, pick)
		return moveDecision(m)
	}
	c.played = append(c.played, m.Card)
	c.played = append(c.played, m.Discard...)
	return d, nil
}

// overReload plays, at the first play of a turn after its first reload, a
// card still in its draw pile, as though the reload had drawn one card more
// than the engine allowed. It tracks every card it has seen in its hand:
// the rest of the current deck is the draw pile.
type overReload struct {
	seen map[cards.CardRef]bool
}

func (c *overReload) decide(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	cg, ok := g.(*cards.Game)
	if !ok {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	for _, h := range cg.Hand(seat) {
		c.seen[h] = true
	}
	d, m, ok, err := honestPlay(ctx, inner, g, seat, sec, n)
	if err != nil || !ok || m.Action == cards.DiscardWhite {
		return d, err
	}
	// A turn's first play, once the seat has been through a reload.
	if cg.Turns() < 3 || cg.PlaysLeft() != 1 || cg.MustPlayFrom() != nil || cg.DrawPile(seat) == 0 {
		return d, nil
	}
	deck := cg.Deck(seat)
	var extra []cards.CardRef
	for i := 0; ; i++ {
		ref := cards.CardRef{Deck: deck, Leaf: i}
		if _, ok := sec.Value(engine.Slot{Owner: seat, Name: cards.DeckName(deck), Index: i}); !ok {
			break
		}
		if !c.seen[ref] {
			extra = append(extra, ref)
		}
	}
	for _, ref := range extra {
		if cardFace(sec, seat, ref) == m.Face {
			m.Card = ref
			return moveDecision(m)
		}
	}
	return d, nil
}

// redPegOnSub attacks the opponent's revealed Submarine with a red peg card
// claimed as a white one (only white pegs damage a Submarine).
func redPegOnSub(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	d, _, ok, err := honestPlay(ctx, inner, g, seat, sec, n)
	if err != nil || !ok {
		return d, err
	}
	cg := g.(*cards.Game)
	sub := cg.Fleet(1 - seat)[slices.Index(cards.Ships[:], cards.Submarine)]
	if !sub.Revealed || sub.Sunk {
		return d, nil
	}
	must := cg.MustPlayFrom()
	for i, f := range cg.HandFaces(seat, sec) {
		c := cg.Hand(seat)[i]
		if f.IsRed() && (must == nil || slices.Contains(must, c)) {
			return moveDecision(cards.Move{Action: cards.Attack, Card: c, Face: cards.White, Ship: cards.Submarine})
		}
	}
	return d, nil
}

// repairWithoutPower removes a peg card from one of the seat's own ships
// when it has neither its PT Boat's power nor a repair card, claiming the
// card it was about to play is a repair card.
func repairWithoutPower(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	d, m, ok, err := honestPlay(ctx, inner, g, seat, sec, n)
	if err != nil || !ok {
		return d, err
	}
	cg := g.(*cards.Game)
	if cg.PowerOn(seat, cards.PTBoat) || slices.Contains(cg.HandFaces(seat, sec), cards.RepairDraw) {
		return d, nil
	}
	for _, s := range cg.Fleet(seat) {
		if s.Revealed && !s.Sunk && len(s.Pegs) > 0 {
			return moveDecision(cards.Move{Action: cards.Repair, Card: m.Card, Face: cards.RepairDraw, Ship: s.Ship, Peg: 0})
		}
	}
	return d, nil
}
