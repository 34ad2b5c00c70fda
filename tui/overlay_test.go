package tui

import (
	"testing"

	"github.com/salvo-game/salvo/tui/keys"
)

// The help lists a family of keys that shares one line (the ship keys
// 1-5 of the U-Build board) once, and leaves out keys with no help.
func TestHelpListsEachLineOnce(t *testing.T) {
	var bs []keys.Binding
	for s := range 5 {
		bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R(rune('1' + s))}, Label: "1-5", Help: "pick a ship by number"})
	}
	bs = append(bs,
		keys.Binding{Keys: []keys.Key{keys.R('x')}, Label: "x", Help: "random layout"},
		keys.Binding{Keys: []keys.Key{keys.R('y')}, Label: "y"},
		keys.Binding{Keys: []keys.Key{keys.R('z')}, Label: "z", Help: "pick a ship by number"},
	)
	var got []string
	for _, b := range helpEntries(bs) {
		got = append(got, b.Label)
	}
	want := []string{"1-5", "x", "z"}
	if len(got) != len(want) {
		t.Fatalf("help lines %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("help lines %q, want %q", got, want)
		}
	}
}
