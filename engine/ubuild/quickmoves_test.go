package ubuild

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// TestCellStringIsItsSpelling: Cell.String, now appended into a buffer,
// spells every value as it always did: "C-2" on the grid, "cell(n)" off it.
func TestCellStringIsItsSpelling(t *testing.T) {
	for v := -128; v < 128; v++ {
		c := Cell(v)
		want := "cell(" + strconv.Itoa(v) + ")"
		if c.Valid() {
			want = string(rune('A'+c.Row())) + "-" + strconv.Itoa(c.Col()+1)
		}
		if got := c.String(); got != want {
			t.Fatalf("Cell(%d).String() = %q, want %q", v, got, want)
		}
	}
}

// TestNeedIsNextWithoutItsPrompt plays random matches of every variant:
// at every step the need Apply checks inputs against is Next's but for
// its prompt, and the slots of a final reveal, now listed into one
// allocation, are every hidden slot in order, nil when none is.
func TestNeedIsNextWithoutItsPrompt(t *testing.T) {
	hidden := func(st *state, seat engine.Seat) []engine.Slot {
		var out []engine.Slot
		for c, v := range st.fleets[seat].cells {
			if v < 0 {
				out = append(out, GridSlot(seat, Cell(c)))
			}
		}
		for s, w := range st.fleets[seat].weapons {
			if w == 0 && st.custom() {
				out = append(out, WeaponsSlot(seat, Ship(s)))
			}
		}
		return out
	}
	for _, variant := range Spec.Variants {
		for seed := range uint64(3) {
			r := rand.New(rand.NewPCG(seed, 11))
			h := newHarness(t, variant, seed, NewRandomBot(r), NewHunterBot(r))
			check := func() {
				next, need := h.Game.Next(), h.Game.st.need()
				if next.Prompt == "" {
					t.Fatalf("%s seed %d: no prompt in phase %s", variant, seed, h.Game.st.phase)
				}
				next = next.WithPrompt(engine.Words{})
				if !reflect.DeepEqual(next, need) {
					t.Fatalf("%s seed %d: Next %+v, need %+v", variant, seed, next, need)
				}
				for s := range engine.Seat(2) {
					if got, want := h.Game.st.hiddenSlots(s), hidden(&h.Game.st, s); !reflect.DeepEqual(got, want) {
						t.Fatalf("%s seed %d: hidden slots of %s %v, want %v", variant, seed, s, got, want)
					}
				}
			}
			h.AfterApply(func(engine.Need, engine.Input, []engine.Event) error {
				check()
				return nil
			})
			if _, err := h.Play(maxSteps); err != nil {
				t.Fatal(err)
			}
		}
	}
}
