package cards

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Spec describes the Battleship Card Game with coordinate cards to the rest
// of the program.
var Spec = engine.Spec{
	Name:     "cards",
	Title:    "Battleship Card Game (coordinate cards)",
	Rules:    "cards/1",
	Variants: []string{VariantStandard, VariantBeginner},
	MinSeats: 2,
	MaxSeats: 2,
	New:      engine.NewFunc(New),
}

// The variants: the full game, and the beginner rules without power cards
// and ship powers.
const (
	VariantStandard = "standard"
	VariantBeginner = "beginner"
)

// Compile-time checks that the package fits the engine contract.
var (
	_ engine.Game  = (*Game)(nil)
	_ engine.Agent = (*RandomBot)(nil)
	_ engine.Agent = (*StrongBot)(nil)
)

// CoordsName is the name of each seat's coordinate-card commitment.
const CoordsName = "coords"

type variant uint8

const (
	standard variant = iota
	beginner
)

func parseVariant(s string) (variant, error) {
	switch s {
	case "", VariantStandard:
		return standard, nil
	case VariantBeginner:
		return beginner, nil
	}
	return 0, fmt.Errorf("cards: unknown variant %q (want %q or %q)", s, VariantStandard, VariantBeginner)
}

// step is where the match stands: what Next asks for.
type step uint8

const (
	stCommitCoords step = iota // g.seat commits its coordinate cards
	stCommitDeck               // g.seat commits its first deck
	stFirst                    // coin flip for the first player
	stDeal                     // both opening hands, one roll
	stStart                    // the mover may use its PT Boat
	stPlay                     // the mover plays a card
	stFlipPick                 // roll which coordinate leaf lies at the tapped position
	stFlipOpen                 // the defender opens that leaf
	stDraw                     // roll which deck leaves g.draw.seat draws
	stReshuffle                // g.draw.seat commits its discard pile as a new deck
	stReveal                   // g.seat opens every leaf still hidden
	stOver                     // nothing more
)

// drawPurpose says why cards are being drawn.
type drawPurpose uint8

const (
	drawNone drawPurpose = iota
	drawReload
	drawPower // "Draw 3 cards, then play one"
)

// drawState is a draw in progress.
type drawState struct {
	purpose drawPurpose
	seat    engine.Seat
	left    int       // cards still to draw
	got     []CardRef // cards drawn so far (for the power draw)
}

// flipState is a tap in progress.
type flipState struct {
	attacker engine.Seat
	pos      int
	face     Face
	leaf     int // the coordinate leaf picked for pos, -1 before the roll
}

// Game is one match of the Battleship Card Game with coordinate cards. It
// holds only public information: facedown cards are leaf indices, and the
// values of a hand are known to their owner's secrets alone.
type Game struct {
	variant variant
	step    step
	seat    engine.Seat // the committer, mover or opener of the current step

	first     engine.Seat
	turn      engine.Seat
	turns     int
	playsLeft int
	mustFrom  []CardRef // non-nil: the next play must use one of these cards
	reloaded  bool
	ptPending bool // the start-of-turn PT Boat decision is still to come
	flip      *flipState
	draw      drawState

	players [2]player

	over   bool
	winner engine.Seat
	isDraw bool
	reason string
}

// player is one seat's public side of the table.
type player struct {
	coords coordTree
	grid   [GridSize]int // coordinate leaf at each position, -1 while facedown
	ships  [NumShips]shipState
	decks  []deckTree // decks[n-1] is "deck/n"; the last one holds the draw pile
	hand   []CardRef
	disc   [NumFaces]int // the discard pile, by face
}

// coordTree tracks the committed coordinate leaves.
type coordTree struct {
	committed bool
	value     [GridSize]Ship // meaningful where opened
	opened    [GridSize]bool
	placed    [GridSize]bool // already picked for a position
	seen      [NumShips]int
}

// deckTree tracks one committed deck.
type deckTree struct {
	expect [NumFaces]int // the multiset the leaves must hold
	seen   [NumFaces]int // faces opened so far
	drawn  []bool
	opened []bool
}

// shipState is one ship of a fleet.
type shipState struct {
	revealed   bool
	sunk       bool
	pos        int    // grid position once revealed
	pegs       []Face // the opponent's peg cards on the ship, in play order
	shield     bool
	shieldPegs []Face // the opponent's peg cards on the shield
}

