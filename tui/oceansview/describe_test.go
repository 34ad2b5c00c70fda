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
	s0, s1 := engine.Seat(0), engine.Seat(1)
	tests := []struct {
		text engine.Words
		me   engine.Seat
		want string
	}{
		{engine.Wordsf("%s deploys a Aircraft Carrier to the Pacific", s1), 0, "bot deploys an Aircraft Carrier to the Pacific"},
		{engine.Wordsf("%s plays its Minefield", s0), 0, "you play your Minefield"},
		{engine.Wordsf("%s's PT Boat is destroyed", s0), 0, "your PT Boat is destroyed"},
		{engine.Wordsf("%s wins the Arctic (attacker 4, defender 2)", s0), 0, "you win the Arctic (attacker 4, defender 2)"},
		{engine.Wordsf("%s may not attack nor play a second card next turn", s1), 1, "you may not attack nor play a second card next turn"},
		{engine.Wordsf("%s plays its Minefield", s0), engine.NoSeat, "ann plays its Minefield"},
		{engine.Wordsf("%s's Battleship sinks %s's Submarine", s1, s0), 0, "bot's Battleship sinks your Submarine"},
	}
	for _, tc := range tests {
		if got := sayTo(tc.text, tc.me, snap); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
	// A player named like a seat, or like "a" card, keeps the name.
	hostile := board.Snapshot{Names: []string{"seat 1's a Ace", "bot"}}
	if got, want := sayTo(engine.Wordsf("%s plays its Minefield", s0), 1, hostile), "seat 1's a Ace plays its Minefield"; got != want {
		t.Errorf("a hostile name: got %q, want %q", got, want)
	}
	if c := cardIn("bot's Fighter Plane is destroyed"); c != oceans.Fighter {
		t.Errorf("cardIn found %v", c)
	}
}
