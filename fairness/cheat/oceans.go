package cheat

import (
	"context"
	"slices"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/fairness"
)

// The cheats of the ocean-card game (issue 8), by seat 1, and what catches
// them at the message that carries them:
//
//   - changed-facedown: a facedown card revealed (in battle, or by a
//     Carrier's or Fighter Plane's command) as another card than the one
//     committed at its leaf; the referee checks the opening against the
//     commitment.
//   - swapped-facedown: the genuine opening of a card still in the hand in
//     place of the facedown card played; the referee checks that exactly the
//     leaves the engine names are opened.
//   - undrawn-card: a card played facedown that was never drawn (the
//     cheater knows where its Battleships lie in its own deck); the hand is
//     public (leaf indices), and the engine refuses a leaf not in it.
//   - sixth-card: a sixth card added to a full task force.
//   - attack-too-small: an attack before the fleet holds twice as many cards
//     as there are oceans in play.
//   - wrong-battle-total: no move carries a battle total; the engine adds up
//     the opened cards itself. So this cheat is a seat whose own engine
//     counts its revealed cards as stronger ones than the openings show: the
//     reveal on the wire stays honest, and the state hash of its envelope,
//     which follows the wrong total, is what the honest seat refuses.
func init() {
	register("oceans",
		Kind{"changed-facedown", "reveals a facedown card as a stronger card than the one it committed", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InOpen}, alter: changedFacedown}, steering(seekBattle)
		}},
		Kind{"swapped-facedown", "reveals a card from its hand in place of the facedown card it played", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InOpen}, alter: swappedFacedown}, steering(seekBattle)
		}},
		Kind{"undrawn-card", "plays facedown a Battleship it never drew", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(undrawnCard)
		}},
		Kind{"sixth-card", "fills one task force, then adds a sixth card to it", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(sixthCard)
		}},
		Kind{"attack-too-small", "attacks before its fleet is twice the oceans in play", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(attackTooSmall)
		}},
		Kind{"wrong-battle-total", "counts its revealed battle cards as stronger ones in its own engine", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InOpen}, alter: wrongBattleTotal}, steering(seekBattle)
		}},
	)
}

// facedownReveal reports whether the local seat's open input reveals
// facedown task-force cards: a battle's reveal or a command's.
func facedownReveal(m *fairness.Match, in *fairness.WireInput) (*oceans.Game, bool) {
	g, ok := m.Game().(*oceans.Game)
	if !ok || len(in.Open) == 0 {
		return nil, false
	}
	p := g.Phase()
	return g, p == oceans.PhaseBattle || p == oceans.PhaseReveal
}

// changedFacedown keeps the salt and the path of the first revealed card
// but shows a Battleship (or a Carrier, if it is one).
func changedFacedown(m *fairness.Match, sec *fairness.Secrets, _ fairness.Step, in *fairness.WireInput) bool {
	if _, ok := facedownReveal(m, in); !ok {
		return false
	}
	want := oceans.Battleship
	if c, _ := oceans.SecretCard(sec, in.Open[0].Slot); c == oceans.Battleship {
		want = oceans.Carrier
	}
	in.Open[0].Value = oceans.EncodeCard(want)
	return true
}

// swappedFacedown replaces the first revealed card with the genuine
// opening of the strongest card in the hand.
func swappedFacedown(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	g, ok := facedownReveal(m, in)
	if !ok {
		return false
	}
	hand := g.Hand(st.Seat)
	if len(hand) == 0 {
		return false
	}
	best := hand[0]
	if cards, err := g.HandCards(st.Seat, sec); err == nil {
		if i := slices.Index(cards, oceans.Battleship); i >= 0 {
			best = hand[i]
		}
	}
	o, err := sec.Open(oceans.FleetSlot(st.Seat, best))
	if err != nil {
		return false
	}
	in.Open[0] = o
	return true
}

// stronger lists the cards a cheating engine would rather see, best first.
var stronger = []oceans.Card{oceans.Battleship, oceans.Submarine, oceans.Carrier, oceans.Destroyer}

// wrongBattleTotal feeds the seat's own engine its battle reveal with every
// card it can upgrade upgraded (within the deck list, so that only the total
// is off), then lets the honest reveal go out under the resulting state hash.
func wrongBattleTotal(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	g, ok := facedownReveal(m, in)
	if !ok || g.Phase() != oceans.PhaseBattle {
		return false
	}
	var count [16]int
	for leaf := range oceans.DeckSize {
		count[g.Known(st.Seat, leaf)]++
	}
	doctored := make([]engine.Opened, 0, len(st.Need.Open))
	changed := false
	for _, s := range st.Need.Open {
		c, _ := oceans.SecretCard(sec, s) // NoCard if unknown
		for _, up := range stronger {
			if up != c && count[up] < oceans.DeckCount(up) {
				c, changed = up, true
				break
			}
		}
		count[c]++
		doctored = append(doctored, engine.Opened{Slot: s, Value: oceans.EncodeCard(c)})
	}
	return changed && tamper(m, engine.Input{Kind: engine.NeedOpen, Seat: st.Seat, Opened: doctored})
}

