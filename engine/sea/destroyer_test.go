package sea

import (
	"fmt"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Figure 6 and the destroyer movement rules: up to two spaces, the bow
// leading and the stern taking the bow's old space, never backwards.
func TestDestroyerMoves(t *testing.T) {
	tests := []struct {
		name      string
		arrange   func(tg *tgame)
		path      []string
		want      string // "" legal
		bow, strn string
	}{
		{"one space ahead", nil, []string{"F5"}, "", "F5", "F4"},
		{"two spaces ahead", nil, []string{"F5", "F6"}, "", "F6", "F5"},
		{"turning 45 degrees", nil, []string{"G5"}, "", "G5", "F4"},
		{"turning twice", nil, []string{"G5", "G6"}, "", "G6", "G5"},
		{"backwards", nil, []string{"F3"}, "never move backwards", "", ""},
		{"sideways", nil, []string{"G4"}, "never move backwards", "", ""},
		{"three spaces", nil, []string{"F5", "F6", "F7"}, "moves 1-2 spaces", "", ""},
		{"no move", nil, nil, "moves 1-2 spaces", "", ""},
		{"onto a shallow", func(tg *tgame) { tg.placeDestroyer(0, 0, "H5", "G4") }, []string{"I6", "J7"}, "shallow", "", ""},
		{"onto a Harpoon", func(tg *tgame) { tg.addHarpoon(1, "F5") }, []string{"F5"}, "cannot move onto the Harpoon", "", ""},
		{"through a Harpoon", func(tg *tgame) { tg.addHarpoon(0, "F5") }, []string{"F5", "F6"}, "cannot move onto the Harpoon", "", ""},
		{"next to its own carrier", nil, []string{"E5"}, "open water", "", ""},
		{"next to an enemy ship", func(tg *tgame) { tg.placeDestroyer(1, 0, "F7", "F8") }, []string{"F5", "F6"}, "open water", "", ""},
		{"one space from an enemy ship", func(tg *tgame) { tg.placeDestroyer(1, 0, "F7", "F8") }, []string{"F5"}, "", "F5", "F4"},
		{"under a fighter", func(tg *tgame) { tg.fly(1, 0, "F6", Harpoon) }, []string{"F5", "F6"}, "under the fighter", "", ""},
		{"next to a fighter", func(tg *tgame) { tg.fly(1, 0, "F7", Harpoon) }, []string{"F5", "F6"}, "", "F6", "F5"},
		{"off the board", func(tg *tgame) { tg.placeDestroyer(0, 0, "L8", "L7") }, []string{"L9"}, "", "L9", "L8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			if tt.arrange != nil {
				tt.arrange(tg)
			}
			tg.at(0, 3)
			tg.need(engine.NeedMove, NeedDestroyers)
			m := DestroyerMove(0, cells(t, tt.path...))
			if tt.want != "" {
				tg.rejectsMove(0, m, tt.want)
				return
			}
			listed := false
			for _, p := range tg.Game.DestroyerMoves(0, 0) {
				listed = listed || fmt.Sprint(p) == fmt.Sprint(m.Path)
			}
			if !listed {
				t.Errorf("legal move %v not in DestroyerMoves %v", m.Path, tg.Game.DestroyerMoves(0, 0))
			}
			tg.mustMove(0, m)
			d := tg.Game.Destroyers(0)[0]
			if d.Bow != mustCell(t, tt.bow) || d.Stern != mustCell(t, tt.strn) || !d.Acted {
				t.Errorf("destroyer at %s/%s acted %v, want %s/%s", d.Bow, d.Stern, d.Acted, tt.bow, tt.strn)
			}
		})
	}
}

