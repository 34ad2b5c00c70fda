package air

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// The variants (the first is the default).
const (
	// VariantStandard is the 2-player game, and with 3 or 4 players the
	// free-for-all (text: the 3-4 player game is a free-for-all).
	VariantStandard = "standard"
	// VariantFreeForAll is the 3-4 player free-for-all: the last player
	// with a plane wins.
	VariantFreeForAll = "ffa"
	// VariantTeam is the 4-player team game: Fire and Eagle against Blue
	// and Tiger; the first team to eliminate a squadron of the other wins.
	VariantTeam = "team"
	// VariantMaxDamage is the maximum-damage game: planes cannot fly through
	// each other; a plane that would enter an occupied space stops before
	// it and both planes roll for damage. 2 to 4 players, free-for-all
	// beyond two.
	VariantMaxDamage = "maxdamage"
)

var variants = []string{VariantStandard, VariantFreeForAll, VariantTeam, VariantMaxDamage}

// Spec describes Mission Command Air to the rest of the program.
var Spec = engine.Spec{
	Name:     "air",
	Title:    "Mission Command Air",
	Rules:    "air/1",
	Variants: variants,
	MinSeats: 2,
	MaxSeats: 4,
	New:      engine.NewFunc(New),
}

// New starts a match: planes on their start spaces, and the first need is
// the shuffle of the Navigation deck.
func New(s engine.Setup) (*Game, error) {
	v := s.Variant
	if v == "" {
		v = VariantStandard
	}
	switch v {
	case VariantStandard, VariantMaxDamage:
		if s.Seats < 2 || s.Seats > 4 {
			return nil, engine.Illegal("air %s: %d seats: want 2 to 4", v, s.Seats)
		}
	case VariantFreeForAll:
		if s.Seats < 3 || s.Seats > 4 {
			return nil, engine.Illegal("air %s: %d seats: want 3 or 4", v, s.Seats)
		}
	case VariantTeam:
		if s.Seats != 4 {
			return nil, engine.Illegal("air %s: %d seats: want 4", v, s.Seats)
		}
	default:
		return nil, engine.Illegal("air: unknown variant %q (want one of %v)", s.Variant, variants)
	}
	g := &Game{
		variant: v,
		seats:   s.Seats,
		team:    v == VariantTeam,
		collide: v == VariantMaxDamage,
		hands:   make([][]CardRef, s.Seats),
		phase:   phShuffle,
		round:   1,
	}
	for seat := range s.Seats {
		st := startSpaces[seat]
		g.planes = append(g.planes,
			Plane{ID: 2 * seat, Seat: engine.Seat(seat), Kind: F35, Pos: st.f35, Heading: st.heading, Missiles: F35Missiles},
			Plane{ID: 2*seat + 1, Seat: engine.Seat(seat), Kind: F22, Pos: st.f22, Heading: st.heading, Missiles: F22Missiles})
	}
	return g, nil
}

// Outcome reports the result.
func (g *Game) Outcome() engine.Outcome {
	o := g.outcome
	o.Winners = slices.Clone(o.Winners)
	return o
}

// flyingSeats lists the seats that still have a plane: the contributors of
// every joint roll and shuffle. A shot-down squadron's leader is out of the
// game, so nothing may wait for it (issue 14 point 18); with every seat
// flying this is all seats, as before, so matches without an elimination
// are recorded exactly as they were.
func (g *Game) flyingSeats() []engine.Seat {
	var s []engine.Seat
	for i := range g.seats {
		if g.seatAlive(i) {
			s = append(s, engine.Seat(i))
		}
	}
	return s
}

// Out reports whether seat has lost both planes: it is out of the game, and
// the engine asks it for nothing more ([engine.Outer]).
func (g *Game) Out(seat engine.Seat) bool {
	return seat >= 0 && int(seat) < g.seats && !g.seatAlive(int(seat))
}

// openPrompt is what a NeedOpen asks.
const openPrompt = "turn over the chosen cards"

