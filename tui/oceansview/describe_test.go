package oceansview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
)

func TestDescribeMove(t *testing.T) {
	tests := []struct {
		m    oceans.Move
		want string
	}{
		{oceans.Move{Kind: oceans.Deploy, Leaf: 3, Ocean: oceans.Pacific}, "deploys fleet card 3 faceup to the Pacific"},
		{oceans.Move{Kind: oceans.Place, Leaf: 12, Ocean: oceans.Arctic}, "plays fleet card 12 facedown to the Arctic"},
		{oceans.Move{Kind: oceans.Discard, Leaf: 5, Targets: []int{7, 9}}, "fleet card(s) 7 and 9"},
		{oceans.Move{Kind: oceans.Discard, Leaf: 5, Ocean: oceans.Indian}, "(ocean: the Indian)"},
		{oceans.Move{Kind: oceans.Attack, Ocean: oceans.SouthAtlantic}, "attacks in the South Atlantic"},
		{oceans.Move{Kind: oceans.Zero, Leaf: 4}, "zero-valued fleet card 4"},
		{oceans.Move{Kind: oceans.Target, Leaf: 8}, "picks fleet card 8 as the Minefield's target"},
	}
	for _, tc := range tests {
		t.Run(string(tc.m.Kind), func(t *testing.T) {
			if got := DescribeMove(tc.m.Encode()); !strings.Contains(got, tc.want) {
				t.Fatalf("%q lacks %q", got, tc.want)
			}
		})
	}
	if got := DescribeMove([]byte(`{"kind":"fly"}`)); !strings.Contains(got, "undecodable") {
		t.Fatalf("%q", got)
	}
}

func TestDescribeValue(t *testing.T) {
	s := engine.Slot{Owner: 1, Name: oceans.FleetName, Index: 12}
	if got := DescribeValue(s, oceans.EncodeCard(oceans.Carrier)); got != "an Aircraft Carrier" {
		t.Fatalf("%q", got)
	}
	if got := DescribeValue(s, oceans.EncodeCard(oceans.Battleship)); got != "a Battleship" {
		t.Fatalf("%q", got)
	}
	if got := DescribeValue(s, []byte{42}); !strings.Contains(got, "no fleet card") {
		t.Fatalf("%q", got)
	}
}

// FuzzDescribe feeds the describer bytes as they could come from the
// network: it must always answer with words and never panic.
func FuzzDescribe(f *testing.F) {
	f.Add([]byte(`{"kind":"discard","leaf":3,"ocean":0,"targets":[4,5]}`), oceans.FleetName, 3)
	f.Add([]byte(`{"kind":"attack","leaf":0,"ocean":2}`), "x", -1)
	f.Add([]byte{0}, oceans.FleetName, 99)
	f.Fuzz(func(t *testing.T, b []byte, name string, index int) {
		if DescribeMove(b) == "" {
			t.Fatal("no words for a move")
		}
		if DescribeValue(engine.Slot{Name: name, Index: index}, b) == "" {
			t.Fatal("no words for a value")
		}
	})
}

func TestEventsInWords(t *testing.T) {
	snap := board.Snapshot{Names: []string{"ann", "bot"}}
	tests := []struct {
		text string
		me   engine.Seat
		want string
	}{
		{"seat 1 deploys a Aircraft Carrier to the Pacific", 0, "bot deploys an Aircraft Carrier to the Pacific"},
		{"seat 0 plays its Minefield", 0, "you play your Minefield"},
		{"seat 0's PT Boat is destroyed", 0, "your PT Boat is destroyed"},
		{"seat 0 wins the Arctic (attacker 4, defender 2)", 0, "you win the Arctic (attacker 4, defender 2)"},
		{"seat 1 may not attack nor play a second card next turn", 1, "you may not attack nor play a second card next turn"},
		{"seat 0 plays its Minefield", engine.NoSeat, "ann plays its Minefield"},
	}
	for _, tc := range tests {
		if got := sayTo(tc.text, tc.me, snap); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
	if c := cardIn("bot's Fighter Plane is destroyed"); c != oceans.Fighter {
		t.Errorf("cardIn found %v", c)
	}
}
