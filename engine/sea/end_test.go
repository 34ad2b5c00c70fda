package sea

import (
	"errors"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// wipe leaves seat s with only fighter keep (in flight at cell; -1 for
// none) and no destroyers.
func (tg *tgame) wipe(s engine.Seat, keep int, cell string) {
	for f := range FightersPerSide {
		if f != keep {
			tg.Game.loseFighter(s, f)
		}
	}
	if keep >= 0 {
		tg.fly(s, keep, cell, MissileNone)
	}
	tg.sink(s, 0)
	tg.sink(s, 1)
}

// reveal plays the final reveal honestly and returns the outcome.
func (tg *tgame) reveal() engine.Outcome {
	tg.t.Helper()
	for tg.Game.Next().Kind == engine.NeedOpen {
		tg.open()
	}
	if tg.Game.Next().Kind != engine.NeedNone {
		tg.t.Fatalf("after the reveal: %+v", tg.Game.Next())
	}
	return tg.Game.Outcome()
}

func TestWinByDestroyingEverything(t *testing.T) {
	tg := newTestGame(t)
	tg.wipe(1, 0, "F8")
	tg.at(0, 3)
	tg.mustMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}))
	evs := tg.roll(6)
	if !hasEvent(evs, "end") {
		t.Fatalf("no end: %v", evs)
	}
	o := tg.reveal()
	if len(o.Winners) != 1 || o.Winners[0] != 0 || !strings.Contains(o.Reason, "destroyed every enemy") {
		t.Fatalf("outcome %+v", o)
	}
}

func TestNotOverWhileAHarpoonIsInTheWater(t *testing.T) {
	tg := newTestGame(t)
	tg.wipe(1, 0, "F8")
	tg.addHarpoon(1, "A9")
	tg.at(0, 3)
	tg.mustMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}))
	tg.roll(6)
	if tg.Game.decided {
		t.Fatal("over with an enemy Harpoon in the water")
	}
	tg.mustMove(0, DoneMove()) // destroyer 1 need not act
	// Seat 1's turn: its last Harpoon moves, misses and is removed.
	for tg.Game.Active() != 1 {
		n := tg.Game.Next()
		t.Fatalf("unexpected need %+v", n)
	}
	tg.roll(1)
	tg.mustMove(1, PathMove(nil))
	o := tg.reveal()
	if len(o.Winners) != 1 || o.Winners[0] != 0 {
		t.Fatalf("outcome %+v", o)
	}
}

func TestBothFleetsDestroyed(t *testing.T) {
	tests := []struct {
		name     string
		damaged  [2]bool
		winners  []engine.Seat
		wantDraw bool
	}{
		{"the undamaged carrier wins", [2]bool{true, false}, []engine.Seat{1}, false},
		{"the other undamaged carrier wins", [2]bool{false, true}, []engine.Seat{0}, false},
		{"both damaged tie", [2]bool{true, true}, nil, true},
		{"both undamaged tie", [2]bool{false, false}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			tg.wipe(0, 6, "F8")
			tg.wipe(1, 2, "F9")
			for s, d := range tt.damaged {
				tg.Game.sides[s].carrier.damaged = d
			}
			tg.at(0, 5)
			tg.open()
			tg.open()
			tg.roll(5, 2, 1)
			tg.roll(5, 3, 2, 1) // a tie: both last fighters go
			o := tg.reveal()
			if o.Draw != tt.wantDraw || len(o.Winners) != len(tt.winners) || (len(o.Winners) == 1 && o.Winners[0] != tt.winners[0]) {
				t.Fatalf("outcome %+v", o)
			}
		})
	}
}

func TestTurnLimit(t *testing.T) {
	tg := newTestGame(t)
	tg.Game.sides[1].carrier.damaged = true
	tg.Game.turn = MaxTurns
	tg.Game.endTurn()
	o := tg.reveal()
	if len(o.Winners) != 1 || o.Winners[0] != 0 || !strings.Contains(o.Reason, "turn limit") {
		t.Fatalf("outcome %+v", o)
	}
}

func TestFinalReveal(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "H8", Sidewinder)
	tg.fly(0, 1, "H9", Harpoon)
	tg.Game.sides[0].fighters[3].strength = 3 // revealed in an earlier dogfight
	tg.Game.sides[1].carrier.damaged = true
	tg.addHarpoon(0, "D10")
	tg.at(0, 1)
	tg.roll(3)
	tg.mustMove(0, PathMove(cells(t, "D11", "D12", "D13")))
	n := tg.need(engine.NeedOpen, "")
	if n.Seat != 0 || len(n.Open) != 7+2 {
		t.Fatalf("reveal %+v", n)
	}
	for _, s := range n.Open {
		if s == StrengthSlot(0, 3) {
			t.Errorf("the public strength is asked again")
		}
	}
	// Leaving a slot out, or opening one twice, is refused.
	all := make([]engine.Opened, 0, len(n.Open))
	for _, s := range n.Open {
		v, _ := tg.Secrets(0).Value(s)
		all = append(all, engine.Opened{Slot: s, Value: v})
	}
	tg.rejects(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: all[1:]}, "must be opened")
	tg.rejects(engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: append(all, all[0])}, "twice")
	tg.rejects(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: all}, "expected seat 0")
	o := tg.reveal()
	if !o.Done || o.Winners[0] != 0 {
		t.Fatalf("outcome %+v", o)
	}
	if _, err := tg.apply(rollInput(1)); err == nil || !errors.Is(err, engine.ErrIllegal) {
		t.Errorf("input after the end: %v", err)
	}
	for _, f := range tg.Game.Fighters(0, nil) {
		if f.Strength == 0 {
			t.Errorf("fighter %d strength still unknown after the reveal", f.Index)
		}
	}
}