// Next reports what the game needs next.
func (g *Game) Next() engine.Need {
	switch g.phase {
	case phShuffle:
		name, cards := g.nextShuffle()
		n := engine.Need{Kind: engine.NeedShuffle, Seat: engine.NoSeat, Seats: g.flyingSeats(), Name: name, Size: len(cards),
			Prompt: "shuffle the Navigation deck"}
		if len(g.decks) > 0 {
			n.Prompt = "shuffle the discard pile into a new draw pile"
			for _, c := range cards {
				n.Open = append(n.Open, c.Card.Slot())
			}
		}
		return n
	case phDeal:
		seat := engine.Seat(g.cursor)
		return engine.Need{Kind: engine.NeedDeal, Seat: seat, Name: DeckNameOf(len(g.decks)), Count: g.dealCount(g.cursor),
			Prompt: fmt.Sprintf("deal %s's hand up to %d", Squadron[seat], HandSize)}
	case phChoice:
		return engine.Need{Kind: engine.NeedChoice, Seat: engine.NoSeat, Seats: slices.Clone(g.choosers),
			Name: fmt.Sprintf("choice/%d", g.round), Prompt: "choose a card for each plane"}
	case phOpen:
		seat := g.choosers[g.cursor]
		return engine.Need{Kind: engine.NeedOpen, Seat: seat, Open: g.openSlots(seat), Prompt: openPrompt}
	case phTurn:
		return g.turnNeed()
	}
	return engine.Need{Kind: engine.NeedNone, Seat: engine.NoSeat}
}

// MustOpen lists the slots a move must open: none, since a played card is
// opened by its own NeedOpen. It rejects a move that does not decode.
func (g *Game) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	var m Move
	if err := engine.DecodeMove(move, &m); err != nil {
		return nil, fmt.Errorf("air: %w", err)
	}
	return nil, nil
}

// Apply consumes one input. An input that does not fit the need or breaks a
// rule returns an error and leaves the game unchanged.
func (g *Game) Apply(in engine.Input) ([]engine.Event, error) {
	need := g.Next()
	if err := engine.CheckKind(need, in); err != nil {
		return nil, err
	}
	// Work on a copy so that a failure anywhere changes nothing.
	w := g.clone()
	var ev events
	var err error
	switch need.Kind {
	case engine.NeedShuffle:
		err = w.applyShuffle(&ev, need)
	case engine.NeedDeal:
		err = w.applyDeal(&ev, need, in)
	case engine.NeedChoice:
		err = w.applyChoice(&ev, need, in)
	case engine.NeedOpen:
		err = w.applyOpen(&ev, need, in)
	case engine.NeedRandom:
		err = w.applyRandom(&ev, need, in)
	case engine.NeedMove:
		err = w.applyMove(&ev, need, in)
	default:
		err = engine.Illegal("unexpected %s input", in.Kind)
	}
	if err != nil {
		return nil, err
	}
	*g = *w
	return ev.list, nil
}

// events collects what happened during one Apply.
type events struct{ list []engine.Event }

func (e *events) add(seat engine.Seat, kind, format string, args ...any) {
	e.list = append(e.list, engine.Eventf(seat, kind, format, args...))
}

// ForfeitOutcome is who wins when seat forfeits ([engine.Forfeiter]). In
// the team game a forfeit counts as the forfeiter's squadron eliminated, so
// the other team wins and the forfeiter's teammate loses with it (text: the
// first team to eliminate one enemy squadron wins). In a free-for-all of
// three or four a departure does not end the match: the seat is taken off
// the table and the rest play on (Remove, leave.go); a forfeit is recorded
// there only when nobody could sequence the removal (its claimant gone
// too), and then the squadrons still flying share the win, one already shot
// down winning nothing. With two players the other one wins.
func (g *Game) ForfeitOutcome(seat engine.Seat) engine.Outcome {
	var win []engine.Seat
	reason := ""
	for s := range g.seats {
		switch {
		case engine.Seat(s) == seat:
		case g.team:
			if Team(s) != Team(int(seat)) {
				win = append(win, engine.Seat(s))
			}
		case g.seatAlive(s):
			win = append(win, engine.Seat(s))
		}
	}
	switch {
	case g.team:
		reason = "a forfeit counts as its squadron eliminated: the other team wins"
	case g.seats > 2:
		reason = "the match ends at a forfeit: the squadrons still flying share the win"
	}
	return engine.Outcome{Done: true, Winners: win, Draw: len(win) == 0, Reason: reason}
}
