package oceans

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/salvo-game/salvo/engine"
)

// FleetName is the name of each seat's committed deck: 36 leaves, one card
// each, in an order only the owner knows.
const FleetName = "fleet"

// Standard is the name of the one variant: the rulebook with the house values of house.go.
const Standard = "standard"

// Spec describes the ocean card game to the rest of the program.
var Spec = engine.Spec{
	Name:     "oceans",
	Title:    "Battleship Card Game (ocean cards)",
	Rules:    "oceans/1",
	Variants: []string{Standard},
	MinSeats: 2,
	MaxSeats: 2,
	New:      engine.NewFunc(New),
}

var _ engine.Game = (*Game)(nil)

// Phase is the stage a match is in.
type Phase uint8

// The phases of a match, in the order they first occur.
const (
	PhaseCommit Phase = iota // each seat commits its fleet deck
	PhaseFirst               // the joint coin flip for player #1
	PhaseDeal                // starting hands are drawn
	PhaseDeploy              // the faceup opening deployment
	PhaseDraw                // the player on turn draws two cards
	PhasePlay                // the player on turn plays a card, then a second card or attacks
	PhaseReveal              // a special command makes the opponent reveal cards
	PhaseBattle              // a battle is being fought
	PhaseFinal               // the end-of-match reveal of every remaining card
	PhaseOver                // the match is over
)

var phaseNames = [...]string{"commit", "first player", "deal", "deploy", "draw", "play", "reveal", "battle", "final reveal", "over"}

// String returns the phase's name.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// battleStep is the part of a battle in progress.
type battleStep uint8

const (
	stepOpenAttacker battleStep = iota // the attacker reveals its facedown cards
	stepOpenDefender                   // the defender reveals its facedown cards
	stepFight                          // zero-valued cards, then totals
)

// battle is the battle in progress.
type battle struct {
	ocean    Ocean
	attacker engine.Seat
	step     battleStep
	fight    fight
}

// seatState is everything public about one seat.
type seatState struct {
	root      engine.Digest
	deck      []int            // leaf indices still in the draw pile, ascending
	hand      []int            // leaf indices in the hand, in draw order
	known     [DeckSize]Card   // the value of every opened leaf; NoCard if unopened
	forces    [NumOceans][]int // each task force's leaves, in play order
	discard   []int            // the discard pile's leaves, oldest first
	blockaded [NumOceans]bool  // oceans this seat may not add to this (or its next) turn
	surprised bool             // this seat may not attack nor play a second card this (or its next) turn
}

// Game is one match of the ocean card game. It implements [engine.Game].
// The zero value is not usable; start a match with [New].
type Game struct {
	phase    Phase
	turn     engine.Seat // the seat that acts in the phase
	first    engine.Seat // player #1, or NoSeat before the coin flip
	seats    [2]seatState
	control  [NumOceans]engine.Seat // who controls each ocean; NoSeat while in play
	deployed int                    // opening cards played so far
	plays    int                    // cards played this turn
	lastTurn bool                   // the seat on turn drew its last card
	reveal   []engine.Slot          // leaves a special command has the opponent reveal
	battle   battle                 // the battle, in PhaseBattle
	result   engine.Outcome         // the result, decided when play ends; Done after the final reveal
}

// New starts a match. The ocean card game is for exactly two seats and has
// one variant.
func New(s engine.Setup) (*Game, error) {
	if s.Seats != 2 {
		return nil, engine.Illegal("oceans is for 2 seats, not %d", s.Seats)
	}
	if s.Variant != "" && s.Variant != Standard {
		return nil, engine.Illegal("oceans has no variant %q", s.Variant)
	}
	g := &Game{phase: PhaseCommit, turn: 0, first: engine.NoSeat}
	for o := range g.control {
		g.control[o] = engine.NoSeat
	}
	for s := range g.seats {
		g.seats[s].deck = make([]int, DeckSize)
		for i := range DeckSize {
			g.seats[s].deck[i] = i
		}
	}
	return g, nil
}

// other returns the opponent of seat s.
func other(s engine.Seat) engine.Seat { return 1 - s }

// bothSeats lists the seats contributing to joint rolls.
func bothSeats() []engine.Seat { return []engine.Seat{0, 1} }

