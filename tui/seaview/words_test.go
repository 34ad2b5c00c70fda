package seaview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine/sea"
)

// TestPromptsCountInWords: "1 fighter can launch", not "1 fighters"; the
// defensive fire prompt says what enter fires at.
func TestPromptsCountInWords(t *testing.T) {
	v := newView()
	v.pick.items = []int{3}
	if p := v.launchPrompt(); !strings.Contains(p, "1 fighter can launch") {
		t.Errorf("launch prompt: %q", p)
	}
	v.pick.items = []int{3, 4}
	if p := v.launchPrompt(); !strings.Contains(p, "2 fighters can launch") {
		t.Errorf("launch prompt: %q", p)
	}
	v.pick.items = []int{1}
	if p := v.harpoonPickPrompt(); !strings.Contains(p, "which of your 1 Harpoon moves") {
		t.Errorf("Harpoon prompt: %q", p)
	}
	v.dmg.count = 1
	if p := v.dmg.prompt(); !strings.Contains(p, "remove 1 fighter from your deck") {
		t.Errorf("damage prompt: %q", p)
	}
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 targets"}, {1, "1 target"}, {2, "2 targets"}} {
		if got := count(c.n, "target"); got != c.want {
			t.Errorf("count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestDefensiveFirePromptSaysWhatEnterFiresAt: it ended "enter fires at
// the cursor's".
func TestDefensiveFirePromptSaysWhatEnterFiresAt(t *testing.T) {
	d := find(t, named(sea.NeedDefense))
	v := newView()
	d.ask(v)
	if p := v.Prompt(); !strings.HasSuffix(p, "enter fires at the target under the cursor") {
		t.Errorf("prompt %q", p)
	}
}
