package board

import "testing"

func TestSay(t *testing.T) {
	s := Snapshot{Names: []string{"ann", ""}}
	for _, c := range [][2]string{
		{"seat 0 wins against seat 1", "ann wins against seat 1"},
		{"seat 7 left; seat 0's turn", "seat 7 left; ann's turn"},
		{"no seats here: seat10x", "no seats here: seat10x"},
	} {
		if got := s.Say(c[0]); got != c[1] {
			t.Errorf("Say(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
