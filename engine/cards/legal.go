package cards

import (
	"github.com/salvo-game/salvo/engine"
)

// HandFaces returns the faces of seat's hand cards as its secrets show them,
// in hand order; a card the secrets do not know is NoFace.
func (g *Game) HandFaces(seat engine.Seat, sec engine.Secrets) []Face {
	hand := g.Hand(seat)
	out := make([]Face, len(hand))
	for i, c := range hand {
		if v, ok := sec.Value(cardSlot(seat, c)); ok {
			if f, err := DecodeCard(v); err == nil {
				out[i] = f
			}
		}
	}
	return out
}

// LegalMoves lists the moves seat may make now, given its secrets (the
// faces of its hand). Cards of the same face are interchangeable, so each
// face appears once (played from its first card in hand order), and
// "Discard white peg cards" appears once per number of white cards
// discarded. It returns nil when the match needs no move from seat.
func (g *Game) LegalMoves(seat engine.Seat, sec engine.Secrets) []Move {
	if g.Next().Kind != engine.NeedMove || g.seat != seat {
		return nil
	}
	if g.step == stStart {
		out := []Move{{Action: Skip}}
		for _, m := range g.repairs(seat) {
			m.Action = PTRepair
			out = append(out, m)
		}
		return out
	}
	hand := g.Hand(seat)
	faces := g.HandFaces(seat, sec)
	var whites []CardRef
	for i, f := range faces {
		if f == White {
			whites = append(whites, hand[i])
		}
	}
	var out []Move
	var seen [NumFaces]bool
	for i, c := range hand {
		f := faces[i]
		if !f.Valid() || seen[f] {
			continue
		}
		if g.mustFrom != nil && !containsRef(g.mustFrom, c) {
			continue
		}
		seen[f] = true
		out = append(out, g.uses(seat, c, f, whites)...)
	}
	return out
}

// uses lists the moves playing card c of face f.
func (g *Game) uses(seat engine.Seat, c CardRef, f Face, whites []CardRef) []Move {
	opp := other(seat)
	var out []Move
	switch {
	case f.IsPeg():
		for pos, leaf := range g.players[opp].grid {
			if leaf < 0 {
				out = append(out, Move{Action: Tap, Card: c, Face: f, Pos: pos})
			}
		}
		for _, k := range Ships {
			if g.afloat(opp, k) && (f.IsRed() || g.whiteDamages(seat, k)) {
				out = append(out, Move{Action: Attack, Card: c, Face: f, Ship: k})
			}
		}
	case f == ShieldCard:
		for _, k := range Ships {
			if g.afloat(seat, k) && !g.players[seat].ships[k].shield {
				out = append(out, Move{Action: PlaceShield, Card: c, Face: f, Ship: k})
			}
		}
	case f == DiscardPlay:
		out = append(out, Move{Action: PlayTwo, Card: c, Face: f})
		for n := 1; n <= len(whites); n++ {
			out = append(out, Move{Action: DiscardWhite, Card: c, Face: f, Discard: append([]CardRef(nil), whites[:n]...)})
		}
	case f == RepairDraw:
		out = append(out, Move{Action: Draw3, Card: c, Face: f})
		for _, m := range g.repairs(seat) {
			m.Action, m.Card, m.Face = Repair, c, f
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		out = append(out, Move{Action: DiscardDead, Card: c, Face: f})
	}
	return out
}

// repairs lists the peg cards seat could remove from its own ships, one
// per distinct face on each ship (Ship and Peg set).
func (g *Game) repairs(seat engine.Seat) []Move {
	var out []Move
	for _, k := range Ships {
		if !g.afloat(seat, k) {
			continue
		}
		var seen [NumFaces]bool
		for i, f := range g.players[seat].ships[k].pegs {
			if !seen[f] {
				seen[f] = true
				out = append(out, Move{Ship: k, Peg: i})
			}
		}
	}
	return out
}

func containsRef(rs []CardRef, c CardRef) bool {
	for _, r := range rs {
		if r == c {
			return true
		}
	}
	return false
}
