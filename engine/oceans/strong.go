package oceans

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// The strong bot's tuning, in one place.
const (
	strongSamples   = 48   // sampled opposing task forces per ocean and decision
	phantomCards    = 2    // cards assumed for an opposing task force not yet started
	attackThreshold = 0.6  // win chance needed for a voluntary attack
	lateThreshold   = 0.3  // the same when the deck is nearly out and we are not ahead
	fleetBonus      = 0.1  // worth of one more card in the fleet while it is too small to attack
	revealWorth     = 0.04 // worth of revealing one card of a contested task force
	wasteWorth      = -0.3 // worth of discarding a card for nothing
	surpriseWorth   = 0.08 // base worth of an Element of Surprise
	restWeight      = 0.1  // weight of oceans beyond the ones still needed to win
)

// StrongBot plays by estimating, for every ocean, its chance of winning the
// battle there: it samples the opponent's facedown cards from the cards it
// has not yet seen, plays each sampled battle out, and places cards,
// issues commands and attacks to raise the chances of the oceans it still
// needs. Inside a battle, where every card is revealed, it plays perfectly.
type StrongBot struct {
	r *rand.Rand
}

// NewStrongBot returns the strong bot, drawing its samples from r.
func NewStrongBot(r *rand.Rand) *StrongBot { return &StrongBot{r: r} }

// Decide implements [engine.Agent].
func (b *StrongBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return decide(ctx, g, b.r, n, "strong bot", func(og *Game) (Move, error) { return b.choose(og, seat, sec) })
}

// choose picks the bot's move.
func (b *StrongBot) choose(g *Game, seat engine.Seat, sec engine.Secrets) (Move, error) {
	moves, err := g.Moves(seat, sec)
	if err != nil {
		return Move{}, err
	}
	if len(moves) == 0 {
		return Move{}, fmt.Errorf("no legal move for %s", seat)
	}
	if g.phase == PhaseBattle {
		return battleChoice(g, seat, moves), nil
	}
	o, err := b.look(g, seat, sec)
	if err != nil {
		return Move{}, err
	}
	return o.best(moves), nil
}

// battleChoice solves the revealed battle and takes the best option.
func battleChoice(g *Game, seat engine.Seat, moves []Move) Move {
	f := g.battle.fight
	c := f.pending()
	_, i := solveFight(f)
	if i >= 0 {
		leaf := f.side(c.side)[i].leaf
		for _, m := range moves {
			if m.Leaf == leaf {
				return m
			}
		}
	}
	return moves[0]
}

// outlook is what the bot sees of the table, with sampled guesses at the
// opponent's facedown cards.
type outlook struct {
	g         *Game
	me, foe   engine.Seat
	r         *rand.Rand
	hand      map[int]Card // the bot's hand by leaf
	mine      [NumOceans][]Card
	seen      [NumOceans][]Card // the opponent's revealed task-force cards
	samples   [NumOceans][][]Card
	value     [NumOceans]float64 // each ocean's current worth
	need      int                // oceans still needed to win
	canFoeHit bool               // the opponent could attack on its next turn
}

// look builds the outlook for seat.
func (b *StrongBot) look(g *Game, seat engine.Seat, sec engine.Secrets) (*outlook, error) {
	o := &outlook{g: g, me: seat, foe: other(seat), r: b.r, hand: map[int]Card{}}
	cards, err := g.HandCards(seat, sec)
	if err != nil {
		return nil, err
	}
	for i, leaf := range g.seats[seat].hand {
		o.hand[leaf] = cards[i]
	}
	foe := &g.seats[o.foe]
	var pool []Card
	var left [numCards]int
	left = deckCounts
	for _, k := range foe.known {
		left[k]--
	}
	for k := Card(1); k < numCards; k++ {
		if k == Surprise {
			continue
		}
		for range max(left[k], 0) {
			pool = append(pool, k)
		}
	}
	for oc := range Ocean(NumOceans) {
		for _, leaf := range g.seats[seat].forces[oc] {
			c, err := SecretCard(sec, FleetSlot(seat, leaf))
			if err != nil {
				return nil, err
			}
			o.mine[oc] = append(o.mine[oc], c)
		}
		hidden := 0
		for _, leaf := range foe.forces[oc] {
			if k := foe.known[leaf]; k != NoCard {
				o.seen[oc] = append(o.seen[oc], k)
			} else {
				hidden++
			}
		}
		if len(foe.forces[oc]) == 0 {
			hidden = phantomCards
		}
		o.samples[oc] = samplePool(b.r, pool, hidden, strongSamples)
	}
	o.need = OceansToWin - g.controlled(seat)
	o.canFoeHit = g.FleetSize(o.foe)+1 >= AttackFactor*g.inPlay()
	for oc := range Ocean(NumOceans) {
		o.value[oc] = o.oceanValue(oc, o.mine[oc], o.seen[oc])
	}
	return o, nil
}

