package ubuildview

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
)

// DescribeMove puts a Fire or Answer move into words.
func (v *View) DescribeMove(move []byte) string { return DescribeMove(move) }

// DescribeValue puts an opened grid cell or weapon count into words.
func (v *View) DescribeValue(slot engine.Slot, value []byte) string {
	return DescribeValue(slot, value)
}

// DescribeMove puts a Fire or Answer move into words, such as "Carrier
// fires at C-4, D-5" or "C-4 miss, D-5 hit Carrier".
func DescribeMove(move []byte) string {
	if ship, shots, err := ubuild.DecodeFire(move); err == nil {
		names := make([]string, len(shots))
		for i, c := range shots {
			names[i] = c.String()
		}
		who := "fires"
		if ship != ubuild.NoShip {
			who = ship.Name() + " fires"
		}
		return fmt.Sprintf("%s at %s", who, strings.Join(names, ", "))
	}
	if rs, err := ubuild.DecodeAnswer(move); err == nil {
		parts := make([]string, len(rs))
		for i, r := range rs {
			parts[i] = r.Cell.String() + " " + r.Result.String()
			if r.Ship != ubuild.NoShip {
				parts[i] += " " + r.Ship.Name()
			}
		}
		return "answers " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("an undecodable move (%d bytes)", len(move))
}

// DescribeValue puts an opened grid cell or weapon count into words, such as
// "C-4 holds the Aircraft Carrier" or "C-4 is water".
func DescribeValue(slot engine.Slot, value []byte) string {
	switch slot.Name {
	case ubuild.GridName:
		c := ubuild.Cell(slot.Index)
		if len(value) != 1 || value[0] > ubuild.NumShips {
			return fmt.Sprintf("%s holds %v, not a cell value", c, value)
		}
		if value[0] == 0 {
			return fmt.Sprintf("%s is water", c)
		}
		return fmt.Sprintf("%s holds the %s", c, ubuild.Ship(value[0]-1).Name())
	case ubuild.WeaponsName:
		s := ubuild.Ship(slot.Index)
		if len(value) != 1 {
			return fmt.Sprintf("%s weapons: %v", s.Name(), value)
		}
		return fmt.Sprintf("the %s carries %d weapons", s.Name(), value[0])
	}
	return fmt.Sprintf("%s = %x", slot, value)
}
