package fairness_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
)

// Issue 15 point 3: in the two-player games a flight of dice shares alone
// comes only where a roll follows another seat's sealed choice. Cards and
// oceans had one a match at the set-up (their first roll is followed by
// another whatever its value, and the seat that sent its share of the
// first as a member could not pre-share the second); runs of rolls take
// both at once. Fresh matches of random bots over several seeds.
func TestRunsOfRollsLeaveNoAvoidableDiceOnlyFlight(t *testing.T) {
	for _, g := range []goldenMatch{{"cards", "standard", 2, 0}, {"cards", "beginner", 2, 0}, {"oceans", "standard", 2, 0}, {"sea", "standard", 2, 0}} {
		for seed := range uint64(4) {
			g.seed = seed + 1
			noAvoidableDiceFlight(t, g, playGolden(t, g, true))
		}
	}
}

// Sea's first-player roll rolls again on a tie, so no run of rolls
// predicts the second roll (its places would depend on the first roll's
// values), and the seat at the first roll's last place, a member signed at
// once, sent its share of the second in a dice-only flight of its own. It
// now closes its member with pre-shares (runs.go). The dice are truly
// random (fresh keys and chains each match), so matches are played until
// one ties, at most maxMatches (a tie is one match in six).
func TestSeaTieLeavesNoAvoidableDiceOnlyFlight(t *testing.T) {
	const maxMatches = 64
	g := goldenMatch{"sea", "standard", 2, 0}
	for seed := range uint64(maxMatches) {
		g.seed = seed + 1
		data := playGolden(t, g, true)
		noAvoidableDiceFlight(t, g, data)
		if firstRolls(t, data, "order") > 1 {
			return
		}
	}
	t.Fatalf("no tie at the first-player roll in %d matches", maxMatches)
}

// noAvoidableDiceFlight fails t when record data of match g has a flight
// of dice shares alone that follows no other seat's sealed choice.
func noAvoidableDiceFlight(t *testing.T, g goldenMatch, data []byte) {
	t.Helper()
	f, err := fairness.CountFlights(bytes.NewReader(data), games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if f.DiceOnly != f.DiceAfterChoice {
		t.Errorf("%s %s seed %d: %d dice-only flights, %d of them after another seat's choice: %+v", g.game, g.variant, g.seed, f.DiceOnly, f.DiceAfterChoice, f)
	}
}

// firstRolls replays record data and counts the rolls named name before
// anything else comes between them.
func firstRolls(t *testing.T, data []byte, name string) int {
	t.Helper()
	m, tr := replayMatch(t, bytes.NewReader(data))
	n := 0
	for {
		ln, err := tr.Next()
		if err != nil || ln.Envelope == nil {
			return n
		}
		evs, err := m.Accept(ln.Envelope)
		if err != nil {
			t.Fatalf("line %d: %v", ln.No, err)
		}
		for _, ev := range evs {
			if ev.Kind == "roll" && strings.Contains(ev.Text, "("+name+")") {
				n++
			}
		}
		if n > 0 && m.Game().Next().Kind != engine.NeedRandom {
			return n
		}
	}
}
