package sea

import (
	"errors"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// The rulebook's dogfight figure: gray (defending, strength 3) rolls three
// dice, best 5; blue (attacking, strength 4) rolls four dice, best 5, and
// launches its Sidewinder for +1: 6 wins.
func TestDogfightFigure(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 6, "F8", Sidewinder) // blue, strength 4
	tg.fly(1, 2, "F9", Harpoon)    // gray, strength 3
	tg.at(0, 5)
	n := tg.need(engine.NeedOpen, "")
	if n.Seat != 1 || len(n.Open) != 1 || n.Open[0] != StrengthSlot(1, 2) {
		t.Fatalf("defender reveal %+v", n)
	}
	tg.open()
	n = tg.need(engine.NeedOpen, "")
	if n.Seat != 0 || len(n.Open) != 1 || n.Open[0] != StrengthSlot(0, 6) {
		t.Fatalf("attacker reveal %+v", n)
	}
	tg.open()
	n = tg.need(engine.NeedRandom, "dogfight")
	if n.Seat != 1 || n.Count != 3 {
		t.Fatalf("defender rolls %+v, want 3 dice acted on by seat 1", n)
	}
	tg.roll(5, 2, 1)
	// The defender carries a missile (a Harpoon, which only it knows): it is
	// asked, and declines.
	tg.need(engine.NeedMove, NeedSidewinder)
	tg.rejectsMove(1, SidewinderPlus(), "holds a Harpoon, not a Sidewinder")
	tg.mustMove(1, DoneMove())
	n = tg.need(engine.NeedRandom, "dogfight")
	if n.Seat != 0 || n.Count != 4 {
		t.Fatalf("attacker rolls %+v", n)
	}
	tg.roll(5, 3, 2, 1)
	df, ok := tg.Game.Dogfight()
	if !ok || df.Dice[0][0] != 5 || df.Dice[1][0] != 5 || df.Rolling != 1 {
		t.Fatalf("dogfight view %+v", df)
	}
	tg.need(engine.NeedMove, NeedSidewinder)
	evs := tg.mustMove(0, SidewinderPlus())
	if !hasEvent(evs, "dogfight") {
		t.Errorf("events %v", evs)
	}
	if tg.Game.Fighters(1, nil)[2].State != Lost || tg.Game.Fighters(0, nil)[6].State != InFlight {
		t.Fatal("blue's 6 did not beat gray's 5")
	}
	f := tg.Game.Fighters(0, nil)[6]
	if f.Armed || f.Strength != 4 || !f.Public {
		t.Errorf("winner %+v: Sidewinder should be spent, strength public", f)
	}
	// No more adjacent enemies: step 6 (nothing to launch) ends the turn.
	if tg.Game.Active() != 1 {
		t.Errorf("active %v", tg.Game.Active())
	}
}

func TestDogfightResults(t *testing.T) {
	tests := []struct {
		name             string
		def, att         []int
		defLost, attLost bool
	}{
		{"higher defender wins", []int{6, 1, 1}, []int{5, 5, 5, 5}, false, true},
		{"higher attacker wins", []int{4, 4, 4}, []int{1, 1, 1, 5}, true, false},
		{"a tie kills both", []int{5, 2, 1}, []int{5, 3, 2, 1}, true, true},
		{"only the highest die counts", []int{2, 2, 2}, []int{1, 1, 1, 3}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			tg.fly(0, 6, "F8", MissileNone)
			tg.fly(1, 2, "F9", MissileNone)
			tg.at(0, 5)
			tg.open()
			tg.open()
			tg.roll(tt.def...)
			tg.roll(tt.att...)
			if got := tg.Game.Fighters(1, nil)[2].State == Lost; got != tt.defLost {
				t.Errorf("defender lost = %v", got)
			}
			if got := tg.Game.Fighters(0, nil)[6].State == Lost; got != tt.attLost {
				t.Errorf("attacker lost = %v", got)
			}
		})
	}
}