// New starts a match for two seats.
func New(s engine.Setup) (*Game, error) {
	if s.Seats != 2 {
		return nil, fmt.Errorf("cards: %d seats, the game is for exactly 2", s.Seats)
	}
	v, err := parseVariant(s.Variant)
	if err != nil {
		return nil, err
	}
	g := &Game{variant: v, step: stCommitCoords, seat: 0, first: engine.NoSeat, turn: engine.NoSeat, winner: engine.NoSeat}
	for i := range g.players {
		p := &g.players[i]
		for j := range p.grid {
			p.grid[j] = -1
		}
	}
	return g, nil
}

// bothSeats lists the seats contributing to a joint roll: a new slice for
// each need, built only for the needs that name it (Next is asked several
// times for every input an audit replays).
func bothSeats() []engine.Seat { return []engine.Seat{0, 1} }

// drawPrompts holds the words of every draw's prompt (a seat draws k
// cards, k at most CarrierHandSize), built once: Next is asked for them
// several times per input, and Wordsf builds two strings each time.
var drawPrompts = func() (p [2][CarrierHandSize + 1]engine.Words) {
	for s := range p {
		for k := range p[s] {
			p[s][k] = drawPrompt(engine.Seat(s), k)
		}
	}
	return p
}()

// drawPrompt is the prompt of seat's draw of k cards.
func drawPrompt(s engine.Seat, k int) engine.Words { return engine.Wordsf("%s draws %d", s, k) }

// drawPromptOf returns drawPrompt(s, k), from drawPrompts where it is there.
func drawPromptOf(s engine.Seat, k int) engine.Words {
	if s >= 0 && int(s) < len(drawPrompts) && k >= 0 && k < len(drawPrompts[s]) {
		return drawPrompts[s][k]
	}
	return drawPrompt(s, k)
}

// Next reports what the match needs next.
func (g *Game) Next() engine.Need {
	switch g.step {
	case stCommitCoords:
		return engine.Need{Kind: engine.NeedCommit, Seat: g.seat, Name: CoordsName, Size: GridSize,
			Prompt: "commit your 12 coordinate cards"}
	case stCommitDeck:
		return engine.Need{Kind: engine.NeedCommit, Seat: g.seat, Name: DeckName(1), Size: countTotal(deckCounts(g.variant)),
			Prompt: "commit your deck of destruction"}
	case stFirst:
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: bothSeats(), Name: "first", Count: 1, Bound: 2,
			Prompt: "flip for the first player"}
	case stDeal:
		n := countTotal(deckCounts(g.variant))
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: bothSeats(), Name: "deal", Count: 2,
			Bound: drawBound(n, HandSize), Prompt: "deal both opening hands"}
	case stStart:
		return engine.Need{Kind: engine.NeedMove, Seat: g.seat, Prompt: "use your PT Boat to repair a ship, or skip"}
	case stPlay:
		prompt := "play a card"
		if g.mustFrom != nil {
			prompt = "play one of the three cards you drew"
		}
		return engine.Need{Kind: engine.NeedMove, Seat: g.seat, Prompt: prompt}
	case stFlipPick:
		def := other(g.flip.attacker)
		return engine.Need{Kind: engine.NeedRandom, Seat: def, Seats: bothSeats(), Name: "flip", Count: 1,
			Bound: GridSize - g.players[def].coords.placedCount(), Prompt: "pick the tapped coordinate card"}
	case stFlipOpen:
		def := other(g.flip.attacker)
		return engine.Need{Kind: engine.NeedOpen, Seat: def,
			Open:   []engine.Slot{{Owner: def, Name: CoordsName, Index: g.flip.leaf}},
			Prompt: "flip the tapped coordinate card"}
	case stDraw:
		r := g.pile(g.draw.seat)
		k := drawCount(r, g.draw.left)
		acting := g.draw.seat
		if g.draw.purpose == drawReload && k == g.draw.left {
			acting = other(g.draw.seat)
		}
		return engine.Need{Kind: engine.NeedRandom, Seat: acting, Seats: bothSeats(), Name: "draw", Count: 1,
			Bound: drawBound(r, k)}.WithPrompt(drawPromptOf(g.draw.seat, k))
	case stReshuffle:
		p := &g.players[g.draw.seat]
		return engine.Need{Kind: engine.NeedCommit, Seat: g.draw.seat, Name: DeckName(len(p.decks) + 1),
			Size: countTotal(p.disc), Prompt: "shuffle your discard pile into a new draw pile"}
	case stReveal:
		return engine.Need{Kind: engine.NeedOpen, Seat: g.seat, Open: g.hiddenSlots(g.seat),
			Prompt: "reveal every hidden card"}
	}
	return engine.Need{Kind: engine.NeedNone, Seat: engine.NoSeat}
}

