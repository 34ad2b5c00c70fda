package seaview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
)

// DescribeMove puts a Mission Command Sea move into words.
func (v *View) DescribeMove(move []byte) string { return DescribeMove(move) }

// DescribeValue puts an opened strength or missile into words.
func (v *View) DescribeValue(slot engine.Slot, value []byte) string {
	return DescribeValue(slot, value)
}

// DescribeMove puts a move into words, such as "places its carrier with
// the bow at D4 facing S" or "destroyer 1 fires at fighter 3". Any bytes
// are accepted: a move that does not decode says so.
func DescribeMove(move []byte) string {
	m, err := sea.DecodeMove(move)
	if err != nil {
		return fmt.Sprintf("an undecodable move (%d bytes)", len(move))
	}
	cell := func(c *sea.Cell) string {
		if c == nil {
			return "?"
		}
		return c.String()
	}
	switch m.Kind {
	case sea.KindPlace:
		switch {
		case m.Piece == sea.PieceShallow:
			return fmt.Sprintf("places a shallow with its island at %s (top-left)", cell(m.Cell))
		case m.Facing != nil:
			return fmt.Sprintf("places a %s with the bow at %s facing %s", m.Piece, cell(m.Cell), *m.Facing)
		}
		return fmt.Sprintf("places a %s at %s", m.Piece, cell(m.Cell))
	case sea.KindHarpoon:
		return fmt.Sprintf("moves Harpoon %d first", m.Harpoon)
	case sea.KindPath:
		if len(m.Path) == 0 {
			return "lets the Harpoon run out (no path)"
		}
		return fmt.Sprintf("steers the Harpoon %s (%s)", pathText(m.Path), spaces(len(m.Path)))
	case sea.KindReturn:
		if len(m.Fighters) == 0 {
			return "returns no fighter"
		}
		return fmt.Sprintf("returns fighters %s to the carrier", ints(m.Fighters))
	case sea.KindScramble:
		if len(m.Flights) == 0 {
			return "scrambles no fighter"
		}
		parts := make([]string, len(m.Flights))
		for i, f := range m.Flights {
			end := "?"
			if len(f.Path) > 0 {
				end = f.Path[len(f.Path)-1].String()
			}
			parts[i] = fmt.Sprintf("fighter %d to %s with die %d (%s)", f.Fighter, end, f.Die+1, spaces(len(f.Path)))
		}
		return "scrambles " + strings.Join(parts, "; ")
	case sea.KindMove:
		return fmt.Sprintf("moves destroyer %d %s", m.Destroyer, pathText(m.Path))
	case sea.KindFire:
		t := "nothing"
		if m.Target != nil {
			t = shortTarget(*m.Target)
		}
		return fmt.Sprintf("destroyer %d fires at %s", m.Destroyer, t)
	case sea.KindDone:
		return "is done (declines the rest of the step)"
	case sea.KindRemove:
		return fmt.Sprintf("removes fighters %s from the deck", ints(m.Fighters))
	case sea.KindFighter:
		return fmt.Sprintf("sends fighter %d into the dogfight", m.Fighter)
	case sea.KindSidewinder:
		if m.Use == sea.UseReroll {
			return fmt.Sprintf("launches its Sidewinder to roll die %d again", m.Die+1)
		}
		return "launches its Sidewinder to add one to its best die"
	case sea.KindLaunch:
		return fmt.Sprintf("fighter %d launches its Harpoon", m.Fighter)
	}
	return fmt.Sprintf("a %q move", m.Kind)
}

// DescribeValue puts an opened value into words: a fighter's strength, or
// the missile a fighter took off with. Any bytes are accepted.
func DescribeValue(slot engine.Slot, value []byte) string {
	switch {
	case slot.Name == sea.StrengthsName:
		s, err := sea.DecodeStrength(value)
		if err != nil {
			return fmt.Sprintf("fighter %d's strength leaf holds %q, not 2-4", slot.Index, value)
		}
		return fmt.Sprintf("fighter %d has strength %d", slot.Index, s)
	case strings.HasPrefix(slot.Name, "load/"):
		m, err := sea.DecodeMissile(value)
		if err != nil {
			return fmt.Sprintf("missile %s holds %q, not S or H", slot.Name, value)
		}
		return fmt.Sprintf("missile %s is a %s", slot.Name, m)
	}
	return fmt.Sprintf("%s = %q", slot, value)
}

// pathText renders a path as "via D5, D6 to D7".
func pathText(p []sea.Cell) string {
	if len(p) == 0 {
		return "nowhere"
	}
	end := "to " + p[len(p)-1].String()
	if len(p) == 1 {
		return end
	}
	via := make([]string, len(p)-1)
	for i, c := range p[:len(p)-1] {
		via[i] = c.String()
	}
	return "via " + strings.Join(via, ", ") + " " + end
}

// ints renders fighter indices as "1, 4".
func ints(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ", ")
}

// spaces renders a count of spaces: "1 space", "3 spaces".
func spaces(n int) string { return count(n, "space") }

// count renders a count of things: "1 fighter", "3 fighters".
func count(n int, word string) string { return fmt.Sprintf("%d %s", n, plural(n, word)) }

// plural returns word for one, word+"s" for any other count.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