func TestSidewinderReroll(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "F8", Sidewinder) // strength 2
	tg.fly(1, 4, "F9", MissileNone)
	tg.at(0, 5)
	tg.open()
	tg.open()
	tg.roll(4, 3, 3) // defender: 4
	tg.roll(1, 2)    // attacker: 2
	tg.rejectsMove(0, Move{Kind: KindSidewinder, Use: "boost"}, "not \"boost\"")
	tg.rejectsMove(0, SidewinderReroll(2), "no die 2")
	tg.rejectsMove(0, Move{Kind: KindSidewinder, Use: UsePlus, Die: 1}, "needs no die")
	tg.mustMove(0, SidewinderReroll(0))
	if n := tg.need(engine.NeedRandom, "reroll"); n.Seat != 0 || n.Count != 1 {
		t.Fatalf("reroll need %+v", n)
	}
	tg.roll(6)
	if tg.Game.Fighters(1, nil)[4].State != Lost {
		t.Fatal("the re-rolled 6 did not win")
	}
}

// The defender picks which of its fighters fights first, the attacker which
// of its fighters attacks it; dogfights go on until no enemies are adjacent.
func TestDogfightChoicesAndContinuation(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 7, "F8", MissileNone) // attacker, strength 4
	tg.fly(0, 0, "H8", MissileNone) // attacker, strength 2, next to G9 only
	tg.fly(1, 2, "F9", MissileNone) // defenders
	tg.fly(1, 3, "G9", MissileNone)
	tg.at(0, 5)
	n := tg.need(engine.NeedMove, NeedDefender)
	if n.Seat != 1 {
		t.Fatalf("defender choice by %s", n.Seat)
	}
	if c := tg.Game.DogfightCandidates(); len(c) != 2 || c[0] != 2 || c[1] != 3 {
		t.Fatalf("candidates %v", c)
	}
	tg.rejectsMove(1, FighterMove(5), "cannot dogfight now")
	tg.mustMove(1, FighterMove(3))
	tg.open() // G9's strength
	n = tg.need(engine.NeedMove, NeedAttacker)
	if c := tg.Game.DogfightCandidates(); n.Seat != 0 || len(c) != 2 {
		t.Fatalf("attacker choice %+v %v", n, c)
	}
	tg.mustMove(0, FighterMove(7))
	tg.open()
	tg.roll(1, 1, 1)    // G9: 1
	tg.roll(6, 1, 1, 1) // F8: 6, G9 is shot down
	// F9 is still next to F8: the next dogfight needs no choice and no
	// reveal for F8, whose strength is now public.
	tg.open() // F9's strength
	n = tg.need(engine.NeedRandom, "dogfight")
	if n.Count != 3 {
		t.Fatalf("F9 rolls %d dice", n.Count)
	}
	tg.roll(6, 6, 6)
	tg.roll(1, 1, 1, 1)
	if tg.Game.Fighters(0, nil)[7].State != Lost {
		t.Fatal("F8 survived a 1 against a 6")
	}
	if tg.Game.Step() == 5 {
		t.Errorf("still dogfighting: %+v", tg.Game.Next())
	}
}

func TestStrengthOpeningChecks(t *testing.T) {
	tests := []struct {
		name   string
		forge  string
		public []int // fighters of seat 1 whose strength 4 is already public
		fault  bool
		want   string
	}{
		{"a strength outside 2-4", "5", nil, true, "not one of 2-4"},
		{"garbage", "three", nil, true, "not one of 2-4"},
		{"one 4 more than the squadron has", "4", []int{6, 7}, true, "more than the squadron's 2"},
		{"a 4 while one is left", "4", []int{6}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			for _, f := range tt.public {
				tg.Game.sides[1].fighters[f].strength = 4
			}
			tg.fly(0, 6, "F8", MissileNone)
			tg.fly(1, 2, "F9", MissileNone)
			tg.Secrets(1)[StrengthSlot(1, 2)] = []byte(tt.forge)
			tg.at(0, 5)
			in := engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{{Slot: StrengthSlot(1, 2), Value: []byte(tt.forge)}}}
			if !tt.fault {
				if _, err := tg.apply(in); err != nil {
					t.Fatal(err)
				}
				return
			}
			err := tg.rejects(in, tt.want)
			var f *engine.Fault
			if !errors.As(err, &f) || f.Seat != 1 {
				t.Errorf("error %v does not blame seat 1", err)
			}
		})
	}
}