// samplePool draws n guesses of k cards each from pool, without replacement
// within a guess.
func samplePool(r *rand.Rand, pool []Card, k, n int) [][]Card {
	k = min(k, len(pool))
	out := make([][]Card, n)
	work := slices.Clone(pool)
	for i := range out {
		for j := range k {
			x := j + r.IntN(len(work)-j)
			work[j], work[x] = work[x], work[j]
		}
		out[i] = slices.Clone(work[:k])
	}
	return out
}

// toBattle turns cards into battle cards.
func toBattle(cs ...[]Card) []bcard {
	var out []bcard
	for _, group := range cs {
		for _, c := range group {
			out = append(out, bcard{leaf: len(out), card: c})
		}
	}
	return out
}

// winRates estimates the chance the bot wins the battle in ocean oc with
// task force mine against seen plus each sampled guess, attacking and
// defending.
func (o *outlook) winRates(oc Ocean, mine, seen []Card) (attack, defend float64) {
	if len(mine) == 0 {
		return 0, 0
	}
	my := toBattle(mine)
	wa, wd := 0, 0
	for _, guess := range o.samples[oc] {
		theirs := toBattle(seen, guess)
		if playOut(newFight(my, theirs)) == attackerSide {
			wa++
		}
		if playOut(newFight(theirs, my)) == defenderSide {
			wd++
		}
	}
	n := float64(len(o.samples[oc]))
	return float64(wa) / n, float64(wd) / n
}

// oceanValue is the worth of ocean oc to the bot with these task forces.
func (o *outlook) oceanValue(oc Ocean, mine, seen []Card) float64 {
	if o.g.control[oc] != engine.NoSeat {
		return 0
	}
	a, d := o.winRates(oc, mine, seen)
	return 0.6*a + 0.4*d
}

// total is the board's worth with ocean oc worth v: the oceans still needed
// count in full, the others a little.
func (o *outlook) total(oc Ocean, v float64) float64 {
	vals := make([]float64, 0, NumOceans)
	for x := range Ocean(NumOceans) {
		if o.g.control[x] != engine.NoSeat {
			continue
		}
		if x == oc {
			vals = append(vals, v)
		} else {
			vals = append(vals, o.value[x])
		}
	}
	slices.Sort(vals)
	slices.Reverse(vals)
	t := 0.0
	for i, x := range vals {
		if i < o.need {
			t += x
		} else {
			t += restWeight * x
		}
	}
	return t
}

// gain is the change in the board's worth if ocean oc were worth v.
func (o *outlook) gain(oc Ocean, v float64) float64 { return o.total(oc, v) - o.total(oc, o.value[oc]) }

// best scores every legal move and returns the best one.
func (o *outlook) best(moves []Move) Move {
	g := o.g
	if attacks := o.attacks(moves); len(attacks) > 0 {
		bestP, bestM := -1.0, Move{}
		for _, m := range attacks {
			p, _ := o.winRates(m.Ocean, o.mine[m.Ocean], o.seen[m.Ocean])
			if len(g.seats[o.foe].forces[m.Ocean]) == 0 {
				p = float64(outcomeFor(playOut(newFight(toBattle(o.mine[m.Ocean]), nil)), attackerSide))
			}
			if p > bestP {
				bestP, bestM = p, m
			}
		}
		threshold := attackThreshold
		if g.DeckLeft(o.me) <= DrawPerTurn && g.controlled(o.me) <= g.controlled(o.foe) {
			threshold = lateThreshold
		}
		if bestP >= threshold || len(attacks) == len(moves) {
			return bestM
		}
	}
	type key struct {
		kind    MoveKind
		card    Card
		ocean   Ocean
		targets string
	}
	cache := map[key]float64{}
	bestS, best := -1e9, moves[0]
	for _, m := range moves {
		if m.Kind == Attack {
			continue
		}
		k := key{m.Kind, o.hand[m.Leaf], m.Ocean, o.targetKey(m.Targets)}
		s, ok := cache[k]
		if !ok {
			s = o.score(m)
			cache[k] = s
		}
		s += o.r.Float64() * 1e-6
		if s > bestS {
			bestS, best = s, m
		}
	}
	return best
}