// seekBattle steers the seat into battles where its facedown cards must be
// revealed (bots may go a whole match without one): in its turn it attacks
// wherever a facedown card of its own stands, and otherwise plays its cards
// facedown, where the opponent has a task force if it can.
func seekBattle(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	og, ok := g.(*oceans.Game)
	if !ok || n.Kind != engine.NeedMove || og.Phase() != oceans.PhasePlay {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	moves, err := og.Moves(seat, sec)
	if err != nil {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	facedown := func(o oceans.Ocean) bool {
		return slices.ContainsFunc(og.TaskForce(seat, o), func(c oceans.TaskForceCard) bool { return c.Card == oceans.NoCard })
	}
	score := func(mv oceans.Move) int {
		switch {
		case mv.Kind == oceans.Attack && facedown(mv.Ocean):
			return 3
		case mv.Kind == oceans.Place && len(og.TaskForce(1-seat, mv.Ocean)) > 0:
			return 2
		case mv.Kind == oceans.Place:
			return 1
		}
		return 0
	}
	best := -1
	for i, mv := range moves {
		if s := score(mv); s > 0 && (best < 0 || s > score(moves[best])) {
			best = i
		}
	}
	if best < 0 {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	return moveDecision(moves[best])
}

// undrawnCard plays facedown, at the first chance, a card still in its draw
// pile (a Battleship if one is left there).
func undrawnCard(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	og, ok := g.(*oceans.Game)
	if !ok || !playTurn(og, seat, n) || og.DeckLeft(seat) == 0 {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	o, ok := joinable(og, seat)
	if !ok {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	held := map[int]bool{}
	for _, leaf := range og.Hand(seat) {
		held[leaf] = true
	}
	for oc := range oceans.Ocean(oceans.NumOceans) {
		for _, c := range og.TaskForce(seat, oc) {
			held[c.Leaf] = true
		}
	}
	pick := -1
	for leaf := range oceans.DeckSize {
		if held[leaf] || og.Known(seat, leaf) != oceans.NoCard {
			continue
		}
		if c, _ := oceans.SecretCard(sec, oceans.FleetSlot(seat, leaf)); pick < 0 || c == oceans.Battleship {
			pick = leaf
		}
	}
	if pick < 0 {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	return moveDecision(oceans.Move{Kind: oceans.Place, Leaf: pick, Ocean: o})
}

// playTurn reports whether n asks seat to play a card in its turn (and a
// card may be played: not a forced attack).
func playTurn(g *oceans.Game, seat engine.Seat, n engine.Need) bool {
	return n.Kind == engine.NeedMove && g.Phase() == oceans.PhasePlay && !(g.Plays() == 1 && g.MustAttack(seat))
}

// joinable finds an ocean in play where seat's task force may take a card.
func joinable(g *oceans.Game, seat engine.Seat) (oceans.Ocean, bool) {
	for o := range oceans.Ocean(oceans.NumOceans) {
		if g.Controller(o) == engine.NoSeat && len(g.TaskForce(seat, o)) < oceans.MaxTaskForce && !g.Blockaded(seat, o) {
			return o, true
		}
	}
	return 0, false
}

// sixthCard adds a card to a full task force as soon as it has one, and
// until then plays its cards facedown into its fullest task force, taking
// care not to fill every task force with the first card of a turn (a
// forced attack would follow and empty one).
func sixthCard(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	og, ok := g.(*oceans.Game)
	if !ok || !playTurn(og, seat, n) || len(og.Hand(seat)) == 0 {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	size := func(o oceans.Ocean) int { return len(og.TaskForce(seat, o)) }
	var open []oceans.Ocean // in play and not full, with a task force
	for o := range oceans.Ocean(oceans.NumOceans) {
		if og.Controller(o) != engine.NoSeat {
			continue
		}
		if size(o) == oceans.MaxTaskForce {
			return moveDecision(oceans.Move{Kind: oceans.Place, Leaf: og.Hand(seat)[0], Ocean: o})
		}
		if size(o) > 0 {
			open = append(open, o)
		}
	}
	moves, err := og.Moves(seat, sec)
	if err != nil {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	best, bestSize := -1, -1
	for i, mv := range moves {
		if mv.Kind != oceans.Place {
			continue
		}
		s := size(mv.Ocean)
		if og.Plays() == 0 && s == oceans.MaxTaskForce-1 && len(open) == 1 {
			continue // it would leave only full task forces: a forced attack
		}
		if s > bestSize {
			best, bestSize = i, s
		}
	}
	if best < 0 {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	return moveDecision(moves[best])
}

// attackTooSmall attacks with its second step while its fleet is smaller
// than twice the oceans in play.
func attackTooSmall(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	og, ok := g.(*oceans.Game)
	if !ok || n.Kind != engine.NeedMove || og.Phase() != oceans.PhasePlay || og.Plays() != 1 ||
		og.Surprised(seat) || og.MustAttack(seat) || og.FleetSize(seat) >= oceans.AttackFactor*og.OceansInPlay() {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	var mine []oceans.Ocean
	for o := range oceans.Ocean(oceans.NumOceans) {
		if og.Controller(o) == engine.NoSeat && len(og.TaskForce(seat, o)) > 0 {
			mine = append(mine, o)
		}
	}
	if len(mine) == 0 {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	// Prefer an ocean the opponent holds too: the attack the rules would
	// allow there with a big enough fleet.
	i := slices.IndexFunc(mine, func(o oceans.Ocean) bool { return len(og.TaskForce(1-seat, o)) > 0 })
	return moveDecision(oceans.Move{Kind: oceans.Attack, Ocean: mine[max(i, 0)]})
}