// Every move DestroyerMoves lists is accepted, and nothing else is.
func TestDestroyerMovesComplete(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(1, 0, "F6", Harpoon)
	tg.addHarpoon(1, "H6")
	tg.at(0, 3)
	listed := map[string]bool{}
	for _, p := range tg.Game.DestroyerMoves(0, 0) {
		listed[fmt.Sprint(p)] = true
	}
	for _, a := range Neighbors(mustCell(t, "F4")) {
		for _, p := range [][]Cell{{a}} {
			_, _, err := checkDestroyerMove(tg.Game.board(), 0, 0, tg.Game.sides[0].destroyers[0], p)
			if (err == nil) != listed[fmt.Sprint(p)] {
				t.Errorf("path %v: err %v, listed %v", p, err, listed[fmt.Sprint(p)])
			}
		}
		for _, b := range Neighbors(a) {
			p := []Cell{a, b}
			_, _, err := checkDestroyerMove(tg.Game.board(), 0, 0, tg.Game.sides[0].destroyers[0], p)
			if (err == nil) != listed[fmt.Sprint(p)] {
				t.Errorf("path %v: err %v, listed %v", p, err, listed[fmt.Sprint(p)])
			}
		}
	}
	if len(listed) == 0 {
		t.Fatal("no moves listed")
	}
}

// Figure 7: a fighter 4 spaces away is hit only by a 5 or a 6.
func TestDestroyerFireFigure7(t *testing.T) {
	for roll := 1; roll <= 6; roll++ {
		t.Run(fmt.Sprintf("roll %d", roll), func(t *testing.T) {
			tg := newTestGame(t)
			tg.fly(1, 2, "F8", Harpoon)
			tg.at(0, 3)
			var dist int
			for _, ft := range tg.Game.FireTargets(0, 0) {
				if ft.Target == (Target{Kind: TargetFighter, Index: 2}) {
					dist = ft.Distance
				}
			}
			if dist != 4 {
				t.Fatalf("distance %d, want 4", dist)
			}
			tg.mustMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 2}))
			n := tg.need(engine.NeedRandom, "fire")
			if f, ok := tg.Game.PendingFire(); n.Seat != 0 || !ok || f.Distance != 4 {
				t.Fatalf("fire %+v %+v", n, f)
			}
			evs := tg.roll(roll)
			hit := roll >= 5
			if lost := tg.Game.Fighters(1, nil)[2].State == Lost; lost != hit {
				t.Errorf("roll %d: fighter lost = %v, want %v (%v)", roll, lost, hit, evs)
			}
		})
	}
}

func TestDestroyerFireRules(t *testing.T) {
	tests := []struct {
		name    string
		arrange func(tg *tgame)
		d       int
		target  Target
		want    string
	}{
		{"an island blocks the line of fire", func(tg *tgame) {
			tg.placeDestroyer(0, 0, "I5", "I4")
			tg.fly(1, 0, "L8", Harpoon)
		}, 0, Target{Kind: TargetFighter, Index: 0}, "island blocks"},
		{"a clear line beside the islands", func(tg *tgame) {
			tg.placeDestroyer(0, 0, "I5", "I4")
			tg.fly(1, 0, "L4", Harpoon)
		}, 0, Target{Kind: TargetFighter, Index: 0}, ""},
		{"out of range", func(tg *tgame) { tg.fly(1, 0, "F10", Harpoon) }, 0, Target{Kind: TargetFighter, Index: 0}, "out of range"},
		{"the carrier in range", func(tg *tgame) { tg.placeDestroyer(0, 0, "F10", "F9") }, 0, Target{Kind: TargetCarrier}, ""},
		{"the carrier out of range", nil, 0, Target{Kind: TargetCarrier}, "out of range"},
		{"a fighter on deck", nil, 0, Target{Kind: TargetFighter, Index: 0}, "not in flight"},
		{"its own Harpoon", func(tg *tgame) { tg.addHarpoon(0, "F6") }, 0, Target{Kind: TargetHarpoon, Index: 1}, "no enemy Harpoon"},
		{"an enemy Harpoon", func(tg *tgame) { tg.addHarpoon(1, "F6") }, 0, Target{Kind: TargetHarpoon, Index: 1}, ""},
		{"a sunk destroyer", func(tg *tgame) {
			tg.placeDestroyer(1, 0, "F8", "F9")
			tg.sink(1, 0)
		}, 0, Target{Kind: TargetDestroyer, Index: 0}, "not afloat"},
		{"from a sunk destroyer", func(tg *tgame) { tg.sink(0, 1) }, 1, Target{Kind: TargetCarrier}, "not afloat"},
		{"an unknown target", nil, 0, Target{Kind: "island"}, "unknown kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			if tt.arrange != nil {
				tt.arrange(tg)
			}
			tg.at(0, 3)
			m := FireMove(tt.d, tt.target)
			if tt.want == "" {
				tg.mustMove(0, m)
				return
			}
			tg.rejectsMove(0, m, tt.want)
		})
	}
}

