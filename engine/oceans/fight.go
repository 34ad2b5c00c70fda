package oceans

import "math/bits"

// The two sides of a battle, as indices into fight arrays.
const (
	attackerSide = 0
	defenderSide = 1
)

// bcard is a revealed card in a battle: its leaf index and its value.
type bcard struct {
	leaf int
	card Card
}

// fight is the pure core of a battle once both task forces are revealed: the
// cards still standing on each side, whose turn it is to play a zero-valued
// card, and a Minefield waiting for its target. The engine drives it with
// the players' decisions; the bots drive copies of it to look ahead. It is a
// plain value (no pointers), so copying it copies the battle.
type fight struct {
	cards [2][MaxTaskForce]bcard
	n     [2]int
	turn  int // side that plays the next zero-valued card
	mine  int // side whose Minefield waits for a target, or -1
}

// newFight starts a battle between two revealed task forces; the defender
// plays the first zero-valued card.
func newFight(att, def []bcard) fight {
	f := fight{turn: defenderSide, mine: -1}
	for _, c := range att {
		f.add(attackerSide, c)
	}
	for _, c := range def {
		f.add(defenderSide, c)
	}
	return f
}

func (f *fight) add(s int, c bcard) {
	f.cards[s][f.n[s]] = c
	f.n[s]++
}

// remove takes card i off side s, keeping the others in order.
func (f *fight) remove(s, i int) bcard {
	c := f.cards[s][i]
	copy(f.cards[s][i:f.n[s]], f.cards[s][i+1:f.n[s]])
	f.n[s]--
	f.cards[s][f.n[s]] = bcard{}
	return c
}

// side returns the cards standing on side s.
func (f *fight) side(s int) []bcard { return f.cards[s][:f.n[s]] }

// has reports whether side s holds a card of kind k.
func (f *fight) has(s int, k Card) bool {
	for _, c := range f.side(s) {
		if c.card == k {
			return true
		}
	}
	return false
}

// mask returns the bit set of the indices of side s's cards that match.
func (f *fight) mask(s int, match func(Card) bool) uint8 {
	var m uint8
	for i, c := range f.side(s) {
		if match(c.card) {
			m |= 1 << i
		}
	}
	return m
}

// find returns the index on side s of the card with the given leaf, or -1.
func (f *fight) find(s, leaf int) int {
	for i, c := range f.side(s) {
		if c.leaf == leaf {
			return i
		}
	}
	return -1
}

// choiceKind says what a battle waits for.
type choiceKind uint8

const (
	choiceNone   choiceKind = iota // the zero-valued cards are all played
	choiceZero                     // actor picks which zero-valued card to play
	choiceTarget                   // actor picks the ship a Minefield destroys
)

// choice is a decision the battle waits for: the actor picks one card among
// opts (a bit set of indices) on side.
type choice struct {
	kind  choiceKind
	actor int
	side  int
	opts  uint8
}

// pending returns the next decision of the battle, trivial or not.
func (f *fight) pending() choice {
	if f.mine >= 0 {
		t := 1 - f.mine
		actor := f.mine
		if f.has(t, PTBoat) {
			actor = t // the owner of a PT Boat picks the target in its own task force
		}
		return choice{kind: choiceTarget, actor: actor, side: t, opts: f.mask(t, Card.Surface)}
	}
	s := f.turn
	if f.mask(s, Card.Zero) == 0 {
		s = 1 - s
	}
	opts := f.mask(s, Card.Zero)
	if opts == 0 {
		return choice{kind: choiceNone}
	}
	return choice{kind: choiceZero, actor: s, side: s, opts: opts}
}

// oneKind reports whether every option of c is the same kind of card, so
// that the choice makes no difference.
func (f *fight) oneKind(c choice) bool {
	first := NoCard
	for i, x := range f.side(c.side) {
		if c.opts&(1<<i) == 0 {
			continue
		}
		if first == NoCard {
			first = x.card
		} else if x.card != first {
			return false
		}
	}
	return true
}

// fightEvent records one thing that happened in a battle.
type fightEvent struct {
	kind string // "zero", "destroy", "fizzle"
	side int
	card bcard
}

// settle resolves every decision that has at most one meaningful option and
// returns the first real decision (or choiceNone when the zero-valued cards
// are all played). Events are appended to log when it is not nil.
func (f *fight) settle(log *[]fightEvent) choice {
	for {
		c := f.pending()
		switch {
		case c.kind == choiceNone:
			return c
		case c.kind == choiceTarget && c.opts == 0:
			if log != nil {
				*log = append(*log, fightEvent{kind: "fizzle", side: f.mine})
			}
			f.mine = -1
		case f.oneKind(c):
			f.resolve(c, bits.TrailingZeros8(c.opts), log)
		default:
			return c
		}
	}
}

// resolve carries out decision c with option i (an index on c.side, which
// must be one of c.opts).
func (f *fight) resolve(c choice, i int, log *[]fightEvent) {
	switch c.kind {
	case choiceZero:
		f.playZero(c.side, i, log)
	case choiceTarget:
		x := f.remove(c.side, i)
		f.mine = -1
		if log != nil {
			*log = append(*log, fightEvent{kind: "destroy", side: c.side, card: x})
		}
	}
}

// playZero plays zero-valued card i of side s: a Minefield then waits for
// its target, Depth Charges destroy every opposing Submarine at once.
func (f *fight) playZero(s, i int, log *[]fightEvent) {
	x := f.remove(s, i)
	if log != nil {
		*log = append(*log, fightEvent{kind: "zero", side: s, card: x})
	}
	f.turn = 1 - s
	switch x.card {
	case Minefield:
		f.mine = s
	case DepthCharges:
		t := 1 - s
		for j := 0; j < f.n[t]; {
			if f.cards[t][j].card != Submarine {
				j++
				continue
			}
			y := f.remove(t, j)
			if log != nil {
				*log = append(*log, fightEvent{kind: "destroy", side: t, card: y})
			}
		}
	}
}

// cardValue is the battle value of card k in a task force that does or does
// not hold a Carrier, facing one that does or does not hold a Destroyer.
func cardValue(k Card, withCarrier, facingDestroyer bool) int {
	switch {
	case k == Fighter && withCarrier:
		return fighterWithCarrier
	case k == Submarine && !facingDestroyer:
		return submarineUnopposed
	case k < numCards:
		return baseValue[k]
	}
	return 0
}

// total is the value of side s's standing cards.
func (f *fight) total(s int) int {
	carrier, destroyer := f.has(s, Carrier), f.has(1-s, Destroyer)
	t := 0
	for _, c := range f.side(s) {
		t += cardValue(c.card, carrier, destroyer)
	}
	return t
}

// winner returns the winning side once the zero-valued cards are played:
// the higher total wins, a tie goes to the defender, and when no card stands
// on either side nobody wins (-1).
func (f *fight) winner() int {
	if f.n[attackerSide] == 0 && f.n[defenderSide] == 0 {
		return -1
	}
	if f.total(attackerSide) > f.total(defenderSide) {
		return attackerSide
	}
	return defenderSide
}