// RollsAfter says which rolls follow the one asked now whatever its values
// (engine.RollFollower): the roll for the first player is followed by the
// first player's deal and then the other's, and the first deal by the
// other's; nothing else is told (a turn's draw may end the game or the turn).
func (g *Game) RollsAfter() []engine.Need {
	deal := engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: bothSeats(), Prompt: "draw the opening hand"}
	switch {
	case g.phase == PhaseFirst:
		return []engine.Need{deal, deal}
	case g.phase == PhaseDeal && g.turn == g.first:
		return []engine.Need{deal}
	}
	return nil
}

// FleetSlot names leaf i of seat s's fleet deck: the slot a card of the
// deck is committed, opened and read from secrets at.
func FleetSlot(s engine.Seat, i int) engine.Slot {
	return engine.Slot{Owner: s, Name: FleetName, Index: i}
}

// Next reports what the match needs next.
func (g *Game) Next() engine.Need {
	switch g.phase {
	case PhaseCommit:
		return engine.Need{Kind: engine.NeedCommit, Seat: g.turn, Name: FleetName, Size: DeckSize,
			Prompt: "commit your fleet deck"}
	case PhaseFirst:
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: bothSeats(),
			Name: "first", Count: 1, Bound: 2, Prompt: "decide who plays first"}
	case PhaseDeal, PhaseDraw:
		k := g.drawCount()
		return engine.Need{Kind: engine.NeedRandom, Seat: g.turn, Seats: bothSeats(),
			Name: g.drawName(), Count: 1, Bound: fallingFactorial(len(g.seats[g.turn].deck), k)}.
			WithPrompt(drawPromptOf(k, g.turn))
	case PhaseDeploy:
		return engine.Need{Kind: engine.NeedMove, Seat: g.turn, Prompt: "deploy a card faceup to an ocean"}
	case PhasePlay:
		p := "play a card"
		if g.plays == 1 {
			p = "play a second card or attack"
			if g.mustAttack(g.turn) {
				p = "attack: every task force is full"
			}
		}
		return engine.Need{Kind: engine.NeedMove, Seat: g.turn, Prompt: p}
	case PhaseReveal:
		return engine.Need{Kind: engine.NeedOpen, Seat: other(g.turn), Open: slices.Clone(g.reveal),
			Prompt: "reveal the cards the special command names"}
	case PhaseBattle:
		return g.battleNeed()
	case PhaseFinal:
		return engine.Need{Kind: engine.NeedOpen, Seat: g.turn, Open: g.unopened(g.turn),
			Prompt: "reveal every remaining card"}
	}
	return engine.Need{Kind: engine.NeedNone, Seat: engine.NoSeat}
}

// drawName names the roll of the current deal or draw, "deal/1" or
// "draw/0": the phase and the seat on turn, as fmt's "%s/%d" writes them,
// without fmt (Next is asked several times for every input an audit
// replays).
func (g *Game) drawName() string {
	if g.phase == PhaseDeal || g.phase == PhaseDraw {
		if s := int(g.turn); s >= 0 && s < len(drawNames[g.phase]) {
			return drawNames[g.phase][s]
		}
	}
	return rollName(g.phase, g.turn)
}

// rollName is drawName's text for a phase and a seat.
func rollName(p Phase, s engine.Seat) string { return p.String() + "/" + strconv.Itoa(int(s)) }

// drawNames holds drawName's text for the deal and the draw of each seat,
// built once.
var drawNames = func() (n [PhaseDraw + 1][2]string) {
	for _, p := range []Phase{PhaseDeal, PhaseDraw} {
		for s := range n[p] {
			n[p][s] = rollName(p, engine.Seat(s))
		}
	}
	return n
}()

// drawPrompts holds the words of every deal's and draw's prompt (k cards
// for a seat, k at most FirstHand), built once, as drawName is, for Next.
var drawPrompts = func() (p [FirstHand + 1][2]engine.Words) {
	for k := range p {
		for s := range p[k] {
			p[k][s] = drawPrompt(k, engine.Seat(s))
		}
	}
	return p
}()

