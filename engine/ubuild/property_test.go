package ubuild

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// checkInvariants checks what must hold of the public state after every
// input of a legal match.
func checkInvariants(t testing.TB, g *Game) {
	t.Helper()
	for seat := range engine.Seat(2) {
		f := &g.st.fleets[seat]
		var hitCells [NumShips]int
		shots := 0
		for c, m := range f.marks {
			if (m.Result == Unshot) == f.shot.has(Cell(c)) {
				t.Fatalf("%s cell %s: mark %v but shot=%v", seat, Cell(c), m.Result, f.shot.has(Cell(c)))
			}
			if m.Result == Unshot {
				continue
			}
			shots++
			v := f.cells[c]
			if v < 0 {
				t.Fatalf("%s cell %s shot but not opened", seat, Cell(c))
			}
			if (m.Result == Miss) != (v == 0) || m.Result != Miss && Ship(v-1) != m.Ship {
				t.Fatalf("%s cell %s: mark %+v, value %d", seat, Cell(c), m, v)
			}
			if m.Result != Miss {
				hitCells[m.Ship]++
			}
		}
		sunkCount := 0
		for s := range Ship(NumShips) {
			at, known := f.sinkAt(s)
			if f.hits[s] > at || f.hits[s] > hitCells[s] {
				t.Fatalf("%s %s: %d hits, sinks at %d, %d cells hit", seat, s, f.hits[s], at, hitCells[s])
			}
			if f.sunk[s] != (known && f.hits[s] == at) {
				t.Fatalf("%s %s: sunk=%v with %d hits of %d (known %v)", seat, s, f.sunk[s], f.hits[s], at, known)
			}
			if f.sunk[s] {
				sunkCount++
			}
			if !g.st.custom() && f.weapons[s] != s.Plate() {
				t.Fatalf("%s %s: weapons %d", seat, s, f.weapons[s])
			}
		}
		if got := g.ShipsLeft(seat); got != NumShips-sunkCount {
			t.Fatalf("ShipsLeft = %d, want %d", got, NumShips-sunkCount)
		}
		if len(g.Targets(1-seat)) != NumCells-shots {
			t.Fatalf("targets of %s: %d, want %d", 1-seat, len(g.Targets(1-seat)), NumCells-shots)
		}
		if f.allSunk() != (g.Winner() == 1-seat) {
			t.Fatalf("%s all sunk %v, winner %s", seat, f.allSunk(), g.Winner())
		}
	}
	if g.Outcome().Done != (g.Phase() == PhaseDone) {
		t.Fatalf("outcome %+v in phase %s", g.Outcome(), g.Phase())
	}
	if c := g.Clone(); c.Hash() != g.Hash() {
		t.Fatal("a clone has another hash")
	}
}

// recorded plays a match and returns its inputs, with the hash after each.
func recorded(t testing.TB, variant string, seed uint64, a0, a1 engine.Agent) ([]engine.Input, []engine.Digest, *harness) {
	t.Helper()
	h := newHarness(t, variant, seed, a0, a1)
	var hashes []engine.Digest
	h.AfterApply(func(engine.Need, engine.Input, []engine.Event) error {
		checkInvariants(t, h.Game)
		hashes = append(hashes, h.Game.Hash())
		return nil
	})
	if _, err := h.Play(maxSteps); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return h.Inputs(), hashes, h
}

func propertyGames(t *testing.T) int {
	if testing.Short() {
		return 10
	}
	return 24
}

// TestRandomMatches plays random bots against each other and against the
// hunter in every variant: every match ends with a winner, every invariant
// holds after every input, and a second engine fed the same inputs agrees
// on every hash.
func TestRandomMatches(t *testing.T) {
	for _, variant := range Spec.Variants {
		t.Run(variant, func(t *testing.T) {
			for i := range propertyGames(t) {
				seed := uint64(i)
				r := rand.New(rand.NewPCG(seed, 9))
				a0, a1 := engine.Agent(NewRandomBot(r)), engine.Agent(NewRandomBot(r))
				if i%3 == 1 {
					a1 = NewHunterBot(r)
				}
				ins, hashes, h := recorded(t, variant, seed, a0, a1)
				out := h.Game.Outcome()
				if !out.Done || len(out.Winners) != 1 || out.Reason != WinReason {
					t.Fatalf("seed %d: outcome %+v", seed, out)
				}
				replay, _ := New(engine.Setup{Seats: 2, Variant: variant})
				for j, in := range ins {
					if _, err := replay.Apply(in); err != nil {
						t.Fatalf("seed %d: replay input %d: %v", seed, j, err)
					}
					if replay.Hash() != hashes[j] {
						t.Fatalf("seed %d: replay hash differs after input %d", seed, j)
					}
				}
			}
		})
	}
}

