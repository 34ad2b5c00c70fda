package air

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Variant returns the variant being played.
func (g *Game) Variant() string { return g.variant }

// Seats returns the number of players.
func (g *Game) Seats() int { return g.seats }

// Round returns the current round, from 1.
func (g *Game) Round() int { return g.round }

// Teams reports whether this is the team game.
func (g *Game) Teams() bool { return g.team }

// Collisions reports whether planes collide (the maximum-damage game).
func (g *Game) Collisions() bool { return g.collide }

// Opposes reports whether seats a and b are opponents (in the team game,
// teammates are not).
func (g *Game) Opposes(a, b engine.Seat) bool { return g.opposes(a, b) }

// Planes returns every plane, shot down or not, by ID: the board (Pos,
// Heading) and the squadron boards (Damage, Missiles).
func (g *Game) Planes() []Plane { return slices.Clone(g.planes) }

// PlaneByID returns plane id.
func (g *Game) PlaneByID(id int) (Plane, bool) {
	if id < 0 || id >= len(g.planes) {
		return Plane{}, false
	}
	return g.planes[id], true
}

// Hand returns the cards in seat's hand (where they lie in the deck; only
// the seat itself reads their numbers, through its engine.Secrets and
// [CardRef.Slot]).
func (g *Game) Hand(seat engine.Seat) []CardRef {
	if seat < 0 || int(seat) >= g.seats {
		return nil
	}
	return slices.Clone(g.hands[seat])
}

// HandCards reads the numbers of seat's hand from its secrets, in hand
// order; a card the secrets do not know is left out.
func (g *Game) HandCards(seat engine.Seat, sec engine.Secrets) []HandCard {
	var out []HandCard
	for _, ref := range g.Hand(seat) {
		if c, ok := cardFromSecrets(sec, ref); ok {
			out = append(out, HandCard{Ref: ref, Card: c})
		}
	}
	return out
}

// HandCard is a card of a hand with its face, as its holder sees it.
type HandCard struct {
	Ref  CardRef
	Card Card
}

func cardFromSecrets(sec engine.Secrets, ref CardRef) (Card, bool) {
	if sec == nil {
		return Card{}, false
	}
	v, ok := sec.Value(ref.Slot())
	if !ok || len(v) != 1 {
		return Card{}, false
	}
	return CardByNumber(int(v[0]))
}

// DrawPile returns the name of the current draw pile and how many cards it
// has left.
func (g *Game) DrawPile() (name string, left int) {
	if len(g.decks) == 0 {
		return DeckName, DeckSize
	}
	return DeckNameOf(len(g.decks)), g.remaining()
}

// NextCard returns the next card of the draw pile, the first that the
// current NeedDeal deals (cards are dealt in deck order from position 0).
func (g *Game) NextCard() (CardRef, bool) {
	if g.remaining() == 0 {
		return CardRef{}, false
	}
	return CardRef{Deck: len(g.decks), Pos: g.decks[len(g.decks)-1].next}, true
}

// DiscardPile returns the discard pile, oldest first, every card face up.
func (g *Game) DiscardPile() []Played { return slices.Clone(g.discard) }

// OutOfPlay returns how many cards left play unrevealed with the hands of
// eliminated squadrons (house).
func (g *Game) OutOfPlay() int { return g.outOfPlay }

// Chosen returns this round's chosen cards: face down (Number 0) in seat
// order while being turned over, then face up in turn order.
func (g *Game) Chosen() []Played { return slices.Clone(g.order) }

// ActiveTurn describes the plane acting now.
type ActiveTurn struct {
	Index     int  // position in Chosen
	Plane     int  // plane ID
	Card      Card // its card
	Moved     bool // its own move is done
	Disrupted bool // the disruption move is done (true for other cards)
	Fired     bool // it fired this turn
}

// Active returns the turn in progress, if a plane is acting.
func (g *Game) Active() (ActiveTurn, bool) {
	if g.phase != phTurn {
		return ActiveTurn{}, false
	}
	t := g.ts
	return ActiveTurn{Index: t.index, Plane: t.plane, Card: t.card, Moved: t.moved, Disrupted: t.disrupted, Fired: t.fired}, true
}

// Cone returns the spaces plane id could hit with weapon w from where it is
// now (no looping), in row-major order.
func (g *Game) Cone(id int, w Weapon) []Pos {
	p, ok := g.PlaneByID(id)
	if !ok || p.Down {
		return nil
	}
	var out []Pos
	for y := range Rows {
		for x := range Columns {
			if q := (Pos{x, y}); InCone(p.Pos, p.Heading, q, w) {
				out = append(out, q)
			}
		}
	}
	return out
}

// LegalMoves lists every legal Move for the current NeedMove (nil when the
// game waits for something else).
func (g *Game) LegalMoves() []Move {
	if g.phase != phTurn || g.Next().Kind != engine.NeedMove {
		return nil
	}
	var cands []Move
	if g.pend.kind == pendBonus {
		cands = []Move{BonusMove(false), BonusMove(true)}
	} else {
		cands = append(cands, PlainMove(ActMove), PlainMove(ActEnd))
		for _, p := range g.planes {
			cands = append(cands, DisruptMove(p.ID), FireMove(Missile, p.ID), FireMove(Cannon, p.ID))
		}
		mate := g.planes[g.ts.plane^1]
		for h := range Heading(8) {
			to := mate.Pos
			to.X += h.Delta().X
			to.Y += h.Delta().Y
			cands = append(cands, WingmanMove(to))
		}
	}
	var out []Move
	for _, m := range cands {
		if g.checkMove(m) == nil {
			out = append(out, m)
		}
	}
	return out
}
