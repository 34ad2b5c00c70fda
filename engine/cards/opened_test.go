package cards

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// mapCheckOpened is checkOpened as it was written with maps: the
// reference for which openings it refuses, with which words, and which
// value it gives each slot.
func mapCheckOpened(want []engine.Slot, opened []engine.Opened) (map[engine.Slot][]byte, error) {
	if len(opened) != len(want) {
		return nil, engine.Illegal("%d slots opened, want %d", len(opened), len(want))
	}
	need := make(map[engine.Slot]bool, len(want))
	for _, s := range want {
		need[s] = true
	}
	got := make(map[engine.Slot][]byte, len(opened))
	for _, o := range opened {
		if !need[o.Slot] {
			return nil, engine.Illegal("slot %s opened but not required", o.Slot)
		}
		if _, dup := got[o.Slot]; dup {
			return nil, engine.Illegal("slot %s opened twice", o.Slot)
		}
		got[o.Slot] = o.Value
	}
	return got, nil
}

// TestCheckOpenedAsMaps throws random openings at checkOpened, short and
// long (scanned and indexed), slots repeated, missing, swapped and foreign
// among them: it must refuse what the map version refused, with the same
// words, and give each wanted slot the value opened for it.
func TestCheckOpenedAsMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 7))
	slot := func() engine.Slot {
		return engine.Slot{Owner: engine.Seat(r.IntN(2)), Name: DeckName(1 + r.IntN(2)), Index: r.IntN(12)}
	}
	for round := range 20000 {
		want := make([]engine.Slot, r.IntN(2*scanSlots+4))
		for i := range want {
			want[i] = slot()
		}
		opened := make([]engine.Opened, 0, len(want)+1)
		for _, i := range r.Perm(len(want)) {
			opened = append(opened, engine.Opened{Slot: want[i], Value: []byte{byte(i)}})
		}
		switch r.IntN(4) {
		case 0:
			if len(opened) > 0 {
				opened[r.IntN(len(opened))].Slot = slot()
			}
		case 1:
			opened = append(opened, engine.Opened{Slot: slot()})
		case 2:
			if len(opened) > 1 {
				opened[0].Slot = opened[1].Slot
			}
		}
		got, err := checkOpened(want, opened)
		ref, refErr := mapCheckOpened(want, opened)
		if (err == nil) != (refErr == nil) || (err != nil && err.Error() != refErr.Error()) {
			t.Fatalf("round %d: error %v, maps gave %v", round, err, refErr)
		}
		for i, s := range want {
			if err == nil && !bytes.Equal(got[i], ref[s]) {
				t.Fatalf("round %d: slot %s has %v, maps gave %v", round, s, got[i], ref[s])
			}
		}
	}
}