// drawPrompt is the prompt of a draw of k cards for seat s.
func drawPrompt(k int, s engine.Seat) engine.Words {
	return engine.Wordsf("draw %d cards for %s", k, s)
}

// drawPromptOf returns drawPrompt(k, s), from drawPrompts where it is there.
func drawPromptOf(k int, s engine.Seat) engine.Words {
	if k >= 0 && k < len(drawPrompts) && s >= 0 && int(s) < len(drawPrompts[k]) {
		return drawPrompts[k][s]
	}
	return drawPrompt(k, s)
}

// drawCount is how many cards the current deal or draw takes.
func (g *Game) drawCount() int {
	if g.phase == PhaseDeal {
		if g.turn == g.first {
			return FirstHand
		}
		return SecondHand
	}
	return min(DrawPerTurn, len(g.seats[g.turn].deck))
}

// fallingFactorial returns r·(r−1)·…·(r−k+1), the number of ordered ways to
// draw k of r leaves.
func fallingFactorial(r, k int) int {
	p := 1
	for i := range k {
		p *= r - i
	}
	return p
}

// unopened lists the slots of seat s whose value has not been opened.
func (g *Game) unopened(s engine.Seat) []engine.Slot {
	var out []engine.Slot
	for i, c := range g.seats[s].known {
		if c == NoCard {
			out = append(out, FleetSlot(s, i))
		}
	}
	return out
}

// Apply consumes one input. An input that does not fit the current need or
// breaks a rule returns an error wrapping [engine.ErrIllegal] (or an
// [*engine.Fault] naming the seat whose opened card breaks the rules) and
// leaves the match unchanged.
//
// It works on a copy, thrown away on error, unless the input is a
// commitment or a roll: applyCommit and applyRandom check everything
// before they change anything (TestIllegalInputsLeaveStateUnchanged
// tries inputs refused at each of their checks), so those, a third of the inputs an
// audit replays, go without the copy.
func (g *Game) Apply(in engine.Input) ([]engine.Event, error) {
	need := g.Next()
	if need.Kind == engine.NeedCommit || need.Kind == engine.NeedRandom {
		return g.apply(need, in)
	}
	c := g.clone()
	ev, err := c.apply(need, in)
	if err != nil {
		return nil, err
	}
	*g = *c
	return ev, nil
}

// apply applies in, which need (g.Next()) asks for.
func (g *Game) apply(need engine.Need, in engine.Input) ([]engine.Event, error) {
	if err := engine.CheckKind(need, in); err != nil {
		return nil, err
	}
	from := need.Seat
	if need.Kind == engine.NeedRandom {
		from = engine.NoSeat // joint values come from no single seat
	}
	if in.Seat != from {
		return nil, engine.Illegal("input from %s, the match needs %s", in.Seat, from)
	}
	var ev []engine.Event
	var err error
	switch need.Kind {
	case engine.NeedCommit:
		err = g.applyCommit(in)
	case engine.NeedRandom:
		ev, err = g.applyRandom(need, in.Random)
	case engine.NeedOpen:
		ev, err = g.applyOpen(need, in.Opened)
	case engine.NeedMove:
		ev, err = g.applyMove(in)
	}
	if err != nil {
		return nil, err
	}
	return g.advance(ev), nil
}

func (g *Game) applyCommit(in engine.Input) error {
	cm := in.Commitment
	switch {
	case cm == nil:
		return engine.Illegal("commit input carries no commitment")
	case cm.Owner != in.Seat:
		return engine.Illegal("commitment owned by %s, sent by %s", cm.Owner, in.Seat)
	case cm.Name != FleetName || cm.Size != DeckSize:
		return engine.Illegal("commitment %q of %d leaves, want %q of %d", cm.Name, cm.Size, FleetName, DeckSize)
	}
	g.seats[in.Seat].root = cm.Root
	if in.Seat == 0 {
		g.turn = 1
	} else {
		g.phase, g.turn = PhaseFirst, engine.NoSeat
	}
	return nil
}

