package sea

import (
	"errors"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// The cheats of issue 4, point 5, each refused by Apply (or, for the two
// the referee catches, made catchable by the engine naming the exact slot
// and refusing values outside the rules).

// Cheat 1: a fighter whose opened strength differs from its commitment.
// The referee checks every opening against its Merkle commitment; the
// engine's part is to ask for exactly that slot (so a substituted slot is
// refused) and to refuse a value the squadron cannot have.
func TestCheatStrengthDiffersFromCommitment(t *testing.T) {
	setup := func(t *testing.T) *tgame {
		tg := newTestGame(t)
		tg.fly(0, 6, "F8", MissileNone)
		tg.fly(1, 2, "F9", MissileNone)
		tg.at(0, 5)
		return tg
	}
	t.Run("the need names exactly the dogfighter's slot", func(t *testing.T) {
		tg := setup(t)
		n := tg.Game.Next()
		if n.Kind != engine.NeedOpen || len(n.Open) != 1 || n.Open[0] != (engine.Slot{Owner: 1, Name: StrengthsName, Index: 2}) {
			t.Fatalf("need %+v", n)
		}
	})
	t.Run("opening another fighter's slot", func(t *testing.T) {
		tg := setup(t)
		tg.rejects(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{{Slot: StrengthSlot(1, 6), Value: EncodeStrength(4)}}}, "not required")
	})
	t.Run("opening an extra slot", func(t *testing.T) {
		tg := setup(t)
		tg.rejects(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{
			{Slot: StrengthSlot(1, 2), Value: EncodeStrength(3)}, {Slot: StrengthSlot(1, 6), Value: EncodeStrength(4)}}}, "not required")
	})
	t.Run("the referee's check catches a changed value", func(t *testing.T) {
		tg := setup(t)
		n := tg.Game.Next()
		committed, _ := tg.Secrets(1).Value(n.Open[0])
		forged := EncodeStrength(4)
		if string(committed) == string(forged) {
			t.Fatal("test needs a different value")
		}
		// What the referee compares: the opened value against the leaf
		// committed at exactly n.Open[0] (here the harness's fake root).
		leaves := make([][]byte, len(testStrengths))
		for i := range leaves {
			leaves[i] = tg.Secrets(1)[StrengthSlot(1, i)]
		}
		if enginetest.Root(leaves) != tg.Game.sides[1].root {
			t.Fatal("the committed leaves do not give the committed root")
		}
		leaves[2] = forged
		if enginetest.Root(leaves) == tg.Game.sides[1].root {
			t.Fatal("a changed leaf kept the committed root")
		}
	})
	t.Run("a fifth strength the squadron does not have", func(t *testing.T) {
		tg := setup(t)
		tg.Game.sides[1].fighters[6].strength = 4
		tg.Game.sides[1].fighters[7].strength = 4
		err := tg.rejects(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{{Slot: StrengthSlot(1, 2), Value: EncodeStrength(4)}}}, "more than the squadron's")
		if engine.Blame(err, 0) != 1 {
			t.Errorf("blames %v", engine.Blame(err, 0))
		}
	})
	t.Run("the final reveal re-checks the multiset", func(t *testing.T) {
		tg := setup(t)
		tg.Game.finish([]engine.Seat{0}, "test")
		tg.Secrets(0)[StrengthSlot(0, 0)] = EncodeStrength(3)
		n := tg.Game.Next()
		in := engine.Input{Kind: engine.NeedOpen, Seat: 0}
		for _, s := range n.Open {
			v, _ := tg.Secrets(0).Value(s)
			in.Opened = append(in.Opened, engine.Opened{Slot: s, Value: v})
		}
		err := tg.rejects(in, "squadron")
		var f *engine.Fault
		if !errors.As(err, &f) || f.Seat != 0 {
			t.Errorf("%v does not blame seat 0", err)
		}
	})
}

