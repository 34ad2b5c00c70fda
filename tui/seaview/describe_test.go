package seaview

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
)

func TestDescribeMove(t *testing.T) {
	c := func(s string) sea.Cell { return cell(t, s) }
	tests := []struct {
		move sea.Move
		want string
	}{
		{sea.PlaceMove(sea.PieceCarrier, c("D4"), sea.South), "places a carrier with the bow at D4 facing S"},
		{sea.PlaceMove(sea.PieceShallow, c("J2"), sea.North), "places a shallow with its island at J2 (top-left)"},
		{sea.HarpoonMove(3), "moves Harpoon 3 first"},
		{sea.PathMove([]sea.Cell{c("D5"), c("D6"), c("D7")}), "steers the Harpoon via D5, D6 to D7 (3 spaces)"},
		{sea.PathMove(nil), "lets the Harpoon run out (no path)"},
		{sea.ReturnMove([]int{1, 4}), "returns fighters 1, 4 to the carrier"},
		{sea.ReturnMove(nil), "returns no fighter"},
		{sea.ScrambleMove([]sea.Flight{{Fighter: 2, Die: 0, Path: []sea.Cell{c("D5"), c("D6")}}}), "scrambles fighter 2 to D6 with die 1 (2 spaces)"},
		{sea.DestroyerMove(1, []sea.Cell{c("F5")}), "moves destroyer 1 to F5"},
		{sea.FireMove(0, sea.Target{Kind: sea.TargetFighter, Index: 3}), "destroyer 0 fires at fighter 3"},
		{sea.FireMove(1, sea.Target{Kind: sea.TargetCarrier}), "destroyer 1 fires at carrier"},
		{sea.DoneMove(), "is done (declines the rest of the step)"},
		{sea.RemoveMove([]int{0, 5}), "removes fighters 0, 5 from the deck"},
		{sea.FighterMove(6), "sends fighter 6 into the dogfight"},
		{sea.SidewinderPlus(), "launches its Sidewinder to add one to its best die"},
		{sea.SidewinderReroll(2), "launches its Sidewinder to roll die 3 again"},
		{sea.LaunchMove(4), "fighter 4 launches its Harpoon"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := DescribeMove(tc.move.Encode()); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got := DescribeMove([]byte(`{"kind":"fly"`)); got != "an undecodable move (13 bytes)" {
		t.Fatalf("garbage: %q", got)
	}
}

func TestDescribeValue(t *testing.T) {
	tests := []struct {
		slot  engine.Slot
		value string
		want  string
	}{
		{sea.StrengthSlot(1, 3), "4", "fighter 3 has strength 4"},
		{sea.StrengthSlot(1, 3), "7", `fighter 3's strength leaf holds "7", not 2-4`},
		{engine.Slot{Owner: 0, Name: sea.LoadName(5)}, "H", "missile load/5 is a Harpoon"},
		{engine.Slot{Owner: 0, Name: sea.LoadName(5)}, "S", "missile load/5 is a Sidewinder"},
		{engine.Slot{Owner: 0, Name: sea.LoadName(5)}, "X", `missile load/5 holds "X", not S or H`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := DescribeValue(tc.slot, []byte(tc.value)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzDescribeMove: any bytes from the network are put into words without
// a panic.
func FuzzDescribeMove(f *testing.F) {
	f.Add(sea.ScrambleMove([]sea.Flight{{Fighter: 2, Path: []sea.Cell{5, 6}}}).Encode())
	f.Add(sea.FireMove(1, sea.Target{Kind: sea.TargetHarpoon, Index: 9}).Encode())
	f.Add(sea.PlaceMove(sea.PieceDestroyer, 40, sea.SouthWest).Encode())
	f.Add([]byte(`{"kind":"place","piece":"carrier","cell":"Z99"}`))
	f.Add([]byte(`{"kind":"scramble","flights":[{"fighter":1,"die":0,"path":[]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if DescribeMove(b) == "" {
			t.Fatal("empty description")
		}
	})
}

// FuzzDescribeValue: any opened value is put into words without a panic.
func FuzzDescribeValue(f *testing.F) {
	f.Add(sea.StrengthsName, 3, []byte("4"))
	f.Add("load/2", 0, []byte("H"))
	f.Add("grid", 7, []byte{0xff})
	f.Fuzz(func(t *testing.T, name string, index int, value []byte) {
		if DescribeValue(engine.Slot{Owner: 1, Name: name, Index: index}, value) == "" {
			t.Fatal("empty description")
		}
	})
}