func TestFinalRevealChecks(t *testing.T) {
	tests := []struct {
		name  string
		forge func(tg *tgame)
		want  string
	}{
		{"a squadron with three 4s", func(tg *tgame) { tg.Secrets(0)[StrengthSlot(0, 0)] = EncodeStrength(4) }, "3 fighters of strength 4"},
		{"a bad strength leaf", func(tg *tgame) { tg.Secrets(0)[StrengthSlot(0, 1)] = []byte{0} }, "not one of 2-4"},
		{"a bad missile leaf", func(tg *tgame) { tg.Secrets(0)[engine.Slot{Owner: 0, Name: LoadName(1)}] = []byte("X") }, "neither S nor H"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			tg.fly(0, 0, "H8", Sidewinder)
			tg.Game.sides[1].carrier.damaged = true
			tg.addHarpoon(0, "D10")
			tg.at(0, 1)
			tg.roll(3)
			tg.mustMove(0, PathMove(cells(t, "D11", "D12", "D13")))
			tt.forge(tg)
			n := tg.need(engine.NeedOpen, "")
			in := engine.Input{Kind: engine.NeedOpen, Seat: 0}
			for _, s := range n.Open {
				v, _ := tg.Secrets(0).Value(s)
				in.Opened = append(in.Opened, engine.Opened{Slot: s, Value: v})
			}
			err := tg.rejects(in, tt.want)
			var f *engine.Fault
			if !errors.As(err, &f) || f.Seat != 0 {
				t.Errorf("error %v does not blame seat 0", err)
			}
		})
	}
}

// TestBothFleetsDestroyedWithAHarpoonInTheWater: the last fighters of both
// seats fall in one (tied) dogfight while a Harpoon is in the water. The
// rulebook's two end sentences meet; the reading that follows both: the
// Harpoon finishes its move on its owner's turn, then "if both players'
// destroyers and fighters are destroyed, the player with no damage on the
// carrier wins" decides (both damaged or both undamaged: a tie). The old
// engine ended the match at once for the Harpoon's owner.
func TestBothFleetsDestroyedWithAHarpoonInTheWater(t *testing.T) {
	hitCarrier0 := []string{"D6", "D5", "D4"}    // from D7 into seat 0's carrier
	hitCarrier1 := []string{"D11", "D12", "D13"} // from D10 into seat 1's carrier
	tests := []struct {
		name    string
		owner   engine.Seat // whose Harpoon is in the water
		cell    string
		damaged [2]bool
		path    []string // the Harpoon's move (roll 3); nil: it misses
		winners []engine.Seat
		reason  string
	}{
		{"a miss, both undamaged: tie", 1, "D7", [2]bool{false, false}, nil, nil, "both fleets were destroyed: tie"},
		{"a miss, the owner's carrier damaged: the other wins", 1, "D7", [2]bool{false, true}, nil, []engine.Seat{0}, "undamaged carrier wins"},
		{"a miss, the other carrier damaged: the owner wins", 1, "D7", [2]bool{true, false}, nil, []engine.Seat{1}, "undamaged carrier wins"},
		{"a hit damages the undamaged carrier: the owner wins", 1, "D7", [2]bool{false, false}, hitCarrier0, []engine.Seat{1}, "undamaged carrier wins"},
		{"a hit on the damaged carrier sinks it", 1, "D7", [2]bool{true, true}, hitCarrier0, []engine.Seat{1}, "sank the enemy carrier"},
		{"a hit evens the damage: tie", 1, "D7", [2]bool{false, true}, hitCarrier0, nil, "both fleets were destroyed: tie"},
		{"the active seat's Harpoon, a miss, both undamaged: tie", 0, "D10", [2]bool{false, false}, nil, nil, "both fleets were destroyed: tie"},
		{"the active seat's Harpoon hits: the owner wins", 0, "D10", [2]bool{false, false}, hitCarrier1, []engine.Seat{0}, "undamaged carrier wins"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			tg.wipe(0, 6, "F8")
			tg.wipe(1, 2, "F9")
			tg.addHarpoon(tt.owner, tt.cell)
			for s, d := range tt.damaged {
				tg.Game.sides[s].carrier.damaged = d
			}
			tg.at(0, 5)
			tg.open()
			tg.open()
			tg.roll(5, 2, 1)
			evs := tg.roll(5, 3, 2, 1) // a tie: both last fighters go
			if tg.Game.decided || hasEvent(evs, "end") {
				t.Fatalf("decided with a Harpoon in the water: %+v", tg.Game.Outcome())
			}
			// The turns pass by themselves (nothing to do) until the
			// Harpoon's owner moves it: seat 1 at once, seat 0 after seat
			// 1's empty turn.
			if n := tg.Game.Next(); n.Kind != engine.NeedRandom || tg.Game.Active() != tt.owner {
				t.Fatalf("after the dogfight: need %+v, active %s", n, tg.Game.Active())
			}
			tg.roll(3)
			tg.mustMove(tt.owner, PathMove(cells(t, tt.path...)))
			o := tg.reveal()
			if len(o.Winners) != len(tt.winners) || len(o.Winners) == 1 && o.Winners[0] != tt.winners[0] ||
				o.Draw != (len(tt.winners) == 0) || !strings.Contains(o.Reason, tt.reason) {
				t.Fatalf("outcome %+v, want winners %v (%q)", o, tt.winners, tt.reason)
			}
		})
	}
}
