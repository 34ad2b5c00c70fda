package oceans

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// checkInvariants checks what must hold after every input of any match.
func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	for s := range engine.Seat(2) {
		st := &g.seats[s]
		// Every leaf is in exactly one place: deck, hand, a task force or the discard pile.
		var where [DeckSize]int
		count := func(leaves []int) {
			for _, l := range leaves {
				where[l]++
			}
		}
		count(st.deck)
		count(st.hand)
		count(st.discard)
		for o, tf := range st.forces {
			count(tf)
			if len(tf) > MaxTaskForce {
				t.Fatalf("%s has %d cards in the %s", s, len(tf), Ocean(o))
			}
			if len(tf) > 0 && g.control[o] != engine.NoSeat {
				t.Fatalf("%s has a task force in the %s, which is out of play", s, Ocean(o))
			}
			for _, l := range tf {
				if k := st.known[l]; k != NoCard && !k.CanJoin() {
					t.Fatalf("%s has a revealed %s in a task force", s, k)
				}
			}
		}
		for l, n := range where {
			if n != 1 {
				t.Fatalf("%s leaf %d is in %d places", s, l, n)
			}
		}
		for _, l := range st.discard {
			if st.known[l] == NoCard && g.phase != PhaseBattle {
				t.Fatalf("%s discarded leaf %d without revealing it", s, l)
			}
		}
		var counts [numCards]int
		for _, k := range st.known {
			counts[k]++
		}
		for k := Card(1); k < numCards; k++ {
			if counts[k] > deckCounts[k] {
				t.Fatalf("%s shows %d %s cards", s, counts[k], k)
			}
		}
		if g.controlled(s) >= OceansToWin && g.phase < PhaseFinal {
			t.Fatalf("%s controls %d oceans and the match goes on", s, g.controlled(s))
		}
	}
	if g.phase >= PhasePlay && g.phase <= PhaseBattle {
		hands := len(g.seats[0].hand) + len(g.seats[1].hand)
		if hands < 2 {
			t.Fatalf("hands hold %d cards in all", hands)
		}
	}
}

// playChecked plays one match between two agents, checking the invariants
// after every input, and returns the harness.
func playChecked(t *testing.T, seed uint64, a, b engine.Agent) *harness {
	t.Helper()
	h := newHarness(t, seed, a, b)
	h.AfterApply(func(engine.Need, engine.Input, []engine.Event) error {
		checkInvariants(t, h.Game)
		return nil
	})
	if _, err := h.Play(maxInputs); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return h
}

func TestRandomMatchesKeepInvariants(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	var reasons = map[string]int{}
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 1))
		h := playChecked(t, seed, NewRandomBot(r), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
		out := h.Game.Outcome()
		if !out.Done || len(out.Winners) != 1 || out.Draw {
			t.Fatalf("seed %d: outcome %+v", seed, out)
		}
		reasons[out.Reason[:8]]++
	}
	t.Logf("endings: %v", reasons)
}

// TestReplayAgrees feeds the inputs of random matches to a fresh engine and
// checks that the two agree on the hash after every input.
func TestReplayAgrees(t *testing.T) {
	for seed := range uint64(20) {
		h := newHarness(t, seed, NewRandomBot(rand.New(rand.NewPCG(seed, 3))), NewRandomBot(rand.New(rand.NewPCG(seed, 4))))
		var hashes []engine.Digest
		for h.Game.Next().Kind != engine.NeedNone {
			if _, err := h.Step(); err != nil {
				t.Fatal(err)
			}
			hashes = append(hashes, h.Game.Hash())
		}
		g2, _ := New(engine.Setup{Seats: 2, Variant: Standard})
		for i, in := range h.Inputs() {
			if _, err := g2.Apply(in); err != nil {
				t.Fatalf("seed %d input %d: replay failed: %v", seed, i, err)
			}
			if g2.Hash() != hashes[i] {
				t.Fatalf("seed %d input %d: hashes differ", seed, i)
			}
		}
		c := h.Game.Clone().(*Game)
		if c.Hash() != h.Game.Hash() {
			t.Fatal("clone hashes differently")
		}
	}
}

