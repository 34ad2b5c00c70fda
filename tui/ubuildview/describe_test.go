package ubuildview

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
)

func TestDescribe(t *testing.T) {
	moves := []struct {
		move, want string
	}{
		{`{"ship":"carrier","shots":["C-4","D-5"]}`, "Aircraft Carrier fires at C-4, D-5"},
		{`{"shots":["J-10"]}`, "fires at J-10"},
		{`{"results":[{"cell":"C-4","result":"miss"},{"cell":"D-5","result":"hit","ship":"carrier"}]}`, "answers C-4 miss, D-5 hit Aircraft Carrier"},
		{`{"ship":"yacht","shots":["C-4"]}`, "an undecodable move (32 bytes)"},
	}
	for _, m := range moves {
		t.Run(m.move, func(t *testing.T) {
			if got := DescribeMove([]byte(m.move)); got != m.want {
				t.Fatalf("got %q, want %q", got, m.want)
			}
		})
	}
	values := []struct {
		slot  engine.Slot
		value []byte
		want  string
	}{
		{ubuild.GridSlot(1, 23), []byte{2}, "C-4 holds the Aircraft Carrier"},
		{ubuild.GridSlot(1, 23), []byte{0}, "C-4 is water"},
		{ubuild.GridSlot(1, 23), []byte{9}, "C-4 holds [9], not a cell value"},
		{ubuild.WeaponsSlot(0, ubuild.PTBoat), []byte{7}, "the PT Boat carries 7 weapons"},
	}
	for _, v := range values {
		t.Run(v.want, func(t *testing.T) {
			if got := DescribeValue(v.slot, v.value); got != v.want {
				t.Fatalf("got %q, want %q", got, v.want)
			}
		})
	}
}

// FuzzDescribe feeds the describers bytes as they come from a transcript or
// the network: they must never panic.
func FuzzDescribe(f *testing.F) {
	f.Add([]byte(`{"ship":"carrier","shots":["C-4","D-5"]}`), 3, []byte{2})
	f.Add([]byte(`{"results":[{"cell":"C-4","result":"sunk","ship":"ptboat"}]}`), 99, []byte{})
	f.Add([]byte{0xff, '{'}, -5, []byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, move []byte, index int, value []byte) {
		_ = DescribeMove(move)
		_ = DescribeValue(engine.Slot{Owner: 1, Name: ubuild.GridName, Index: index}, value)
		_ = DescribeValue(engine.Slot{Owner: 1, Name: ubuild.WeaponsName, Index: index}, value)
		_ = DescribeValue(engine.Slot{Owner: 1, Name: "other", Index: index}, value)
	})
}
