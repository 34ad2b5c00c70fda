package sea

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func flight(t *testing.T, f, die int, path ...string) Flight {
	return Flight{Fighter: f, Die: die, Path: cells(t, path...)}
}

// Figure 4: a roll of 5, 4, 4 and 2 moves four fighters up to those
// numbers; the first space in front of the carrier counts as 1; each
// fighter that takes off loads a missile.
func TestScrambleFigure4(t *testing.T) {
	tg := newTestGame(t)
	n := tg.need(engine.NeedRandom, "scramble")
	if n.Count != 4 || n.Seat != 0 {
		t.Fatalf("scramble roll %+v", n)
	}
	tg.roll(5, 4, 4, 2)
	if got := tg.Game.ScrambleRoll(); len(got) != 4 || got[0] != 5 || got[3] != 2 {
		t.Fatalf("ScrambleRoll = %v", got)
	}
	tg.mustMove(0, ScrambleMove([]Flight{
		flight(t, 0, 0, "D5", "D6", "D7", "D8", "D9"),
		flight(t, 1, 1, "D5", "E6", "E7", "E8"),
		flight(t, 2, 2, "D5", "C6", "C7", "C8"),
		flight(t, 3, 3, "D5", "E5"),
	}))
	for i, want := range []int{0, 1, 2, 3} {
		n := tg.need(engine.NeedCommit, LoadName(i+1))
		if f, ok := tg.Game.PendingLoad(); !ok || f != want || n.Size != 1 || n.Seat != 0 {
			t.Fatalf("load %d: fighter %d %v, need %+v", i, f, ok, n)
		}
		tg.load(Harpoon)
	}
	fs := tg.Game.Fighters(0, tg.Secrets(0))
	for i, want := range []string{"D9", "E8", "C8", "E5"} {
		if fs[i].State != InFlight || fs[i].Cell != mustCell(t, want) || !fs[i].Armed || fs[i].Missile != Harpoon {
			t.Errorf("fighter %d: %+v, want in flight at %s with a Harpoon", i, fs[i], want)
		}
	}
	if pub := tg.Game.Fighters(0, nil); pub[0].Missile != MissileNone || pub[0].Strength != 0 {
		t.Errorf("public view shows secrets: %+v", pub[0])
	}
	if tg.Game.Step() != 3 {
		t.Errorf("after loading, step %d", tg.Game.Step())
	}
}