// TestIllegalInputsLeaveStateUnchanged throws wrong inputs at random points
// of random matches: each must fail and leave the hash as it was.
func TestIllegalInputsLeaveStateUnchanged(t *testing.T) {
	for seed := range uint64(15) {
		r := rand.New(rand.NewPCG(seed, 5))
		h := newHarness(t, seed, NewRandomBot(rand.New(rand.NewPCG(seed, 6))), NewRandomBot(rand.New(rand.NewPCG(seed, 7))))
		for h.Game.Next().Kind != engine.NeedNone {
			n := h.Game.Next()
			for _, in := range junkInputs(h, n, r) {
				before := h.Game.Hash()
				if _, err := h.Game.Apply(in); err == nil {
					t.Fatalf("seed %d: junk input %+v accepted at need %+v", seed, in, n)
				} else if !errors.Is(err, engine.ErrIllegal) {
					t.Fatalf("seed %d: junk input error %v does not wrap ErrIllegal", seed, err)
				}
				if h.Game.Hash() != before {
					t.Fatalf("seed %d: rejected input changed the state", seed)
				}
			}
			if _, err := h.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// junkInputs returns inputs that cannot be legal at need n.
func junkInputs(h *harness, n engine.Need, r *rand.Rand) []engine.Input {
	other := engine.Seat(1)
	if n.Seat == 1 {
		other = 0
	}
	out := []engine.Input{
		{Kind: engine.NeedChoice, Seat: n.Seat},
		{Kind: n.Kind, Seat: 7},
	}
	switch n.Kind {
	case engine.NeedRandom:
		out = append(out,
			engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: []int{n.Bound}},
			engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: []int{-1}},
			engine.Input{Kind: n.Kind, Seat: engine.NoSeat, Random: []int{0, 0}},
			engine.Input{Kind: n.Kind, Seat: engine.NoSeat})
	case engine.NeedOpen:
		good := h.openings(n.Open)
		out = append(out, engine.Input{Kind: n.Kind, Seat: other, Opened: good})
		if len(good) > 0 {
			out = append(out, engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: good[1:]})
			bad := append([]engine.Opened(nil), good...)
			bad[0].Slot.Index = (bad[0].Slot.Index + 1 + r.IntN(DeckSize-1)) % DeckSize
			out = append(out, engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: bad})
			bad2 := append([]engine.Opened(nil), good...)
			bad2[0].Value = []byte{0}
			out = append(out, engine.Input{Kind: n.Kind, Seat: n.Seat, Opened: bad2})
		}
	case engine.NeedMove:
		out = append(out,
			engine.Input{Kind: n.Kind, Seat: n.Seat, Move: []byte(`{"kind":"fly"}`)},
			engine.Input{Kind: n.Kind, Seat: n.Seat, Move: []byte(`{"kind":"place","leaf":99}`)},
			engine.Input{Kind: n.Kind, Seat: other, Move: Move{Kind: Attack}.Encode()})
		// A leaf that is not in the hand.
		for l := range DeckSize {
			if !slices.Contains(h.Game.seats[n.Seat].hand, l) {
				out = append(out, engine.Input{Kind: n.Kind, Seat: n.Seat, Move: Move{Kind: Place, Leaf: l}.Encode()})
				break
			}
		}
	case engine.NeedCommit:
		// Apply takes commitments (and rolls) without a working copy, so
		// these must be refused before anything changes, whichever check
		// refuses them.
		out = append(out, engine.Input{Kind: n.Kind, Seat: n.Seat},
			engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: FleetName, Size: 35}},
			engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: &engine.Commitment{Owner: other, Name: FleetName, Size: DeckSize}},
			engine.Input{Kind: n.Kind, Seat: n.Seat, Commitment: &engine.Commitment{Owner: n.Seat, Name: "fleet2", Size: DeckSize}})
	}
	return out
}

// TestDrawNeedWordsAsBefore pins the roll names and prompts that Next
// builds without fmt (drawName) or from a table (drawPrompts) to what fmt
// and Wordsf wrote: a roll's name goes into its values, so a changed byte
// would stop every recorded match from auditing.
func TestDrawNeedWordsAsBefore(t *testing.T) {
	for _, ph := range []Phase{PhaseDeal, PhaseDraw, PhaseOver + 3} {
		for _, s := range []engine.Seat{0, 1, engine.NoSeat, 12} {
			g := &Game{phase: ph, turn: s}
			if got, want := g.drawName(), fmt.Sprintf("%s/%d", ph, s); got != want {
				t.Errorf("drawName %q, want %q", got, want)
			}
			for k := -1; k <= FirstHand+2; k++ {
				got, want := drawPromptOf(k, s), engine.Wordsf("draw %d cards for %s", k, s)
				if got != want {
					t.Errorf("prompt %q, want %q", got, want)
				}
			}
		}
	}
}
