package cardsview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
)

// DescribeMove puts a move into words, for the verification log.
func (v *View) DescribeMove(move []byte) string { return DescribeMove(move) }

// DescribeValue puts an opened coordinate card or deck card into words.
func (v *View) DescribeValue(slot engine.Slot, value []byte) string {
	return DescribeValue(slot, value)
}

// DescribeMove puts a coordinate-card move into words, such as "taps B3
// with a red 2-peg card" or "puts a Shield on its Destroyer".
func DescribeMove(move []byte) string {
	m, err := cards.DecodeMove(move)
	if err != nil {
		return fmt.Sprintf("an undecodable move (%d bytes)", len(move))
	}
	return describeMove(m)
}

// describeMove puts a decoded move into words.
func describeMove(m cards.Move) string {
	card := faceWords(m.Face)
	switch m.Action {
	case cards.Tap:
		return fmt.Sprintf("taps %s with %s (%s)", cards.PosName(m.Pos), card, refWords(m.Card))
	case cards.Attack:
		return fmt.Sprintf("plays %s (%s) on the %s", card, refWords(m.Card), m.Ship.Title())
	case cards.PlaceShield:
		return fmt.Sprintf("puts a Shield (%s) on its %s", refWords(m.Card), m.Ship.Title())
	case cards.DiscardWhite:
		refs := make([]string, len(m.Discard))
		for i, c := range m.Discard {
			refs[i] = refWords(c)
		}
		return fmt.Sprintf(`plays "Discard white peg cards" (%s): discards %d white peg card(s) (%s)`, refWords(m.Card), len(m.Discard), strings.Join(refs, ", "))
	case cards.PlayTwo:
		return fmt.Sprintf(`plays "Play 2 more cards" (%s)`, refWords(m.Card))
	case cards.Repair:
		return fmt.Sprintf(`plays "Repair a ship" (%s): takes peg card %d off its %s, then plays a card`, refWords(m.Card), m.Peg+1, m.Ship.Title())
	case cards.Draw3:
		return fmt.Sprintf(`plays "Draw 3 cards, then play one" (%s)`, refWords(m.Card))
	case cards.DiscardDead:
		return fmt.Sprintf("discards %s (%s) it cannot use", card, refWords(m.Card))
	case cards.PTRepair:
		return fmt.Sprintf("uses its PT Boat to take peg card %d off its %s", m.Peg+1, m.Ship.Title())
	case cards.Skip:
		return "declines the PT Boat repair"
	}
	return m.String()
}

// DescribeValue puts an opened value into words, such as "the Submarine"
// or "a red 2-peg card"; the verification log and the cheat panel name the
// slot (coords[7], deck/1[7]) before it.
func DescribeValue(slot engine.Slot, value []byte) string {
	if slot.Name == cards.CoordsName {
		k, err := cards.DecodeCoord(value)
		switch {
		case err != nil:
			return fmt.Sprintf("%x, which is no coordinate card", value)
		case k == cards.NoShip:
			return "a miss card"
		}
		return "the " + k.Title()
	}
	if strings.HasPrefix(slot.Name, "deck/") {
		f, err := cards.DecodeCard(value)
		if err != nil {
			return fmt.Sprintf("%x, which is no card", value)
		}
		return faceWords(f)
	}
	return fmt.Sprintf("the value %x", value)
}
