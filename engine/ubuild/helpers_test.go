package ubuild

import (
	"errors"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// lay builds a layout from five specs "C-4v" (vertical from C-4) or "A-1h"
// (horizontal from A-1), in ship order.
func lay(t testing.TB, specs ...string) Layout {
	t.Helper()
	if len(specs) != NumShips {
		t.Fatalf("lay: %d specs", len(specs))
	}
	var l Layout
	for i, s := range specs {
		c, err := ParseCell(s[:len(s)-1])
		if err != nil {
			t.Fatalf("lay %q: %v", s, err)
		}
		l[i] = Placement{Start: c, Vertical: strings.HasSuffix(s, "v")}
	}
	if err := l.Validate(); err != nil {
		t.Fatalf("lay %v: %v", specs, err)
	}
	return l
}

// Two layouts used by many tests.
//
//	seat 0: battleship A-1..A-5, carrier C-1..C-4, destroyer E-1..E-3,
//	        submarine G-1..G-3, PT boat I-1..I-2
//	seat 1: battleship J-6..J-10, carrier C-4..F-4 (vertical),
//	        destroyer A-8..A-10, submarine H-1..H-3, PT boat E-9..F-9
func layout0(t testing.TB) Layout { return lay(t, "A-1h", "C-1h", "E-1h", "G-1h", "I-1h") }
func layout1(t testing.TB) Layout { return lay(t, "J-6h", "C-4v", "A-8h", "H-1h", "E-9v") }

// match is a scripted match: inputs built by hand, both seats' secrets
// kept by the shared harness.
type match struct {
	*harness
	t testing.TB
}

// scripted returns a match of g whose inputs the test builds.
func scripted(t testing.TB, g *Game) *match {
	return &match{harness: enginetest.New(g, nil, 0), t: t}
}

// grids holds raw grid cells (possibly an illegal layout) and weapon counts
// for both seats.
type grids struct {
	cells   [2][NumCells]byte
	weapons [2][NumShips]int
}

// newMatch commits the given grids (and weapons in custom) and flips first.
func newMatch(t testing.TB, variant string, gr grids, first engine.Seat) *match {
	t.Helper()
	g, err := New(engine.Setup{Seats: 2, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	m := scripted(t, g)
	for g.Next().Kind == engine.NeedCommit {
		n := g.Next()
		var vals []byte
		if n.Name == GridName {
			vals = gr.cells[n.Seat][:]
		} else {
			for _, w := range gr.weapons[n.Seat] {
				vals = append(vals, byte(w))
			}
		}
		leaves := make([][]byte, len(vals))
		for i, v := range vals {
			leaves[i] = []byte{v}
		}
		in, err := m.Commit(n, leaves)
		if err != nil {
			t.Fatal(err)
		}
		m.apply(in)
	}
	m.apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{int(first)}})
	return m
}

// standardMatch starts a match with layout0 and layout1.
func standardMatch(t testing.TB, variant string, w0, w1 [NumShips]int, first engine.Seat) *match {
	t.Helper()
	return newMatch(t, variant, grids{
		cells:   [2][NumCells]byte{layout0(t).Cells(), layout1(t).Cells()},
		weapons: [2][NumShips]int{w0, w1}}, first)
}

func (m *match) apply(in engine.Input) []engine.Event {
	m.t.Helper()
	ev, err := m.Apply(in)
	if err != nil {
		m.t.Fatalf("apply %s from %s: %v", in.Kind, in.Seat, err)
	}
	return ev
}

// open returns honest openings of slots from seat's secrets.
func (m *match) open(seat engine.Seat, slots []engine.Slot) []engine.Opened {
	op, err := m.Open(seat, slots)
	if err != nil {
		m.t.Fatal(err)
	}
	return op
}

// moveIn builds the input of a move by seat with the openings MustOpen asks.
func (m *match) moveIn(seat engine.Seat, move []byte) engine.Input {
	m.t.Helper()
	in, err := m.MoveInput(seat, move)
	if err != nil {
		m.t.Fatal(err)
	}
	return in
}

func fireMove(ship Ship, shots ...string) []byte {
	return engine.MustEncodeMove(Fire{Ship: ship.Key(), Shots: shots})
}

// fire applies a legal volley.
func (m *match) fire(seat engine.Seat, ship Ship, shots ...string) {
	m.t.Helper()
	m.apply(m.moveIn(seat, fireMove(ship, shots...)))
}

// honest applies the honest answer of the defender.
func (m *match) honest() []engine.Event {
	m.t.Helper()
	n := m.Game.Next()
	b, err := m.Game.Answer(n.Seat, n, m.Secrets(n.Seat))
	if err != nil {
		m.t.Fatalf("Answer: %v", err)
	}
	return m.apply(m.moveIn(n.Seat, b))
}

// answerMove encodes an answer from "C-2 miss", "C-4 hit carrier" items.
func answerMove(items ...string) []byte {
	a := Answer{Results: []ShotReport{}}
	for _, it := range items {
		f := strings.Fields(it)
		r := ShotReport{Cell: f[0], Result: f[1]}
		if len(f) > 2 {
			r.Ship = f[2]
		}
		a.Results = append(a.Results, r)
	}
	return engine.MustEncodeMove(a)
}

// reject applies in, expects an error wrapping ErrIllegal that blames
// blame and mentions want, and checks the state did not change.
func (m *match) reject(in engine.Input, blame engine.Seat, want string) error {
	m.t.Helper()
	before := m.Game.Hash()
	_, err := m.Game.Apply(in)
	if err == nil {
		m.t.Fatalf("accepted an illegal input; want error containing %q", want)
	}
	if !errors.Is(err, engine.ErrIllegal) {
		m.t.Errorf("error %v does not wrap ErrIllegal", err)
	}
	if got := engine.Blame(err, in.Seat); got != blame {
		m.t.Errorf("error %v blames %s, want %s", err, got, blame)
	}
	if !strings.Contains(err.Error(), want) {
		m.t.Errorf("error %q does not mention %q", err, want)
	}
	if m.Game.Hash() != before {
		m.t.Errorf("rejected input changed the state")
	}
	return err
}

// play runs honest volleys from scripted turns: each turn a seat fires and
// the other answers honestly.
func (m *match) volley(seat engine.Seat, ship Ship, shots ...string) []engine.Event {
	m.t.Helper()
	m.fire(seat, ship, shots...)
	return m.honest()
}
