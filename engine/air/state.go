package air

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// PlaneKind is the model of a plane.
type PlaneKind int

// Each squadron has one of each (text).
const (
	F35 PlaneKind = iota
	F22
)

// String names the model.
func (k PlaneKind) String() string {
	if k == F22 {
		return "F-22"
	}
	return "F-35"
}

// Plane is one plane and its squadron-board record. Plane ID is 2·seat for
// the seat's F-35 and 2·seat+1 for its F-22.
type Plane struct {
	ID       int
	Seat     engine.Seat
	Kind     PlaneKind
	Pos      Pos
	Heading  Heading
	Down     bool // shot down and out of play
	Missiles int
	Damage   [5]int // damage markers by Location
}

// Name names the plane, such as "Blue F-35".
func (p Plane) Name() string { return fmt.Sprintf("%s %s", Squadron[p.Seat], p.Kind) }

// CardRef names one Navigation card by where it lies in a shuffled deck:
// Deck is the shuffle's generation (1 for "nav", k for "nav/k") and Pos its
// position in that deck. Its number is secret until its holder plays it.
type CardRef struct {
	Deck int `json:"deck"`
	Pos  int `json:"pos"`
}

// DeckNameOf returns the name of the deck of generation gen.
func DeckNameOf(gen int) string {
	if gen == 1 {
		return DeckName
	}
	return fmt.Sprintf("%s/%d", DeckName, gen)
}

// Slot returns the shared-deck slot of the card, which its holder opens to
// play it.
func (c CardRef) Slot() engine.Slot {
	return engine.Slot{Owner: engine.NoSeat, Name: DeckNameOf(c.Deck), Index: c.Pos}
}

// String gives the card's slot, such as "nav[12]".
func (c CardRef) String() string { return fmt.Sprintf("%s[%d]", DeckNameOf(c.Deck), c.Pos) }

// Played is a Navigation card chosen for a plane this round, or lying on
// the discard pile.
type Played struct {
	Plane  int     // the plane it was chosen for
	Card   CardRef // where it came from
	Number int     // its number, 0 while still face down
}

// deckState is the public record of one shuffled deck.
type deckState struct {
	size  int
	next  int               // the next position to deal
	left  [DeckSize + 1]int // how many cards of each number are not yet revealed
	known []int             // the revealed number at each position, or 0
}

type phase int

const (
	phShuffle phase = iota
	phDeal
	phChoice
	phOpen
	phTurn
	phOver
)

type pendKind int

const (
	pendNone    pendKind = iota
	pendMove             // roll for the own plane's move
	pendBonus            // the F-35's +1 decision
	pendDisrupt          // roll for the opposing plane's move
	pendFire             // the red dice
	pendDamage           // the black damage dice
	pendCollide          // damage dice for both planes of a collision
)

// pending is an action half done, waiting for dice or a decision.
type pending struct {
	kind   pendKind
	plane  int // the moving plane, or the target of fire
	other  int // the other plane of a collision
	turn   Turn
	dice   int
	weapon Weapon
	dist   int
	total  int // the rolled total awaiting the F-35's decision
	own    bool
}

// turnState is the plane acting now.
type turnState struct {
	index     int // in Game.order
	plane     int
	card      Card
	moved     bool
	disrupted bool // also true when the card is not a disruption card
	fired     bool
	ended     bool // the player ended the turn without firing
}

// Game is one match of Mission Command Air. It implements engine.Game.
type Game struct {
	variant   string
	seats     int
	team      bool
	collide   bool
	planes    []Plane
	hands     [][]CardRef
	outOfPlay int // cards of eliminated hands, set aside unrevealed
	decks     []deckState
	discard   []Played
	round     int
	phase     phase
	cursor    int
	choosers  []engine.Seat
	order     []Played
	ts        turnState
	pend      pending
	outcome   engine.Outcome
	// gone marks the seats taken off the table (bit s for seat s): their
	// player left a free-for-all and the others play on (leave.go).
	gone uint8
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() engine.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := *g
	c.planes = append([]Plane(nil), g.planes...)
	c.hands = make([][]CardRef, len(g.hands))
	for i, h := range g.hands {
		c.hands[i] = append([]CardRef(nil), h...)
	}
	c.decks = make([]deckState, len(g.decks))
	for i, d := range g.decks {
		c.decks[i] = d
		c.decks[i].known = append([]int(nil), d.known...)
	}
	c.discard = append([]Played(nil), g.discard...)
	c.choosers = append([]engine.Seat(nil), g.choosers...)
	c.order = append([]Played(nil), g.order...)
	c.outcome.Winners = append([]engine.Seat(nil), g.outcome.Winners...)
	return &c
}

// Hash digests the whole public state.
func (g *Game) Hash() engine.Digest {
	h := engine.NewHasher("salvo/air/state/1")
	h.String(g.variant).Int(g.seats).Bool(g.team).Bool(g.collide)
	h.Int(len(g.planes))
	for _, p := range g.planes {
		h.Int(p.ID).Int(int(p.Seat)).Int(int(p.Kind)).Int(p.Pos.X).Int(p.Pos.Y).Int(int(p.Heading)).Bool(p.Down).Int(p.Missiles).Ints(p.Damage[:]...)
	}
	h.Int(len(g.hands))
	for _, hand := range g.hands {
		h.Int(len(hand))
		for _, c := range hand {
			h.Int(c.Deck).Int(c.Pos)
		}
	}
	h.Int(g.outOfPlay)
	h.Int(len(g.decks))
	for _, d := range g.decks {
		h.Int(d.size).Int(d.next).Ints(d.left[:]...).Ints(d.known...)
	}
	hashPlayed := func(ps []Played) {
		h.Int(len(ps))
		for _, p := range ps {
			h.Int(p.Plane).Int(p.Card.Deck).Int(p.Card.Pos).Int(p.Number)
		}
	}
	hashPlayed(g.discard)
	h.Int(g.round).Int(int(g.phase)).Int(g.cursor)
	h.Int(len(g.choosers))
	for _, s := range g.choosers {
		h.Int(int(s))
	}
	hashPlayed(g.order)
	t := g.ts
	h.Int(t.index).Int(t.plane).Int(t.card.Number).Bool(t.moved).Bool(t.disrupted).Bool(t.fired).Bool(t.ended)
	p := g.pend
	h.Int(int(p.kind)).Int(p.plane).Int(p.other).Int(int(p.turn)).Int(p.dice).Int(int(p.weapon)).Int(p.dist).Int(p.total).Bool(p.own)
	h.Bool(g.outcome.Done).Bool(g.outcome.Draw).String(g.outcome.Reason)
	h.Int(len(g.outcome.Winners))
	for _, s := range g.outcome.Winners {
		h.Int(int(s))
	}
	if g.gone != 0 {
		// Only matches in which a player left hash it, so every record
		// made before departures existed keeps its state hashes.
		h.Int(int(g.gone))
	}
	return h.Sum()
}
