package board

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// TestRefereeEvent tells the referee's accounts of its checks (the texts
// fairness writes) from game events of the same kinds.
func TestRefereeEvent(t *testing.T) {
	for _, c := range []struct {
		kind, text string
		referee    bool
	}{
		{"hello", "seat 0 committed dice chain 1a2b3c4d", true},
		{"commit", "seat 1 committed fleet (100 leaves) root 0badcafe", true},
		{"opened", "seat 0 opened 3 committed value(s), every path checks against its root", true},
		{"share", "seat 1 revealed its preimage for roll 4 (fire): 77aa ✓", true},
		{"roll", "roll 4 (fire) = [3 5] from seat 0:ab12 seat 1:cd34", true},
		{"choose", "seat 2 committed its choice choice/3: 9f9f", true},
		{"reveal", "seat 2 opened its choice choice/3 ✓", true},
		{"deckkey", "seat 0 published its key share for deck nav, proof of knowledge ✓", true},
		{"shuffle", "seat 1 shuffled deck nav, shuffle proof ✓", true},
		{"unmask", "seat 1 unmasked 2 card(s) of nav for seat 0, proofs ✓", true},
		// Game events of the same kinds.
		{"commit", "seat 0 committed its fighters' strengths", false},
		{"roll", "seat 1 rolled [3 4] (scramble)", false},
		{"roll", "black dice [2 3]: 5", false},
		{"reveal", "seat 0 revealed a legal fleet", false},
		{"reveal", "Blue F-35: #12 straight: ahead, 2 dice", false},
		{"shuffle", "the 40 Navigation cards are shuffled", false},
		{"choose", "round 2: every squadron leader has chosen", false},
		{"resign", "seat 1 resigned", false},
		{"hit", "seat 0 hit C4 with a 5", false},
	} {
		if got := RefereeEvent(enginetest.Event(engine.NoSeat, c.kind, c.text)); got != c.referee {
			t.Errorf("RefereeEvent(%s %q) = %v, want %v", c.kind, c.text, got, c.referee)
		}
	}
}

// TestNarrateWithoutANarrator puts names in place of seats.
func TestNarrateWithoutANarrator(t *testing.T) {
	s := Snapshot{Names: []string{"ann", "bot (strong)"}}
	if got := Narrate(nil, enginetest.Event(1, "fire", "seat 1 (Carrier) fires at C-4"), s); got != "bot (strong) (Carrier) fires at C-4" {
		t.Errorf("got %q", got)
	}
}