// Cheat 2: a Harpoon that was a Sidewinder (and the reverse): the launch or
// the Sidewinder use must open the loaded missile, whose value must match.
func TestCheatHarpoonThatWasASidewinder(t *testing.T) {
	t.Run("launching a Sidewinder as a Harpoon", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 0, "D10", Sidewinder)
		tg.at(0, 6)
		tg.rejectsMove(0, LaunchMove(0), "holds a Sidewinder, not a Harpoon")
	})
	t.Run("launching without opening the missile", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 0, "D10", Harpoon)
		tg.at(0, 6)
		tg.rejects(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: LaunchMove(0).Encode()}, "must be opened")
	})
	t.Run("opening another fighter's missile", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 0, "D10", Sidewinder)
		tg.fly(0, 1, "D9", Harpoon)
		tg.at(0, 6)
		in := engine.Input{Kind: engine.NeedMove, Seat: 0, Move: LaunchMove(0).Encode(),
			Opened: []engine.Opened{{Slot: engine.Slot{Owner: 0, Name: "load/2"}, Value: []byte("H")}}}
		tg.rejects(in, "not required")
	})
	t.Run("launching from a fighter without a missile", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 0, "D10", Harpoon)
		tg.fly(0, 1, "D9", MissileNone)
		tg.at(0, 6)
		tg.rejectsMove(0, LaunchMove(1), "carries no missile")
	})
	t.Run("a Harpoon used as a Sidewinder", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 6, "F8", Harpoon)
		tg.fly(1, 2, "F9", MissileNone)
		tg.at(0, 5)
		tg.open()
		tg.open()
		tg.roll(5, 2, 1)
		tg.roll(5, 3, 2, 1)
		tg.rejectsMove(0, SidewinderPlus(), "holds a Harpoon, not a Sidewinder")
	})
	t.Run("a garbled missile", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 0, "D10", Harpoon)
		tg.at(0, 6)
		in := tg.moveInput(0, LaunchMove(0))
		in.Opened[0].Value = []byte("HH")
		tg.rejects(in, "neither S nor H")
	})
}

// Cheat 3: illegal moves and paths (a sample across the turn; the rule
// tests cover each rule).
func TestCheatIllegalMoveOrPath(t *testing.T) {
	tg := newTestGame(t)
	tg.roll(2, 2, 2, 2)
	tests := []struct {
		name string
		in   engine.Input
		want string
	}{
		{"a fighter flying too far", tg.moveInput(0, ScrambleMove([]Flight{flight(t, 0, 0, "D5", "D6", "D7")})), "with a die of 2"},
		{"a fighter path standing still", tg.moveInput(0, ScrambleMove([]Flight{flight(t, 0, 0, "D5", "D5")})), "not next to"},
		{"a move of the wrong kind", tg.moveInput(0, DestroyerMove(0, cells(t, "F5"))), "expected one of"},
		{"a move out of turn", tg.moveInput(1, ScrambleMove(nil)), "seat 0 is to move"},
		{"an undecodable move", engine.Input{Kind: engine.NeedMove, Seat: 0, Move: []byte(`{"kind":"scramble","flights":[{"fighter":0,"die":0,"path":["Z9"]}]}`)}, "undecodable"},
		{"a move with unknown fields", engine.Input{Kind: engine.NeedMove, Seat: 0, Move: []byte(`{"kind":"scramble","teleport":true}`)}, "undecodable"},
		{"a move with another kind's fields", engine.Input{Kind: engine.NeedMove, Seat: 0, Move: []byte(`{"kind":"scramble","destroyer":1}`)}, "has no \"destroyer\""},
		{"a wrong input kind", engine.Input{Kind: engine.NeedOpen, Seat: 0}, "expected a move input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tg.rejects(tt.in, tt.want) })
	}
}

// Cheat 4: a forged roll. Values that no die can show, or the wrong number
// of dice, are refused here; a forged value inside the range is caught by
// the referee's hash-chain check before the engine sees it.
func TestCheatForgedRoll(t *testing.T) {
	tg := newTestGame(t)
	tests := []struct {
		name string
		in   engine.Input
		want string
	}{
		{"a 7", engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0, 1, 2, 6}}, "outside [0, 6)"},
		{"a negative value", engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0, -1, 2, 3}}, "outside [0, 6)"},
		{"too few dice", engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{5, 5, 5}}, "3 values, expected 4"},
		{"too many dice", engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{5, 5, 5, 5, 5}}, "5 values, expected 4"},
		{"a roll claimed by one seat", engine.Input{Kind: engine.NeedRandom, Seat: 0, Random: []int{5, 5, 5, 5}}, "from no seat"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tg.rejects(tt.in, tt.want) })
	}
}

// Cheat 5: a destroyer firing twice, in step 3 or in step 4.
func TestCheatDestroyerFiringTwice(t *testing.T) {
	t.Run("step 3", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(1, 0, "F8", Harpoon)
		tg.at(0, 3)
		tg.mustMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}))
		tg.roll(2)
		tg.rejectsMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}), "destroyer 0 has already moved or fired this turn")
	})
	t.Run("step 4", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(0, 0, "E10", Harpoon)
		tg.at(0, 4)
		tg.mustMove(1, FireMove(0, Target{Kind: TargetFighter, Index: 0}))
		tg.roll(1)
		tg.rejectsMove(1, FireMove(0, Target{Kind: TargetFighter, Index: 0}), "destroyer 0 has already fired this turn")
	})
	t.Run("moved, then firing", func(t *testing.T) {
		tg := newTestGame(t)
		tg.fly(1, 0, "F8", Harpoon)
		tg.at(0, 3)
		tg.mustMove(0, DestroyerMove(0, cells(t, "G5")))
		tg.rejectsMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}), "already moved or fired")
	})
}