func (g *Game) applyRandom(need engine.Need, vals []int) ([]engine.Event, error) {
	if len(vals) != need.Count {
		return nil, engine.Illegal("roll %q has %d values, want %d", need.Name, len(vals), need.Count)
	}
	for _, v := range vals {
		if v < 0 || v >= need.Bound {
			return nil, engine.Illegal("roll %q value %d outside [0, %d)", need.Name, v, need.Bound)
		}
	}
	if g.phase == PhaseFirst {
		g.first = engine.Seat(vals[0])
		g.phase, g.turn = PhaseDeal, g.first
		return []engine.Event{engine.Eventf(g.first, "first", "%s is player #1", g.first)}, nil
	}
	ev := g.draw(g.turn, g.drawCount(), vals[0])
	if g.phase == PhaseDeal {
		if g.turn == g.first {
			g.turn = other(g.first)
		} else {
			g.phase, g.turn, g.deployed = PhaseDeploy, g.first, 0
		}
		return ev, nil
	}
	g.phase, g.plays = PhasePlay, 0
	return ev, nil
}

// draw moves k leaves of seat s's deck to its hand, picked by v read in
// mixed radix: the first digit (v mod R) picks among the R remaining leaves
// in ascending order, the next (base R−1) among those left, and so on.
func (g *Game) draw(s engine.Seat, k, v int) []engine.Event {
	st := &g.seats[s]
	drawn := make([]int, 0, k)
	for range k {
		r := len(st.deck)
		d := v % r
		v /= r
		drawn = append(drawn, st.deck[d])
		st.deck = slices.Delete(st.deck, d, d+1)
	}
	st.hand = append(st.hand, drawn...)
	if len(st.deck) == 0 && g.phase == PhaseDraw {
		g.lastTurn = true
	}
	ev := []engine.Event{engine.Eventf(s, "draw", "%s draws %d (leaves %v), %d left", s, k, drawn, len(st.deck))}
	if g.lastTurn {
		ev = append(ev, engine.Eventf(s, "last-card", "%s drew its last card: the match ends with this turn", s))
	}
	return ev
}

// advance carries out every step that needs no input (a draw with only one
// outcome, the end of a turn, trivial battle decisions, empty reveals)
// until the match waits for an input.
func (g *Game) advance(ev []engine.Event) []engine.Event {
	for {
		switch g.phase {
		case PhaseDraw:
			st := &g.seats[g.turn]
			if len(st.deck) > DrawPerTurn {
				return ev
			}
			ev = append(ev, g.draw(g.turn, len(st.deck), 0)...)
			g.lastTurn = true
			g.phase, g.plays = PhasePlay, 0
		case PhasePlay:
			st := &g.seats[g.turn]
			switch {
			case g.plays >= 2,
				g.plays == 1 && st.surprised,
				len(st.hand) == 0 && (g.plays == 0 || len(g.attackOceans(g.turn)) == 0):
				ev = g.endTurn(ev)
			default:
				return ev
			}
		case PhaseBattle:
			var done bool
			if ev, done = g.advanceBattle(ev); !done {
				return ev
			}
		case PhaseFinal:
			if len(g.unopened(g.turn)) > 0 {
				return ev
			}
			ev = g.finalCheckDone(ev)
		default:
			return ev
		}
	}
}

// endTurn ends the turn of the seat on turn: its restrictions lapse, and
// the match ends if it drew its last card.
func (g *Game) endTurn(ev []engine.Event) []engine.Event {
	st := &g.seats[g.turn]
	st.blockaded = [NumOceans]bool{}
	st.surprised = false
	g.plays = 0
	if g.lastTurn {
		return g.endByDeck(ev)
	}
	g.turn = other(g.turn)
	g.phase = PhaseDraw
	return ev
}

// controlled counts the oceans seat s controls.
func (g *Game) controlled(s engine.Seat) int {
	n := 0
	for _, c := range g.control {
		if c == s {
			n++
		}
	}
	return n
}

// inPlay counts the oceans still on the table.
func (g *Game) inPlay() int { return g.controlled(engine.NoSeat) }