// Outcome reports the result; Done once the final reveal is over.
func (g *Game) Outcome() engine.Outcome {
	if g.step != stOver {
		return engine.Outcome{}
	}
	o := engine.Outcome{Done: true, Draw: g.isDraw, Reason: g.reason}
	if !g.isDraw {
		o.Winners = []engine.Seat{g.winner}
	}
	return o
}

// Clone returns an independent copy of the match.
func (g *Game) Clone() engine.Game { return g.clone() }

func (g *Game) clone() *Game {
	c := new(Game)
	*c = *g
	c.ownSlices()
	return c
}

// ownSlices gives the copy of a state its own copies of what it would
// otherwise share. It is never inlined so that clone stays small enough
// to inline, and Apply, which keeps its working copy to itself, builds
// it on its stack.
//
//go:noinline
func (g *Game) ownSlices() {
	g.mustFrom = cloneSlice(g.mustFrom)
	if g.flip != nil {
		f := *g.flip
		g.flip = &f
	}
	g.draw.got = cloneSlice(g.draw.got)
	for i := range g.players {
		g.players[i] = g.players[i].clone()
	}
}

func (p player) clone() player {
	c := p
	// Every ship's peg cards share one new array, as the decks' flags do
	// below.
	pegs := 0
	for _, s := range p.ships {
		pegs += len(s.pegs) + len(s.shieldPegs)
	}
	faces := make([]Face, pegs)
	for k := range c.ships {
		c.ships[k].pegs, faces = copyInto(faces, p.ships[k].pegs)
		c.ships[k].shieldPegs, faces = copyInto(faces, p.ships[k].shieldPegs)
	}
	c.decks = make([]deckTree, len(p.decks))
	// Every deck's drawn and opened flags share one new array, one
	// allocation instead of two per deck on every Apply (each copy has its
	// length as its capacity, so an append copies it elsewhere).
	n := 0
	for _, d := range p.decks {
		n += len(d.drawn) + len(d.opened)
	}
	flags := make([]bool, n)
	for i, d := range p.decks {
		d.drawn, flags = copyInto(flags, d.drawn)
		d.opened, flags = copyInto(flags, d.opened)
		c.decks[i] = d
	}
	c.hand = cloneSlice(p.hand)
	return c
}

// copyInto copies s to the start of buf and returns the copy (nil for a
// nil s, its capacity its length) and the rest of buf.
func copyInto[T any](buf, s []T) (dst, rest []T) {
	if s == nil {
		return nil, buf
	}
	n := copy(buf, s)
	return buf[:n:n], buf[n:]
}

// cloneSlice copies s, keeping nil as nil and empty as empty.
func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

func (c *coordTree) placedCount() int {
	n := 0
	for _, p := range c.placed {
		if p {
			n++
		}
	}
	return n
}

// pile returns the number of cards in seat's draw pile.
func (g *Game) pile(s engine.Seat) int {
	p := &g.players[s]
	if len(p.decks) == 0 {
		return 0
	}
	n := 0
	for _, d := range p.decks[len(p.decks)-1].drawn {
		if !d {
			n++
		}
	}
	return n
}

// hiddenSlots lists every leaf of seat that has not been opened: coordinate
// cards never flipped, cards in hand and the draw pile.
func (g *Game) hiddenSlots(s engine.Seat) []engine.Slot {
	p := &g.players[s]
	var out []engine.Slot
	for i := range GridSize {
		if !p.coords.opened[i] {
			out = append(out, engine.Slot{Owner: s, Name: CoordsName, Index: i})
		}
	}
	for n, d := range p.decks {
		for i, o := range d.opened {
			if !o {
				out = append(out, engine.Slot{Owner: s, Name: DeckName(n + 1), Index: i})
			}
		}
	}
	return out
}

// other returns the opponent of a seat in a two-seat match.
func other(s engine.Seat) engine.Seat { return 1 - s }