// TestHashesDiffer checks that the hash follows the state: no two inputs of
// a match leave the same hash.
func TestHashesDiffer(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	_, hashes, _ := recorded(t, Custom, 5, NewRandomBot(r), NewRandomBot(r))
	seen := map[engine.Digest]int{}
	for i, h := range hashes {
		if j, ok := seen[h]; ok {
			t.Fatalf("inputs %d and %d leave the same hash", j, i)
		}
		seen[h] = i
	}
	a, _ := New(engine.Setup{Seats: 2, Variant: Standard})
	b, _ := New(engine.Setup{Seats: 2, Variant: Classic})
	if a.Hash() == b.Hash() {
		t.Fatal("variants share a hash")
	}
}

// corruptions turn an honest input into one that is (almost always)
// illegal.
var corruptions = []struct {
	name string
	f    func(in *engine.Input, r *rand.Rand)
}{
	{"wrong seat", func(in *engine.Input, _ *rand.Rand) {
		if in.Seat == engine.NoSeat {
			in.Seat = 0
		} else {
			in.Seat = 1 - in.Seat
		}
	}},
	{"wrong kind", func(in *engine.Input, _ *rand.Rand) { in.Kind = in.Kind%7 + 1 }},
	{"flip a move byte", func(in *engine.Input, r *rand.Rand) {
		if len(in.Move) > 0 {
			in.Move = append([]byte(nil), in.Move...)
			in.Move[r.IntN(len(in.Move))] ^= byte(1 + r.IntN(255))
		} else {
			in.Move = []byte("x")
		}
	}},
	{"truncate the move", func(in *engine.Input, r *rand.Rand) {
		in.Move = in.Move[:len(in.Move)/2]
		if len(in.Move) == 0 {
			in.Move = []byte("{")
		}
	}},
	{"drop an opening", func(in *engine.Input, r *rand.Rand) {
		if len(in.Opened) == 0 {
			in.Opened = []engine.Opened{{Slot: GridSlot(0, 0), Value: []byte{0}}}
			return
		}
		i := r.IntN(len(in.Opened))
		in.Opened = append(append([]engine.Opened(nil), in.Opened[:i]...), in.Opened[i+1:]...)
	}},
	{"change an opened value", func(in *engine.Input, r *rand.Rand) {
		if len(in.Opened) == 0 {
			in.Random = append(in.Random, 7)
			return
		}
		in.Opened = append([]engine.Opened(nil), in.Opened...)
		i := r.IntN(len(in.Opened))
		in.Opened[i].Value = []byte{byte(6 + r.IntN(250))}
	}},
	{"bad random", func(in *engine.Input, r *rand.Rand) {
		in.Random = []int{2 + r.IntN(5)}
		in.Commitment = nil
	}},
}

// TestIllegalInputKeepsState corrupts inputs of random matches: every
// rejected input wraps ErrIllegal and leaves the hash unchanged, and the
// match then goes on with the honest input.
func TestIllegalInputKeepsState(t *testing.T) {
	rejected := 0
	for _, variant := range Spec.Variants {
		for i := range propertyGames(t) / 3 {
			seed := uint64(100 + i)
			r := rand.New(rand.NewPCG(seed, 11))
			h := newHarness(t, variant, seed, NewRandomBot(r), NewRandomBot(r))
			for h.Game.Next().Kind != engine.NeedNone {
				in, err := h.Input()
				if err != nil {
					t.Fatal(err)
				}
				for range 2 {
					c := corruptions[r.IntN(len(corruptions))]
					bad := in
					c.f(&bad, r)
					probe := h.Game.Copy()
					before := probe.Hash()
					if _, err := probe.Apply(bad); err != nil {
						rejected++
						var f *engine.Fault
						if !errors.Is(err, engine.ErrIllegal) && !errors.As(err, &f) {
							t.Fatalf("%s: error %v neither illegal nor a fault", c.name, err)
						}
						if probe.Hash() != before {
							t.Fatalf("%s: rejected input changed the hash", c.name)
						}
					}
				}
				if _, err := h.Game.Apply(in); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if rejected == 0 {
		t.Fatal("no corruption was rejected")
	}
}

// TestCloneIsIndependent applies inputs to a clone and checks the original
// keeps its hash.
func TestCloneIsIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	h := newHarness(t, Custom, 8, NewRandomBot(r), NewHunterBot(r))
	for range 16 {
		if _, err := h.Step(); err != nil {
			t.Fatal(err)
		}
	}
	c := h.Game.Copy()
	before := h.Game.Hash()
	if _, err := h.Fork(c).Play(maxSteps); err != nil {
		t.Fatal(err)
	}
	if h.Game.Hash() != before || !c.Outcome().Done || h.Game.Outcome().Done {
		t.Fatal("playing a clone changed the original")
	}
	if v, _ := h.Game.LastVolley(); len(v.Shots) == 0 {
		t.Fatal("lost the last volley")
	}
}