// endByDeck ends the match after the turn in which the seat on turn drew its
// last card: most oceans wins; a tie loses for that seat.
func (g *Game) endByDeck(ev []engine.Event) []engine.Event {
	s := g.turn
	mine, theirs := g.controlled(s), g.controlled(other(s))
	w, why := other(s), engine.Wordsf("%s's deck ran out with oceans tied %d-%d", s, mine, theirs)
	switch {
	case mine > theirs:
		w, why = s, engine.Wordsf("controls more oceans (%d-%d) when the deck ran out", mine, theirs)
	case mine < theirs:
		why = engine.Wordsf("controls more oceans (%d-%d) when the deck ran out", theirs, mine)
	}
	return g.finish(w, why, ev)
}

// finish decides the result and starts the end-of-match reveal.
func (g *Game) finish(w engine.Seat, why engine.Words, ev []engine.Event) []engine.Event {
	g.result = engine.Outcome{Winners: []engine.Seat{w}}.WithReason(why)
	g.phase, g.turn, g.plays = PhaseFinal, 0, 0
	return append(ev, engine.Eventf(w, "game-over", "%s wins: %s", w, why))
}

// Outcome reports the result. Done becomes true once the end-of-match
// reveal has been checked.
func (g *Game) Outcome() engine.Outcome {
	o := g.result
	o.Winners = slices.Clone(o.Winners)
	o.Done = g.phase == PhaseOver
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

// ownSlices gives the copy of a state its own copies of the slices it
// would otherwise share. It is never inlined so that clone stays small
// enough to inline, and Apply, which keeps its working copy to itself,
// builds it on its stack.
//
//go:noinline
func (g *Game) ownSlices() {
	for s := range g.seats {
		st := &g.seats[s]
		piles := [3 + NumOceans]*[]int{&st.deck, &st.hand, &st.discard}
		for o := range st.forces {
			piles[3+o] = &st.forces[o]
		}
		cloneInto(cloneRoom, piles[:]...)
	}
	g.reveal = slices.Clone(g.reveal)
	g.result.Winners = slices.Clone(g.result.Winners)
}

// cloneRoom is the room cloneInto leaves after each slice: as many
// elements as one input adds to a pile (a draw, a card played, a task
// force discarded adds more, and that append copies the pile elsewhere).
const cloneRoom = DrawPerTurn

// cloneInto copies every slice ss points to into one new array, each
// followed by room elements of its own for appends, in place of a new
// array per slice: Apply clones the state for every move an audit
// replays. A nil slice stays nil and an empty one empty; no slice's
// capacity reaches into another's copy, so an append past the room copies
// the slice elsewhere as with any full slice.
func cloneInto(room int, ss ...*[]int) {
	n := 0
	for _, s := range ss {
		if *s != nil {
			n += len(*s) + room
		}
	}
	buf := make([]int, n)
	for _, s := range ss {
		if *s == nil {
			continue
		}
		k := copy(buf, *s)
		*s, buf = buf[:k:k+room], buf[k+room:]
	}
}

// Hash is a digest of the whole public state.
func (g *Game) Hash() engine.Digest {
	h := engine.NewHasher("salvo/oceans/state/1")
	h.Int(int(g.phase)).Int(int(g.turn)).Int(int(g.first))
	for s := range g.seats {
		st := &g.seats[s]
		h.Digest(st.root).Ints(st.deck...).Ints(st.hand...).Ints(st.discard...)
		engine.Each(h, st.known[:])
		for o := range st.forces {
			h.Ints(st.forces[o]...).Bool(st.blockaded[o])
		}
		h.Bool(st.surprised)
	}
	for _, c := range g.control {
		h.Int(int(c))
	}
	h.Int(g.deployed).Int(g.plays).Bool(g.lastTurn)
	h.Int(len(g.reveal))
	for _, sl := range g.reveal {
		h.Int(int(sl.Owner)).String(sl.Name).Int(sl.Index)
	}
	if g.phase == PhaseBattle {
		b := &g.battle
		h.Int(int(b.ocean)).Int(int(b.attacker)).Int(int(b.step))
		f := &b.fight
		h.Int(f.turn).Int(f.mine)
		for s := range f.n {
			h.Int(f.n[s])
			for _, c := range f.side(s) {
				h.Int(c.leaf).Int(int(c.card))
			}
		}
	}
	h.Bool(g.result.Winners != nil).String(g.result.Reason)
	for _, w := range g.result.Winners {
		h.Int(int(w))
	}
	return h.Sum()
}
