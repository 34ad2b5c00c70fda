package ubuild

import (
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// Spec describes Battleship U-Build to the rest of the program.
var Spec = engine.Spec{
	Name:     "ubuild",
	Title:    "Battleship U-Build",
	Rules:    "ubuild/1",
	Variants: append(append([]string{Standard}, customVariants()...), Classic),
	MinSeats: 2,
	MaxSeats: 2,
	New:      engine.NewFunc(New),
}

// Game is one match of Battleship U-Build. It implements [engine.Game] and
// [engine.Answerer]; its other methods read the public state for the UI and
// the bots.
type Game struct {
	st state
}

var (
	_ engine.Game     = (*Game)(nil)
	_ engine.Answerer = (*Game)(nil)
)

// New starts a match: two seats and a variant of [Spec] ("" is standard).
func New(s engine.Setup) (*Game, error) {
	if s.Seats != 2 {
		return nil, engine.Illegal("ubuild: %d seats, the game takes 2", s.Seats)
	}
	v := s.Variant
	if v == "" {
		v = Standard
	}
	if _, custom := FleetTotal(v); !custom && v != Standard && v != Classic {
		return nil, engine.Illegal("ubuild: unknown variant %q (want standard, %s or classic)", v, strings.Join(customVariants(), ", "))
	}
	return &Game{st: newState(v)}, nil
}

// commitStep is one commitment of the setup.
type commitStep struct {
	seat engine.Seat
	name string
	size int
}

// commitSteps lists the setup's commitments in order.
func commitSteps(variant string) []commitStep {
	_, custom := FleetTotal(variant)
	var steps []commitStep
	for seat := range engine.Seat(2) {
		steps = append(steps, commitStep{seat, GridName, NumCells})
		if custom {
			steps = append(steps, commitStep{seat, WeaponsName, NumShips})
		}
	}
	return steps
}

// Next reports what the match needs next.
func (g *Game) Next() engine.Need { return g.st.prompted(g.st.need()) }

// need is Next without its prompt: what Apply checks an input against.
// The prompt's words are for people, and Apply asked for them at every
// input an audit replays (issue 15).
func (st *state) need() engine.Need {
	switch st.phase {
	case PhaseSetup:
		c := commitSteps(st.variant)[st.step]
		return engine.Need{Kind: engine.NeedCommit, Seat: c.seat, Name: c.name, Size: c.size}
	case PhaseFirst:
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: []engine.Seat{0, 1},
			Name: FirstPlayerRoll, Count: 1, Bound: 2}
	case PhaseFire:
		return engine.Need{Kind: engine.NeedMove, Seat: st.attacker}
	case PhaseAnswer:
		d := 1 - st.attacker
		open := make([]engine.Slot, len(st.last.Shots))
		for i, c := range st.last.Shots {
			open[i] = GridSlot(d, c)
		}
		return engine.Need{Kind: engine.NeedMove, Seat: d, Auto: true, Open: open}
	case PhaseReveal:
		s := engine.Seat(st.step)
		return engine.Need{Kind: engine.NeedOpen, Seat: s, Open: st.hiddenSlots(s)}
	}
	return engine.Need{Kind: engine.NeedNone, Seat: engine.NoSeat}
}

// prompted returns n, the need of the current phase, with its prompt.
func (st *state) prompted(n engine.Need) engine.Need {
	switch st.phase {
	case PhaseSetup:
		return n.WithPrompt(engine.Wordsf("%s commits its %s", n.Seat, n.Name))
	case PhaseFirst:
		n.Prompt = "flip for the first player"
	case PhaseFire:
		return n.WithPrompt(engine.Wordsf("%s fires (turn %d)", n.Seat, st.turn+1))
	case PhaseAnswer:
		return n.WithPrompt(engine.Wordsf("%s answers the volley of turn %d", n.Seat, st.turn))
	case PhaseReveal:
		return n.WithPrompt(engine.Wordsf("%s reveals its fleet", n.Seat))
	default:
		n.Prompt = "the match is over"
	}
	return n
}