// attacks returns the attack moves among moves.
func (o *outlook) attacks(moves []Move) []Move {
	var out []Move
	for _, m := range moves {
		if m.Kind == Attack {
			out = append(out, m)
		}
	}
	return out
}

// targetKey names what a command targets (the ocean and the revealed
// cards, NoCard for facedown ones), so that equivalent moves share a score.
func (o *outlook) targetKey(targets []int) string {
	cards := make([]Card, len(targets))
	oc := Ocean(-1)
	for i, t := range targets {
		cards[i] = o.g.seats[o.foe].known[t]
		oc, _ = o.g.opposingCard(o.me, t)
	}
	return fmt.Sprint(oc, cards)
}

// score rates a card play.
func (o *outlook) score(m Move) float64 {
	g := o.g
	card := o.hand[m.Leaf]
	bonus := 0.0
	if g.FleetSize(o.me) < AttackFactor*g.inPlay() {
		bonus = fleetBonus
	}
	switch m.Kind {
	case Deploy, Place:
		mine := append(slices.Clone(o.mine[m.Ocean]), card)
		s := o.gain(m.Ocean, o.oceanValue(m.Ocean, mine, o.seen[m.Ocean])) + bonus
		if g.phase == PhasePlay && g.plays == 0 && o.fillsAll(m.Ocean) {
			s -= o.forcedRisk(m.Ocean, mine)
		}
		return s
	}
	switch card {
	case Submarine, Destroyer:
		if len(m.Targets) == 0 {
			return wasteWorth
		}
		oc, _ := g.opposingCard(o.me, m.Targets[0])
		k := g.seats[o.foe].known[m.Targets[0]]
		seen := slices.Clone(o.seen[oc])
		if i := slices.Index(seen, k); i >= 0 {
			seen = slices.Delete(seen, i, i+1)
		}
		return o.gain(oc, o.oceanValue(oc, o.mine[oc], seen))
	case Carrier, Fighter:
		if len(m.Targets) == 0 {
			return wasteWorth
		}
		oc, _ := g.opposingCard(o.me, m.Targets[0])
		w := revealWorth / 4
		if len(o.mine[oc]) > 0 {
			w = revealWorth
		}
		return w * float64(len(m.Targets))
	case PTBoat:
		if len(g.seats[o.foe].forces[m.Ocean]) > 0 && len(o.mine[m.Ocean]) > 0 {
			return revealWorth / 2
		}
		return revealWorth / 8
	case Surprise:
		s := surpriseWorth
		if o.canFoeHit {
			for oc := range Ocean(NumOceans) {
				if len(o.mine[oc]) > 0 && len(o.seen[oc])+len(g.seats[o.foe].forces[oc]) > 0 {
					_, d := o.winRates(oc, o.mine[oc], o.seen[oc])
					s = max(s, surpriseWorth+0.5*(1-d))
				}
			}
		}
		return s
	}
	return wasteWorth
}

// fillsAll reports whether adding a card in ocean oc leaves every task
// force of the bot full, forcing an attack at once.
func (o *outlook) fillsAll(oc Ocean) bool {
	for x := range Ocean(NumOceans) {
		n := len(o.mine[x])
		if x == oc {
			n++
		}
		if n > 0 && n < MaxTaskForce {
			return false
		}
	}
	return true
}

// forcedRisk is what a forced attack costs if the bot fills every task
// force with a card in oc: the chance of losing its best attack.
func (o *outlook) forcedRisk(oc Ocean, mineThere []Card) float64 {
	best := 0.0
	for x := range Ocean(NumOceans) {
		mine := o.mine[x]
		if x == oc {
			mine = mineThere
		}
		if len(mine) == 0 || o.g.control[x] != engine.NoSeat {
			continue
		}
		p := 0.0
		if len(o.g.seats[o.foe].forces[x]) == 0 {
			p = float64(max(0, outcomeFor(playOut(newFight(toBattle(mine), nil)), attackerSide)))
		} else {
			p, _ = o.winRates(x, mine, o.seen[x])
		}
		best = max(best, p)
	}
	return 1 - best
}