func TestScrambleRules(t *testing.T) {
	tests := []struct {
		name    string
		arrange func(tg *tgame)
		dice    []int
		flights func(t *testing.T) []Flight
		want    string // "" means legal
	}{
		{"launch space counts as 1", nil, []int{1, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5")} }, ""},
		{"path longer than the die", nil, []int{2, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5", "D6", "D7")} }, "path of 3 spaces with a die of 2"},
		{"take-off not from the launch space", nil, []int{3, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "E5", "E6")} }, "launch space"},
		{"steps must be neighbours", nil, []int{3, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5", "D7")} }, "not next to"},
		{"same die twice", nil, []int{3, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5"), flight(t, 1, 0, "D5", "D6")} }, "not an unused die"},
		{"same fighter twice", nil, []int{3, 3, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5", "D6"), flight(t, 0, 1, "D7")} }, "cannot fly twice"},
		{"two fighters end on one space", nil, []int{3, 3, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5", "D6"), flight(t, 1, 1, "D5", "D6")} }, "empty space"},
		{"fly over a fighter", nil, []int{3, 3, 1, 1},
			func(t *testing.T) []Flight {
				return []Flight{flight(t, 0, 0, "D5", "D6"), flight(t, 1, 1, "D5", "D6", "D7")}
			}, ""},
		{"fly over a ship, end beside it", func(tg *tgame) { tg.fly(0, 0, "G5", Harpoon) }, []int{2, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "F4", "E4")} }, ""},
		{"end on a ship", func(tg *tgame) { tg.fly(0, 0, "G5", Harpoon) }, []int{2, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "F4")} }, "must end on an empty space"},
		{"no-fly zone over a shallow", func(tg *tgame) { tg.fly(0, 0, "H6", Harpoon) }, []int{3, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "I6", "J6", "J5")} }, "no-fly zone"},
		{"stop next to an enemy fighter", func(tg *tgame) { tg.fly(1, 0, "F8", Harpoon) }, []int{4, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5", "E6", "E7", "E8")} }, "must stop at E7"},
		{"stopping next to an enemy fighter", func(tg *tgame) { tg.fly(1, 0, "F8", Harpoon) }, []int{4, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5", "E6", "E7")} }, ""},
		{"more flights than dice", func(tg *tgame) {
			tg.Game.sides[0].fighters[7].returned = true
			tg.Game.dice = []int{0, 0, 0}
		}, []int{1, 1, 1},
			func(t *testing.T) []Flight {
				return []Flight{flight(t, 0, 0, "D5"), flight(t, 1, 1, "D5"), flight(t, 2, 2, "D5"), flight(t, 3, 3, "D5")}
			}, "4 flights with 3 dice"},
		{"a lost fighter", func(tg *tgame) { tg.Game.loseFighter(0, 0) }, []int{1, 1, 1, 1},
			func(t *testing.T) []Flight { return []Flight{flight(t, 0, 0, "D5")} }, "cannot scramble"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			if tt.arrange != nil {
				tt.arrange(tg)
			}
			tg.roll(tt.dice...)
			m := ScrambleMove(tt.flights(t))
			if tt.want == "" {
				tg.mustMove(0, m)
				return
			}
			tg.rejectsMove(0, m, tt.want)
		})
	}
}

// Figure 5: returning one fighter to the carrier leaves three dice; the
// returned fighter cannot scramble again this turn, but can the next.
func TestReturnFigure5(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "H8", Sidewinder)
	tg.fly(0, 1, "H9", Harpoon)
	tg.at(0, 2)
	tg.need(engine.NeedMove, NeedReturn)
	tg.rejectsMove(0, ReturnMove([]int{2}), "not in flight")
	tg.rejectsMove(0, ReturnMove([]int{0, 0}), "named twice")
	tg.mustMove(0, ReturnMove([]int{0}))
	if n := tg.need(engine.NeedRandom, "scramble"); n.Count != 3 {
		t.Fatalf("rolled %d dice after one return, want 3", n.Count)
	}
	fs := tg.Game.Fighters(0, nil)
	if fs[0].State != OnDeck || !fs[0].Returned || fs[0].Armed {
		t.Fatalf("returned fighter %+v", fs[0])
	}
	tg.roll(6, 6, 6)
	tg.rejectsMove(0, ScrambleMove([]Flight{flight(t, 0, 0, "D5")}), "cannot scramble this turn")
	tg.mustMove(0, ScrambleMove([]Flight{flight(t, 2, 0, "D5")}))
	tg.load(Harpoon)
	// Its old missile stays committed and unopened (revealed at the end).
	if un := tg.Game.unopened(0); len(un) != 8+3 {
		t.Errorf("unopened slots %v", un)
	}
	// Next turn of seat 0 it may scramble again.
	tg.Game.startTurn(0)
	if tg.Game.Fighters(0, nil)[0].Returned {
		t.Error("returned flag survives into the next turn")
	}
}

func TestReturnCounts(t *testing.T) {
	tests := []struct {
		name    string
		flying  int
		lost    int
		returns []int
		dice    int // 0: no scramble roll at all
	}{
		{"no return, four dice", 2, 0, nil, 4},
		{"two returns, two dice", 3, 0, []int{0, 1}, 2},
		{"four returns, no roll", 5, 0, []int{0, 1, 2, 3}, 0},
		{"fewer than four fighters still roll four dice", 2, 6, nil, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			spaces := []string{"H8", "H9", "H10", "I9", "G9"}
			for i := range tt.flying {
				tg.fly(0, i, spaces[i], Harpoon)
			}
			for i := range tt.lost {
				tg.Game.loseFighter(0, FightersPerSide-1-i)
			}
			tg.at(0, 2)
			tg.mustMove(0, ReturnMove(tt.returns))
			n := tg.Game.Next()
			if tt.dice == 0 {
				if n.Kind == engine.NeedRandom && n.Name == "scramble" {
					t.Fatalf("scramble roll with every die spent")
				}
				return
			}
			if n.Kind != engine.NeedRandom || n.Count != tt.dice {
				t.Fatalf("need %+v, want %d scramble dice", n, tt.dice)
			}
		})
	}
	tg := newTestGame(t)
	for i, c := range []string{"H8", "H9", "H10", "I9", "G9"} {
		tg.fly(0, i, c, Harpoon)
	}
	tg.at(0, 2)
	tg.rejectsMove(0, ReturnMove([]int{0, 1, 2, 3, 4}), "at most 4")
}

// FighterDestinations agrees with a brute-force search over every path the
// rules allow.
func TestFighterDestinations(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(1, 0, "F8", Harpoon)
	tg.fly(1, 1, "B9", Harpoon)
	tg.fly(0, 1, "H5", Sidewinder)
	b := tg.Game.board()
	for _, tc := range []struct {
		f       int
		start   string
		takeOff bool
		die     int
	}{{0, "D5", true, 4}, {0, "D5", true, 5}, {1, "H5", false, 4}, {1, "H5", false, 2}} {
		var want = map[Cell]bool{}
		var walk func(path []Cell)
		walk = func(path []Cell) {
			if len(path) > 0 && checkFighterPath(b, 0, tc.f, mustCell(t, tc.start), tc.takeOff, tc.die, path) == nil {
				want[path[len(path)-1]] = true
			}
			if len(path) == tc.die {
				return
			}
			if len(path) == 0 && tc.takeOff {
				walk([]Cell{mustCell(t, tc.start)})
				return
			}
			from := mustCell(t, tc.start)
			if len(path) > 0 {
				from = path[len(path)-1]
			}
			for _, n := range Neighbors(from) {
				walk(append(append([]Cell(nil), path...), n))
			}
		}
		walk(nil)
		if !tc.takeOff {
			delete(want, mustCell(t, tc.start)) // flying out and back is legal but no destination
		}
		got := map[Cell]bool{}
		for _, d := range tg.Game.FighterDestinations(0, tc.f, tc.die, nil) {
			got[d.Cell] = true
			if err := checkFighterPath(b, 0, tc.f, mustCell(t, tc.start), tc.takeOff, tc.die, d.Path); err != nil {
				t.Errorf("fighter %d die %d: path to %s: %v", tc.f, tc.die, d.Cell, err)
			}
		}
		if len(got) != len(want) {
			t.Errorf("fighter %d die %d: %d destinations, brute force finds %d", tc.f, tc.die, len(got), len(want))
		}
		for c := range want {
			if !got[c] {
				t.Errorf("fighter %d die %d: %s missing", tc.f, tc.die, c)
			}
		}
	}
}
