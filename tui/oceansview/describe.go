package oceansview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
)

// DescribeMove puts a move into words, for the verification log.
func (v *View) DescribeMove(move []byte) string { return DescribeMove(move) }

// DescribeValue puts an opened fleet card into words.
func (v *View) DescribeValue(slot engine.Slot, value []byte) string {
	return DescribeValue(slot, value)
}

// DescribeMove puts an ocean-card move into words, such as "plays fleet
// card 12 facedown to the Pacific" or "attacks in the Indian".
func DescribeMove(move []byte) string {
	m, err := oceans.DecodeMove(move)
	if err != nil {
		return fmt.Sprintf("an undecodable move (%d bytes)", len(move))
	}
	switch m.Kind {
	case oceans.Deploy:
		return fmt.Sprintf("deploys fleet card %d faceup to the %s", m.Leaf, m.Ocean)
	case oceans.Place:
		return fmt.Sprintf("plays fleet card %d facedown to the %s", m.Leaf, m.Ocean)
	case oceans.Discard:
		what := fmt.Sprintf("discards fleet card %d for its special command", m.Leaf)
		if len(m.Targets) > 0 {
			ts := make([]string, len(m.Targets))
			for i, t := range m.Targets {
				ts[i] = fmt.Sprint(t)
			}
			what += " on the opponent's fleet card(s) " + strings.Join(ts, " and ")
		} else if m.Ocean != 0 {
			what += " (ocean: the " + m.Ocean.String() + ")"
		}
		return what
	case oceans.Attack:
		return "attacks in the " + m.Ocean.String()
	case oceans.Zero:
		return fmt.Sprintf("plays its zero-valued fleet card %d in battle", m.Leaf)
	case oceans.Target:
		return fmt.Sprintf("picks fleet card %d as the Minefield's target", m.Leaf)
	}
	return string(m.Kind)
}

// DescribeValue puts an opened fleet card into words, such as "an
// Aircraft Carrier"; the verification log and the cheat panel name the slot
// (fleet[12]) before it.
func DescribeValue(slot engine.Slot, value []byte) string {
	if slot.Name != oceans.FleetName {
		return fmt.Sprintf("the value %x", value)
	}
	c, err := oceans.DecodeCard(value)
	if err != nil {
		return fmt.Sprintf("%x, which is no fleet card", value)
	}
	return article(c.String()) + " " + c.String()
}

// article returns "an" before a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