// hiddenSlots lists every slot of seat not opened yet: grid cells in order,
// then (custom) weapon counts.
func (st *state) hiddenSlots(seat engine.Seat) []engine.Slot {
	f := &st.fleets[seat]
	hidden := 0
	for _, v := range f.cells {
		if v < 0 {
			hidden++
		}
	}
	for _, w := range f.weapons {
		if w == 0 && st.custom() {
			hidden++
		}
	}
	var out []engine.Slot
	if hidden > 0 {
		out = make([]engine.Slot, 0, hidden) // one allocation, not one per doubling
	}
	for c, v := range f.cells {
		if v < 0 {
			out = append(out, GridSlot(seat, Cell(c)))
		}
	}
	if st.custom() {
		for s, w := range f.weapons {
			if w == 0 {
				out = append(out, WeaponsSlot(seat, Ship(s)))
			}
		}
	}
	return out
}

// Apply consumes one input. An input that does not fit the current need or
// breaks a rule returns an error wrapping [engine.ErrIllegal] (or an
// [*engine.Fault] naming the seat to blame) and changes nothing.
func (g *Game) Apply(in engine.Input) ([]engine.Event, error) {
	need := g.st.need()
	if err := engine.CheckKind(need, in); err != nil {
		return nil, err
	}
	if in.Seat != need.Seat {
		return nil, engine.Illegal("expected %s from %s, got %s from %s", need.Kind, need.Seat, in.Kind, in.Seat)
	}
	next := g.st.clone()
	var ev []engine.Event
	var err error
	switch need.Kind {
	case engine.NeedCommit:
		ev, err = next.applyCommit(in, need)
	case engine.NeedRandom:
		ev, err = next.applyFirst(in)
	case engine.NeedMove:
		if next.phase == PhaseFire {
			ev, err = next.applyFire(in)
		} else {
			ev, err = next.applyAnswer(in)
		}
	case engine.NeedOpen:
		ev, err = next.applyReveal(in, need)
	}
	if err != nil {
		return nil, err
	}
	g.st = next
	return ev, nil
}

// MustOpen lists the slots a move by seat must open: the grid cells of the
// volley an answer replies to, and in custom the weapon count of a ship that
// fires for the first time or is claimed sunk while its count is hidden.
func (g *Game) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	st := &g.st
	switch {
	case st.phase == PhaseFire && seat == st.attacker:
		f, err := decodeFire(move)
		if err != nil {
			return nil, err
		}
		if st.custom() && f.ship.Valid() && st.fleets[seat].weapons[f.ship] == 0 {
			return []engine.Slot{WeaponsSlot(seat, f.ship)}, nil
		}
		return nil, nil
	case st.phase == PhaseAnswer && seat == 1-st.attacker:
		rs, err := DecodeAnswer(move)
		if err != nil {
			return nil, err
		}
		return st.answerSlots(seat, rs), nil
	}
	return nil, engine.Illegal("no move is awaited from %s", seat)
}

// Hash returns a digest of the whole public state.
func (g *Game) Hash() engine.Digest { return g.st.hash() }

// Outcome reports the result: once both fleets are revealed, the seat that
// sank the other's whole fleet wins.
func (g *Game) Outcome() engine.Outcome {
	if g.st.phase != PhaseDone {
		return engine.Outcome{}
	}
	return engine.Outcome{Done: true, Winners: []engine.Seat{g.st.winner}, Reason: WinReason}
}

// Clone returns an independent copy of the match.
func (g *Game) Clone() engine.Game { return g.Copy() }

// Copy returns an independent copy of the match, as a *Game.
func (g *Game) Copy() *Game { return &Game{st: g.st.clone()} }

// takeOpened matches checked openings against the slots a move must open:
// every wanted slot exactly once and nothing else. It returns the values in
// the order of want.
func takeOpened(got []engine.Opened, want []engine.Slot) ([][]byte, error) {
	vals := make([][]byte, len(want))
	for _, o := range got {
		i := -1
		for j, s := range want {
			if s == o.Slot {
				i = j
				break
			}
		}
		if i < 0 {
			return nil, engine.Illegal("opening of %s was not asked for", o.Slot)
		}
		if vals[i] != nil {
			return nil, engine.Illegal("%s opened twice", o.Slot)
		}
		vals[i] = o.Value
		if vals[i] == nil {
			vals[i] = []byte{}
		}
	}
	for i, v := range vals {
		if v == nil {
			return nil, engine.Illegal("%s must be opened", want[i])
		}
	}
	return vals, nil
}
