package sea

import (
	"errors"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// tgame drives a match input by input for rule tests, keeping both seats'
// secrets like an honest referee. Scenario tests arrange pieces by writing
// the (in-package) state directly, then play the step under test through
// Apply.
type tgame struct {
	*harness
	t *testing.T
}

// testStrengths are the strengths committed by both seats in tgame: fighter
// i has testStrengths[i].
var testStrengths = []int{2, 2, 3, 3, 3, 3, 4, 4}

// The standard test layout (seat 0 at the top, seat 1 mirrored at the
// bottom): carriers down column D, destroyers in columns F and B, shallows
// on the right.
var testLayout = []struct {
	seat   engine.Seat
	piece  Piece
	cell   string
	facing Dir
}{
	{0, PieceCarrier, "D4", South},   // D4 D3 D2 D1, launch D5
	{1, PieceCarrier, "D13", North},  // D13 D14 D15 D16, launch D12
	{0, PieceDestroyer, "F4", South}, // F4 F3
	{1, PieceDestroyer, "F13", North},
	{0, PieceDestroyer, "B6", South}, // B6 B5
	{1, PieceDestroyer, "B11", North},
	{0, PieceShallow, "J2", North}, // J2 K2 J3 K3
	{1, PieceShallow, "J14", North},
	{0, PieceShallow, "J6", North}, // J6 K6 J7 K7
	{1, PieceShallow, "J10", North},
}

// newSetupGame returns a match whose strengths are committed and in which
// seat 0 won the order roll; nothing is placed yet.
func newSetupGame(t *testing.T) *tgame {
	t.Helper()
	g, err := New(engine.Setup{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	tg := &tgame{harness: enginetest.New(g, nil, 0), t: t}
	for s := range engine.Seat(2) {
		leaves := make([][]byte, len(testStrengths))
		for i, v := range testStrengths {
			leaves[i] = EncodeStrength(v)
		}
		tg.commit(s, leaves)
	}
	tg.roll(2, 5) // seat 0 rolls lower and places first
	return tg
}

// newTestGame returns a match at the start of seat 0's first turn with the
// standard layout placed.
func newTestGame(t *testing.T) *tgame {
	t.Helper()
	tg := newSetupGame(t)
	for _, p := range testLayout {
		tg.mustMove(p.seat, PlaceMove(p.piece, mustCell(t, p.cell), p.facing))
	}
	if tg.Game.Turn() != 1 || tg.Game.Active() != 0 {
		t.Fatalf("after placement: turn %d active %v", tg.Game.Turn(), tg.Game.Active())
	}
	return tg
}

func (tg *tgame) apply(in engine.Input) ([]engine.Event, error) { return tg.Apply(in) }

func (tg *tgame) need(kind engine.NeedKind, name string) engine.Need {
	tg.t.Helper()
	n := tg.Game.Next()
	if n.Kind != kind || (name != "" && n.Name != name) {
		tg.t.Fatalf("need is %s %q (%s), want %s %q", n.Kind, n.Name, n.Prompt, kind, name)
	}
	return n
}

func (tg *tgame) commit(s engine.Seat, leaves [][]byte) {
	tg.t.Helper()
	n := tg.need(engine.NeedCommit, "")
	if n.Seat != s {
		tg.t.Fatalf("commit by %s, need is for %s", s, n.Seat)
	}
	in, err := tg.Commit(n, leaves)
	if err != nil {
		tg.t.Fatal(err)
	}
	if _, err := tg.apply(in); err != nil {
		tg.t.Fatalf("commit %s: %v", n.Name, err)
	}
}

// load commits the missile of the fighter awaiting one.
func (tg *tgame) load(m Missile) {
	tg.t.Helper()
	tg.commit(tg.Game.Next().Seat, [][]byte{EncodeMissile(m)})
}

// rollInput is a joint roll of the given faces (1-6).
func rollInput(faces ...int) engine.Input {
	vals := make([]int, len(faces))
	for i, f := range faces {
		vals[i] = f - 1
	}
	return engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}
}

// roll feeds a roll of the given faces.
func (tg *tgame) roll(faces ...int) []engine.Event {
	tg.t.Helper()
	n := tg.need(engine.NeedRandom, "")
	if n.Count != len(faces) {
		tg.t.Fatalf("roll %s wants %d dice, got %v", n.Name, n.Count, faces)
	}
	evs, err := tg.apply(rollInput(faces...))
	if err != nil {
		tg.t.Fatalf("roll %v: %v", faces, err)
	}
	return evs
}

// moveInput builds an honest move input, opening what MustOpen lists.
func (tg *tgame) moveInput(s engine.Seat, m Move) engine.Input {
	tg.t.Helper()
	b := m.Encode()
	in := engine.Input{Kind: engine.NeedMove, Seat: s, Move: b}
	slots, err := tg.Game.MustOpen(s, b)
	if err != nil {
		return in
	}
	if in.Opened, err = tg.Open(s, slots); err != nil {
		tg.t.Fatal(err)
	}
	return in
}

func (tg *tgame) move(s engine.Seat, m Move) ([]engine.Event, error) {
	return tg.apply(tg.moveInput(s, m))
}

func (tg *tgame) mustMove(s engine.Seat, m Move) []engine.Event {
	tg.t.Helper()
	evs, err := tg.move(s, m)
	if err != nil {
		tg.t.Fatalf("move %s by %s: %v", m.Encode(), s, err)
	}
	return evs
}

// open answers a NeedOpen honestly.
func (tg *tgame) open() []engine.Event {
	tg.t.Helper()
	n := tg.need(engine.NeedOpen, "")
	in, err := tg.Honest(n)
	if err != nil {
		tg.t.Fatal(err)
	}
	evs, err := tg.apply(in)
	if err != nil {
		tg.t.Fatalf("open %v: %v", n.Open, err)
	}
	return evs
}

// rejects checks that in is refused with an error wrapping ErrIllegal whose
// message contains want, and that the state did not change.
func (tg *tgame) rejects(in engine.Input, want string) error {
	tg.t.Helper()
	before := tg.Game.Hash()
	_, err := tg.apply(in)
	if err == nil {
		tg.t.Fatalf("input accepted, want an error containing %q", want)
	}
	if !errors.Is(err, engine.ErrIllegal) {
		tg.t.Errorf("error %v does not wrap ErrIllegal", err)
	}
	if !strings.Contains(err.Error(), want) {
		tg.t.Errorf("error %q does not contain %q", err, want)
	}
	if tg.Game.Hash() != before {
		tg.t.Errorf("refused input changed the state")
	}
	return err
}

// rejectsMove is rejects for an honestly opened move.
func (tg *tgame) rejectsMove(s engine.Seat, m Move, want string) error {
	tg.t.Helper()
	return tg.rejects(tg.moveInput(s, m), want)
}

// fly puts fighter f of seat s in flight at cell carrying mis (MissileNone
// for no missile), committing the missile like a take-off would.
func (tg *tgame) fly(s engine.Seat, f int, cell string, mis Missile) {
	tg.t.Helper()
	ff := &tg.Game.sides[s].fighters[f]
	ff.state, ff.cell, ff.load = InFlight, mustCell(tg.t, cell), -1
	if mis != MissileNone {
		name := LoadName(len(tg.Game.loads) + 1)
		tg.Secrets(s)[engine.Slot{Owner: s, Name: name}] = EncodeMissile(mis)
		tg.Game.loads = append(tg.Game.loads, loadRec{owner: s, name: name, fighter: f})
		ff.load = len(tg.Game.loads) - 1
	}
}

// placeDestroyer moves destroyer d of seat s to bow/stern.
func (tg *tgame) placeDestroyer(s engine.Seat, d int, bow, stern string) {
	dd := &tg.Game.sides[s].destroyers[d]
	dd.bow, dd.stern, dd.alive, dd.placed = mustCell(tg.t, bow), mustCell(tg.t, stern), true, true
}

// sink removes destroyer d of seat s.
func (tg *tgame) sink(s engine.Seat, d int) { tg.Game.sides[s].destroyers[d].alive = false }

// addHarpoon puts a Harpoon of seat s in the water.
func (tg *tgame) addHarpoon(s engine.Seat, cell string) int {
	id := tg.Game.nextID
	tg.Game.nextID++
	tg.Game.harpoons = append(tg.Game.harpoons, harpoon{id: id, owner: s, cell: mustCell(tg.t, cell)})
	return id
}

// at sets the match to step of seat s's turn and enters it.
func (tg *tgame) at(s engine.Seat, step int) {
	tg.Game.active = s
	tg.Game.rolls = nil
	switch step {
	case 1:
		tg.Game.enterStep1()
	case 2:
		tg.Game.enterStep2()
	case 3:
		tg.Game.enterStep3()
	case 4:
		tg.Game.enterStep4()
	case 5:
		tg.Game.enterStep5()
	case 6:
		tg.Game.enterStep6()
	}
}

func hasEvent(evs []engine.Event, kind string) bool {
	for _, e := range evs {
		if e.Kind == kind {
			return true
		}
	}
	return false
}