func TestDestroyerHits(t *testing.T) {
	tests := []struct {
		name   string
		target Target
		check  func(t *testing.T, tg *tgame)
	}{
		{"destroyer sunk", Target{Kind: TargetDestroyer, Index: 0}, func(t *testing.T, tg *tgame) {
			if tg.Game.Destroyers(1)[0].Afloat {
				t.Error("still afloat")
			}
		}},
		{"Harpoon destroyed", Target{Kind: TargetHarpoon, Index: 1}, func(t *testing.T, tg *tgame) {
			if len(tg.Game.Harpoons()) != 0 {
				t.Error("still in the water")
			}
		}},
		{"carrier damaged", Target{Kind: TargetCarrier}, func(t *testing.T, tg *tgame) {
			if !tg.Game.Admiral(1).Damaged {
				t.Error("not damaged")
			}
			tg.need(engine.NeedRandom, "damage")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			tg.placeDestroyer(0, 0, "F10", "F9")
			tg.placeDestroyer(1, 0, "H12", "H13")
			tg.addHarpoon(1, "G8")
			tg.at(0, 3)
			tg.mustMove(0, FireMove(0, tt.target))
			tg.roll(6)
			tt.check(t, tg)
		})
	}
}

// Each destroyer moves or fires once in step 3; the other may still act.
func TestDestroyerActsOnce(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(1, 0, "F8", Harpoon)
	tg.at(0, 3)
	tg.mustMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}))
	tg.roll(1)
	tg.rejectsMove(0, FireMove(0, Target{Kind: TargetFighter, Index: 0}), "already moved or fired")
	tg.rejectsMove(0, DestroyerMove(0, cells(t, "F5")), "already moved or fired")
	tg.mustMove(0, DestroyerMove(1, cells(t, "B7")))
	// Neither destroyer can act again: step 3 is over by itself.
	if tg.Game.Step() == 3 {
		t.Errorf("still in step 3: %+v", tg.Game.Next())
	}
}

// Figure 8: the opponent's defensive fire misses with a 3 at 3 spaces; each
// of its destroyers fires once, possibly at the same target.
func TestDefensiveFireFigure8(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "E10", Harpoon)
	tg.at(0, 4)
	n := tg.need(engine.NeedMove, NeedDefense)
	if n.Seat != 1 {
		t.Fatalf("defensive fire by %s", n.Seat)
	}
	target := Target{Kind: TargetFighter, Index: 0}
	tg.rejectsMove(0, FireMove(0, target), "seat 1 is to move")
	tg.rejectsMove(1, DestroyerMove(0, cells(t, "F12")), "expected one of")
	tg.mustMove(1, FireMove(0, target))
	if n := tg.need(engine.NeedRandom, "defense"); n.Seat != 1 {
		t.Fatalf("defense roll acted on by %s", n.Seat)
	}
	if f, _ := tg.Game.PendingFire(); f.Distance != 3 {
		t.Fatalf("distance %d, want 3", f.Distance)
	}
	evs := tg.roll(3)
	if !hasEvent(evs, "miss") || tg.Game.Fighters(0, nil)[0].State != InFlight {
		t.Fatalf("a 3 at 3 spaces did not miss: %v", evs)
	}
	tg.rejectsMove(1, FireMove(0, target), "already fired")
	tg.mustMove(1, FireMove(1, target)) // the same target again, from the other destroyer
	tg.roll(4)
	if tg.Game.Fighters(0, nil)[0].State != Lost {
		t.Fatal("a 4 at 3 spaces did not hit")
	}
}

func TestDestroyerStepsSkipWhenIdle(t *testing.T) {
	tg := newTestGame(t)
	tg.sink(0, 0)
	tg.sink(0, 1)
	tg.at(0, 3)
	// No destroyers of seat 0, and seat 1's have nothing in range.
	if tg.Game.Step() == 3 || tg.Game.Step() == 4 {
		t.Fatalf("step %d with nothing to do: %+v", tg.Game.Step(), tg.Game.Next())
	}
}
