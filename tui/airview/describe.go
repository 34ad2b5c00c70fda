package airview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
)

// DescribeMove puts a move of a turn into words.
func (v *View) DescribeMove(move []byte) string { return DescribeMove(move) }

// DescribeValue puts an opened card or card choice into words.
func (v *View) DescribeValue(slot engine.Slot, value []byte) string {
	return DescribeValue(slot, value)
}

// planeName names plane id without a game: 2·seat is the seat's F-35.
func planeName(id int) string {
	if id < 0 || id >= 2*len(air.Squadron) {
		return fmt.Sprintf("plane %d", id)
	}
	k := air.F35
	if id%2 == 1 {
		k = air.F22
	}
	return fmt.Sprintf("%s %s", air.Squadron[id/2], k)
}

// DescribeMove puts a move of a turn into words, such as "fires a missile
// at the Fire F-22" or "joins its wingman at (40,35)".
func DescribeMove(move []byte) string {
	var m air.Move
	if err := engine.DecodeMove(move, &m); err != nil {
		return fmt.Sprintf("an undecodable move (%d bytes)", len(move))
	}
	target := "no plane"
	if m.Target != nil {
		target = "the " + planeName(*m.Target)
	}
	switch m.Action {
	case air.ActMove:
		return "flies its card's maneuver"
	case air.ActWingman:
		if m.To == nil {
			return "makes a wingman move to no space"
		}
		return "joins its wingman at " + m.To.String()
	case air.ActDisrupt:
		return "disrupts " + target
	case air.ActFire:
		article := "a "
		if m.Weapon == air.Cannon.String() {
			article = ""
		}
		return fmt.Sprintf("fires %s%s at %s", article, m.Weapon, target)
	case air.ActEnd:
		return "holds its fire and ends the turn"
	case air.ActBonus:
		if m.Bonus {
			return "takes the F-35's +1 space"
		}
		return "refuses the F-35's +1 space"
	}
	return fmt.Sprintf("an unknown action %q", m.Action)
}

// DescribeValue puts an opened Navigation card or an opened card choice
// into words, such as "nav[12] is card #34, wingman ↗4" or "Blue's
// choice: the Blue F-35 plays nav[3], the Blue F-22 plays nav[17]".
func DescribeValue(slot engine.Slot, value []byte) string {
	if slot.Owner == engine.NoSeat {
		ref := fmt.Sprintf("%s[%d]", slot.Name, slot.Index)
		if len(value) != 1 {
			return fmt.Sprintf("%s holds %d bytes, not a card", ref, len(value))
		}
		c, ok := air.CardByNumber(int(value[0]))
		if !ok {
			return fmt.Sprintf("%s holds %d, not a card number", ref, value[0])
		}
		return fmt.Sprintf("%s is card %s", ref, cardWords(c))
	}
	if strings.HasPrefix(slot.Name, "choice/") {
		var ch air.Choice
		if err := engine.DecodeMove(value, &ch); err != nil {
			return fmt.Sprintf("an undecodable card choice (%d bytes)", len(value))
		}
		who := slot.Owner.String()
		if slot.Owner >= 0 && int(slot.Owner) < len(air.Squadron) {
			who = air.Squadron[slot.Owner]
		}
		var parts []string
		for _, pc := range ch.Cards {
			parts = append(parts, fmt.Sprintf("the %s plays %s", planeName(pc.Plane), air.CardRef{Deck: pc.Deck, Pos: pc.Pos}))
		}
		if len(parts) == 0 {
			parts = []string{"no card"}
		}
		return fmt.Sprintf("%s's choice: %s", who, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%s = %x", slot, value)
}
