package airview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
)

func TestDescribeMove(t *testing.T) {
	cases := []struct {
		name string
		move []byte
		want string
	}{
		{"move", air.PlainMove(air.ActMove).Encode(), "flies its card's maneuver"},
		{"end", air.PlainMove(air.ActEnd).Encode(), "holds its fire and ends the turn"},
		{"missile", air.FireMove(air.Missile, 3).Encode(), "fires a missile at the Fire F-22"},
		{"cannon", air.FireMove(air.Cannon, 4).Encode(), "fires cannon at the Eagle F-35"},
		{"disrupt", air.DisruptMove(7).Encode(), "disrupts the Tiger F-22"},
		{"wingman", air.WingmanMove(air.Pos{X: 2, Y: 3}).Encode(), "joins its wingman at (40,35)"},
		{"bonus taken", air.BonusMove(true).Encode(), "takes the F-35's +1 space"},
		{"bonus refused", air.BonusMove(false).Encode(), "refuses the F-35's +1 space"},
		{"no such plane", air.FireMove(air.Missile, 12).Encode(), "fires a missile at the plane 12"},
		{"unknown action", []byte(`{"action":"loop"}`), `an unknown action "loop"`},
		{"not a move", []byte(`{"action":"move","extra":1}`), "an undecodable move (27 bytes)"},
		{"garbage", []byte("\xff"), "an undecodable move (1 bytes)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DescribeMove(c.move); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestDescribeValue(t *testing.T) {
	deck := func(name string, i int) engine.Slot { return engine.Slot{Owner: engine.NoSeat, Name: name, Index: i} }
	cases := []struct {
		name  string
		slot  engine.Slot
		value []byte
		want  string
	}{
		{"a card", deck("nav", 12), []byte{13}, "nav[12] is card #13 wingman ↗1"},
		{"a disruption card of a reshuffle", deck("nav/2", 0), []byte{55}, "nav/2[0] is card #55 disruption ↖1 foe ↑1"},
		{"no such card", deck("nav", 1), []byte{61}, "nav[1] holds 61, not a card number"},
		{"two bytes", deck("nav", 1), []byte{1, 2}, "nav[1] holds 2 bytes, not a card"},
		{"a choice", engine.Slot{Owner: 1, Name: "choice/3"}, air.EncodeChoice(air.Choice{Cards: []air.PlaneCard{{Plane: 2, Deck: 1, Pos: 4}, {Plane: 3, Deck: 2, Pos: 0}}}),
			"Fire's choice: the Fire F-35 plays nav[4], the Fire F-22 plays nav/2[0]"},
		{"an empty choice", engine.Slot{Owner: 0, Name: "choice/1"}, air.EncodeChoice(air.Choice{}), "Blue's choice: no card"},
		{"a bad choice", engine.Slot{Owner: 0, Name: "choice/1"}, []byte("{"), "an undecodable card choice (1 bytes)"},
		{"something else", engine.Slot{Owner: 0, Name: "grid", Index: 2}, []byte{1}, "seat 0/grid[2] = 01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DescribeValue(c.slot, c.value); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// FuzzDescribe feeds the describers bytes from the network: they never
// panic, and a move that decodes is never called undecodable.
func FuzzDescribe(f *testing.F) {
	f.Add([]byte(air.FireMove(air.Missile, 3).Encode()), "nav", 3, []byte{7})
	f.Add([]byte(air.WingmanMove(air.Pos{X: 1, Y: 1}).Encode()), "choice/2", 1, air.EncodeChoice(air.Choice{Cards: []air.PlaneCard{{Plane: 1}}}))
	f.Add([]byte(`{"action":"fire","target":-9}`), "nav/99", -1, []byte{})
	f.Fuzz(func(t *testing.T, move []byte, name string, owner int, value []byte) {
		got := DescribeMove(move)
		var m air.Move
		if engine.DecodeMove(move, &m) == nil && strings.Contains(got, "undecodable") {
			t.Fatalf("%q decodes but is described as %q", move, got)
		}
		_ = DescribeValue(engine.Slot{Owner: engine.Seat(owner), Name: name}, value)
		_ = DescribeValue(engine.Slot{Owner: engine.NoSeat, Name: name, Index: owner}, value)
	})
}
