package air

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// findCard returns the lowest card number of a kind and own maneuver.
func findCard(t testing.TB, k CardKind, turn Turn, dice int) int {
	t.Helper()
	for _, c := range NavCards {
		if c.Kind == k && c.Own.Turn == turn && c.Own.Dice == dice {
			return c.Number
		}
	}
	t.Fatalf("no %s card %s with %d dice", k, turn, dice)
	return 0
}

// turnGame returns a game in which plane id is about to act with card num;
// every card was dealt, so the round's end asks for a reshuffle.
func turnGame(t testing.TB, seats int, variant string, id, num int) *Game {
	t.Helper()
	g, err := New(engine.Setup{Seats: seats, Variant: variant})
	if err != nil {
		t.Fatal(err)
	}
	card, _ := CardByNumber(num)
	g.decks = []deckState{{size: DeckSize, next: DeckSize, known: make([]int, DeckSize)}}
	g.phase = phTurn
	g.order = []Played{{Plane: id, Card: CardRef{Deck: 1, Pos: 0}, Number: num}}
	g.ts = turnState{index: 0, plane: id, card: card, disrupted: card.Kind != Disruption}
	return g
}

func place(g *Game, id int, p Pos, h Heading) {
	g.planes[id].Pos = p
	g.planes[id].Heading = h
}

func mustApply(t testing.TB, g *Game, in engine.Input) []engine.Event {
	t.Helper()
	ev, err := g.Apply(in)
	if err != nil {
		t.Fatalf("apply %s: %v", in.Kind, err)
	}
	return ev
}

func doMove(t testing.TB, g *Game, m Move) []engine.Event {
	t.Helper()
	return mustApply(t, g, engine.Input{Kind: engine.NeedMove, Seat: g.Next().Seat, Move: m.Encode()})
}

// blackRoll returns roll values whose black faces add up to total.
func blackRoll(t testing.TB, count, total int) []int {
	t.Helper()
	if total < count || total > 3*count {
		t.Fatalf("%d black dice cannot total %d", count, total)
	}
	vals := make([]int, count)
	left := total - count // each die shows at least 1
	for i := range vals {
		extra := min(left, 2)
		left -= extra
		vals[i] = 2 * extra // face index 0 → 1, 2 → 2, 4 → 3
	}
	return vals
}

func doRoll(t testing.TB, g *Game, vals []int) []engine.Event {
	t.Helper()
	n := g.Next()
	if n.Kind != engine.NeedRandom || n.Count != len(vals) {
		t.Fatalf("want a roll of %d dice, need is %+v", len(vals), n)
	}
	return mustApply(t, g, engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals})
}

// flyTotal plays the own move of the active plane with a given total.
func flyTotal(t testing.TB, g *Game, total int) {
	t.Helper()
	doMove(t, g, PlainMove(ActMove))
	doRoll(t, g, blackRoll(t, g.Next().Count, total))
	if g.pend.kind == pendBonus {
		doMove(t, g, BonusMove(false))
	}
}

func at(t testing.TB, row, col int) Pos {
	t.Helper()
	p, ok := PosAt(row, col)
	if !ok {
		t.Fatalf("no space (%d,%d)", row, col)
	}
	return p
}

func TestLoopingExamples(t *testing.T) {
	bankRight4 := findCard(t, Standard, BankRight, 4)
	cases := []struct {
		name  string
		total int
		want  Pos
	}{
		{"fig 8A: six diagonal steps reach (70,95)", 6, at(t, 70, 95)},
		{"fig 8A: the seventh loops to (80,15)", 7, at(t, 80, 15)},
		{"fig 8A: total 9 ends two spaces on", 9, at(t, 100, 35)},
		{"fig 8B: total 12 loops twice", 12, at(t, 10, 65)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := turnGame(t, 2, VariantStandard, 1, bankRight4) // the F-22: no +1 question
			place(g, 1, at(t, 10, 35), North)
			place(g, 0, Pos{8, 0}, North)
			flyTotal(t, g, c.total)
			if p := g.planes[1]; p.Pos != c.want || p.Heading != NorthEast {
				t.Fatalf("ended at %s heading %s, want %s heading NE", p.Pos, p.Heading, c.want)
			}
		})
	}
}

func TestPosLabels(t *testing.T) {
	cols, rows := EdgeLabels()
	if len(cols) != Columns || cols[0] != 15 || cols[Columns-1] != 95 || len(rows) != Rows || rows[0] != 10 || rows[Rows-1] != 120 {
		t.Fatalf("edge labels %v / %v", cols, rows)
	}
	p := at(t, 10, 35)
	if p != (Pos{2, 0}) {
		t.Fatalf("(10,35) is %+v", p)
	}
	if r, c := (Pos{8, 11}).Labels(); r != 120 || c != 95 {
		t.Fatalf("top right corner is (%d,%d)", r, c)
	}
	for _, bad := range [][2]int{{0, 15}, {130, 15}, {10, 105}, {15, 15}, {10, 20}} {
		if _, ok := PosAt(bad[0], bad[1]); ok {
			t.Errorf("(%d,%d) accepted", bad[0], bad[1])
		}
	}
}

func TestManeuvers(t *testing.T) {
	cases := []struct {
		name    string
		turn    Turn
		from    Heading
		start   Pos
		total   int
		want    Pos
		heading Heading
	}{
		{"straight north", Straight, North, Pos{4, 2}, 3, Pos{4, 5}, North},
		{"bank left from north flies north-west", BankLeft, North, Pos{4, 2}, 2, Pos{2, 4}, NorthWest},
		{"bank right from east flies south-east", BankRight, East, Pos{4, 5}, 2, Pos{6, 3}, SouthEast},
		{"bank left from north-west flies west", BankLeft, NorthWest, Pos{4, 5}, 3, Pos{1, 5}, West},
		{"straight south loops off the bottom edge", Straight, South, Pos{4, 1}, 3, Pos{4, 10}, South},
		{"straight west loops off the left edge", Straight, West, Pos{1, 4}, 2, Pos{8, 4}, West},
	}
	// The roll of four dice is at least 4, so test the flight directly.
	for _, c := range cases {
		t.Run("fly/"+c.name, func(t *testing.T) {
			g := turnGame(t, 2, VariantStandard, 1, findCard(t, Standard, c.turn, 1))
			place(g, 1, c.start, c.from)
			place(g, 0, Pos{8, 11}, North)
			place(g, 2, Pos{0, 11}, South)
			place(g, 3, Pos{7, 11}, South)
			var ev events
			g.fly(&ev, 1, c.turn, c.total, true)
			if p := g.planes[1]; p.Pos != c.want || p.Heading != c.heading {
				t.Fatalf("ended at %+v heading %s, want %+v heading %s", p.Pos, p.Heading, c.want, c.heading)
			}
		})
	}
}

func TestOccupiedSpaces(t *testing.T) {
	straight1 := findCard(t, Standard, Straight, 1)
	t.Run("fly over a plane", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, straight1)
		place(g, 1, Pos{4, 2}, North)
		place(g, 2, Pos{4, 3}, South)
		place(g, 0, Pos{0, 0}, North)
		var ev events
		g.fly(&ev, 1, Straight, 2, true)
		if g.planes[1].Pos != (Pos{4, 4}) {
			t.Fatalf("at %+v, want (4,4)", g.planes[1].Pos)
		}
	})
	t.Run("ending on a plane moves on to the next free space", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, straight1)
		place(g, 1, Pos{4, 2}, North)
		place(g, 2, Pos{4, 4}, South)
		place(g, 3, Pos{4, 5}, South)
		place(g, 0, Pos{0, 0}, North)
		var ev events
		g.fly(&ev, 1, Straight, 2, true)
		if g.planes[1].Pos != (Pos{4, 6}) {
			t.Fatalf("at %+v, want (4,6)", g.planes[1].Pos)
		}
	})
	t.Run("an occupied edge space loops to the other side", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, straight1)
		place(g, 1, Pos{4, 9}, North)
		place(g, 2, Pos{4, 11}, South)
		place(g, 0, Pos{0, 0}, North)
		var ev events
		g.fly(&ev, 1, Straight, 2, true)
		if g.planes[1].Pos != (Pos{4, 0}) {
			t.Fatalf("at %+v, want (4,0): re-entered on the next number", g.planes[1].Pos)
		}
	})
	t.Run("maximum damage: stop before a plane and both roll for damage", func(t *testing.T) {
		g := turnGame(t, 2, VariantMaxDamage, 1, findCard(t, Standard, Straight, 2))
		place(g, 1, Pos{4, 2}, North)
		place(g, 2, Pos{4, 4}, South)
		place(g, 0, Pos{0, 0}, North)
		flyTotal(t, g, 3)
		if g.planes[1].Pos != (Pos{4, 3}) {
			t.Fatalf("at %+v, want (4,3), the space before the collision", g.planes[1].Pos)
		}
		n := g.Next()
		if n.Kind != engine.NeedRandom || n.Count != 8 || !strings.Contains(n.Name, "collide") {
			t.Fatalf("want 8 damage dice for the collision, got %+v", n)
		}
		// 4 → fuel tank for the mover (shot down), 7 → wings for the other.
		doRoll(t, g, append(blackRoll(t, 4, 4), blackRoll(t, 4, 7)...))
		if !g.planes[1].Down || g.planes[2].Damage[Wings] != 1 {
			t.Fatalf("damage not applied to both: %+v / %+v", g.planes[1], g.planes[2])
		}
	})
	t.Run("maximum damage: a plane right ahead blocks the first step", func(t *testing.T) {
		g := turnGame(t, 2, VariantMaxDamage, 1, straight1)
		place(g, 1, Pos{4, 2}, North)
		place(g, 2, Pos{4, 3}, South)
		place(g, 0, Pos{0, 0}, North)
		flyTotal(t, g, 1)
		if g.planes[1].Pos != (Pos{4, 2}) || g.pend.kind != pendCollide {
			t.Fatalf("at %+v pending %d: want to stay and collide", g.planes[1].Pos, g.pend.kind)
		}
	})
}

func TestCone(t *testing.T) {
	from := Pos{4, 5}
	cases := []struct {
		name    string
		h       Heading
		to      Pos
		missile bool
		cannon  bool
	}{
		{"B straight ahead", North, Pos{4, 8}, true, true},
		{"A forward diagonal", North, Pos{6, 7}, true, true},
		{"C curved", North, Pos{5, 7}, true, false},
		{"beside", North, Pos{5, 5}, false, false},
		{"behind", North, Pos{4, 3}, false, false},
		{"outside the wedge", North, Pos{7, 7}, false, false},
		{"east heading curved", East, Pos{7, 4}, true, false},
		{"east heading straight", East, Pos{8, 5}, true, true},
		{"west heading behind", West, Pos{6, 5}, false, false},
		{"south heading diagonal", South, Pos{2, 3}, true, true},
		{"north-east heading along the diagonal", NorthEast, Pos{6, 7}, true, true},
		{"north-east heading straight up is a wedge edge", NorthEast, Pos{4, 9}, true, true},
		{"north-east heading curved", NorthEast, Pos{5, 7}, true, false},
		{"north-east heading: west is outside", NorthEast, Pos{3, 7}, false, false},
		{"south-west heading curved", SouthWest, Pos{2, 4}, true, false},
		{"same space", North, Pos{4, 5}, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := InCone(from, c.h, c.to, Missile); got != c.missile {
				t.Errorf("missile: %v, want %v", got, c.missile)
			}
			if got := InCone(from, c.h, c.to, Cannon); got != c.cannon {
				t.Errorf("cannon: %v, want %v", got, c.cannon)
			}
		})
	}
	t.Run("fire never loops", func(t *testing.T) {
		// A plane at the top edge facing north: a target on the bottom row
		// straight "ahead" across the edge is not in the cone.
		if InCone(Pos{4, 11}, North, Pos{4, 0}, Cannon) {
			t.Fatal("fire looped over the edge")
		}
	})
}

func TestFire(t *testing.T) {
	straight1 := findCard(t, Standard, Straight, 1)
	setup := func(t *testing.T, dist int) *Game {
		g := turnGame(t, 2, VariantStandard, 1, straight1)
		place(g, 1, Pos{4, 1}, North)
		place(g, 0, Pos{0, 0}, North)
		place(g, 2, Pos{4, 1 + dist}, South)
		place(g, 3, Pos{8, 11}, South)
		return g
	}
	cases := []struct {
		name   string
		weapon Weapon
		dist   int
		faces  []int // roll values
		hit    bool
	}{
		{"fig 10B: missile 2+5+0 = 7 hits at 7", Missile, 7, []int{2, 4, 0}, true},
		{"fig 10C: cannon 5+0 = 5 hits at 5", Cannon, 5, []int{4, 0}, true},
		{"fig 10D: missile 0+5+0 = 5 misses at 6", Missile, 6, []int{0, 4, 0}, false},
		{"fig 10E: cannon 0+2 = 2 misses at 3", Cannon, 3, []int{0, 2}, false},
		{"a sum equal to the distance hits", Cannon, 2, []int{2, 0}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := setup(t, c.dist)
			missiles := g.planes[1].Missiles
			doMove(t, g, FireMove(c.weapon, 2))
			if c.weapon == Missile && g.planes[1].Missiles != missiles-1 {
				t.Fatal("a missile fired was not removed")
			}
			if c.weapon == Cannon && g.planes[1].Missiles != missiles {
				t.Fatal("cannon fire used a missile")
			}
			doRoll(t, g, c.faces)
			n := g.Next()
			gotDamage := n.Kind == engine.NeedRandom && strings.HasSuffix(n.Name, "/damage")
			if gotDamage != c.hit {
				t.Fatalf("hit = %v, want %v (next need %+v)", gotDamage, c.hit, n)
			}
		})
	}
	t.Run("one shot a turn", func(t *testing.T) {
		g := setup(t, 2)
		doMove(t, g, FireMove(Cannon, 2))
		doRoll(t, g, []int{0, 0})
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: FireMove(Cannon, 2).Encode()}); !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("second shot: %v", err)
		}
	})
	t.Run("fire before and after moving", func(t *testing.T) {
		g := setup(t, 3)
		doMove(t, g, PlainMove(ActMove))
		doRoll(t, g, blackRoll(t, 1, 1))
		doMove(t, g, FireMove(Cannon, 2)) // after moving, now 2 spaces away
		if g.pend.dist != 2 {
			t.Fatalf("distance %d, want 2", g.pend.dist)
		}
	})
	t.Run("ending the turn holds fire", func(t *testing.T) {
		g := setup(t, 3)
		doMove(t, g, PlainMove(ActMove))
		doRoll(t, g, blackRoll(t, 1, 1))
		if g.Next().Kind != engine.NeedMove {
			t.Fatal("turn over with a shot on")
		}
		doMove(t, g, PlainMove(ActEnd))
		if act, ok := g.Active(); ok && act.Plane == 1 {
			t.Fatalf("the turn goes on after ending it: %+v", g.Next())
		}
	})
	t.Run("no missile left", func(t *testing.T) {
		g := setup(t, 3)
		g.planes[1].Missiles = 0
		_, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: FireMove(Missile, 2).Encode()})
		if !errors.Is(err, engine.ErrIllegal) || !strings.Contains(err.Error(), "no missile") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("no fire at own wingman", func(t *testing.T) {
		g := setup(t, 3)
		place(g, 0, Pos{4, 3}, North)
		_, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: FireMove(Cannon, 0).Encode()})
		if !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestDamage(t *testing.T) {
	for sum := 4; sum <= 12; sum++ {
		want := map[int]Location{4: FuelTank, 5: Tail, 6: Tail, 7: Wings, 8: Wings, 9: Wings, 10: Engine, 11: Engine, 12: Cockpit}[sum]
		if got := DamageChart(sum); got != want {
			t.Errorf("sum %d: %s, want %s", sum, got, want)
		}
	}
	cases := []struct {
		name  string
		kind  PlaneKind
		sums  []int
		downs int // after how many hits it goes down (0: stays up)
	}{
		{"one fuel tank hit", F22, []int{4}, 1},
		{"one cockpit hit", F22, []int{12}, 1},
		{"text: 10 or 11 is the engine; a second engine hit downs it", F35, []int{10, 11}, 2},
		{"two tail hits", F22, []int{5, 6}, 2},
		{"F-35: three wing hits", F35, []int{7, 8, 9}, 3},
		{"F-22: three wing hits are not enough", F22, []int{7, 8, 9}, 0},
		{"F-22: four wing hits", F22, []int{7, 8, 9, 7}, 4},
		{"one tail, one engine, two wings: still flying", F35, []int{5, 10, 7, 8}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := turnGame(t, 2, VariantStandard, 0, 1)
			id := 2 + int(c.kind)
			for i, s := range c.sums {
				var ev events
				g.damage(&ev, id, blackRoll(t, 4, s))
				if want := c.downs != 0 && i+1 >= c.downs; g.planes[id].Down != want {
					t.Fatalf("after hit %d (sum %d): down = %v, want %v", i+1, s, g.planes[id].Down, want)
				}
			}
			if g.planes[id].Down && g.planes[id].Missiles != 0 {
				t.Fatal("a downed plane keeps its missiles")
			}
		})
	}
}

func TestF35Bonus(t *testing.T) {
	straight1 := findCard(t, Standard, Straight, 1)
	for _, take := range []bool{false, true} {
		g := turnGame(t, 2, VariantStandard, 0, straight1)
		place(g, 0, Pos{4, 1}, North)
		place(g, 1, Pos{0, 0}, North)
		doMove(t, g, PlainMove(ActMove))
		doRoll(t, g, blackRoll(t, 1, 2))
		if g.Next().Kind != engine.NeedMove || g.pend.kind != pendBonus {
			t.Fatalf("the F-35 is not asked about its +1: %+v", g.Next())
		}
		if ms := g.LegalMoves(); len(ms) != 2 {
			t.Fatalf("bonus choices: %v", ms)
		}
		doMove(t, g, BonusMove(take))
		if got, exp := g.planes[0].Pos.Y-1, map[bool]int{false: 2, true: 3}[take]; got != exp {
			t.Fatalf("take=%v: flew %d spaces, want %d", take, got, exp)
		}
	}
	t.Run("the F-22 is not asked", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, straight1)
		place(g, 1, Pos{4, 1}, North)
		doMove(t, g, PlainMove(ActMove))
		doRoll(t, g, blackRoll(t, 1, 2))
		if g.pend.kind == pendBonus {
			t.Fatal("the F-22 got the F-35's option")
		}
	})
}

func TestWingman(t *testing.T) {
	num := findCard(t, Wingman, Straight, 1)
	setup := func(t *testing.T) *Game {
		g := turnGame(t, 2, VariantStandard, 1, num)
		place(g, 0, Pos{0, 5}, East) // the partner on the left edge
		place(g, 1, Pos{6, 6}, South)
		place(g, 2, Pos{1, 6}, South) // an opponent next to the partner
		place(g, 3, Pos{8, 11}, South)
		return g
	}
	cases := []struct {
		name string
		to   Pos
		ok   bool
	}{
		{"next to the partner", Pos{1, 5}, true},
		{"diagonally next to the partner", Pos{1, 4}, true},
		{"occupied", Pos{1, 6}, false},
		{"across the edge (no looping)", Pos{8, 5}, false},
		{"off the board", Pos{-1, 5}, false},
		{"two spaces away", Pos{2, 5}, false},
		{"the partner's own space", Pos{0, 5}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := setup(t)
			h := g.Hash()
			_, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: WingmanMove(c.to).Encode()})
			if c.ok != (err == nil) {
				t.Fatalf("err = %v, want ok = %v", err, c.ok)
			}
			if err != nil && g.Hash() != h {
				t.Fatal("a rejected move changed the state")
			}
			if c.ok && (g.planes[1].Pos != c.to || g.planes[1].Heading != East) {
				t.Fatalf("at %+v heading %s", g.planes[1].Pos, g.planes[1].Heading)
			}
		})
	}
	t.Run("not once the partner is down", func(t *testing.T) {
		g := setup(t)
		g.planes[0].Down = true
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: WingmanMove(Pos{1, 5}).Encode()}); err == nil {
			t.Fatal("wingman move without a wingman")
		}
	})
	t.Run("not with a standard card", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, findCard(t, Standard, Straight, 1))
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: WingmanMove(Pos{4, 1}).Encode()}); err == nil {
			t.Fatal("wingman move with a standard card")
		}
	})
	t.Run("or as a standard move", func(t *testing.T) {
		g := setup(t)
		flyTotal(t, g, 1)
		if g.planes[1].Pos != (Pos{6, 5}) {
			t.Fatalf("at %+v", g.planes[1].Pos)
		}
	})
}

func TestDisruption(t *testing.T) {
	var card Card
	for _, c := range NavCards {
		if c.Kind == Disruption && c.Opp.Turn == BankLeft && c.Own.Dice == 1 {
			card = c
			break
		}
	}
	setup := func(t *testing.T, seats int, variant string) *Game {
		g := turnGame(t, seats, variant, 1, card.Number)
		place(g, 1, Pos{4, 1}, North)
		place(g, 0, Pos{0, 0}, North)
		place(g, 2, Pos{4, 8}, South)
		place(g, 3, Pos{8, 11}, South)
		return g
	}
	t.Run("fig 7: own move, then bank the opponent left", func(t *testing.T) {
		g := setup(t, 2, VariantStandard)
		flyTotal(t, g, 1)
		if g.Next().Kind != engine.NeedMove {
			t.Fatal("the turn ended before the disruption")
		}
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: PlainMove(ActEnd).Encode()}); err == nil {
			t.Fatal("ended the turn without the disruption move")
		}
		doMove(t, g, DisruptMove(2))
		n := g.Next()
		if n.Kind != engine.NeedRandom || n.Count != card.Opp.Dice || n.Seat != 0 {
			t.Fatalf("want the disruptor's %d dice, got %+v", card.Opp.Dice, n)
		}
		doRoll(t, g, blackRoll(t, card.Opp.Dice, card.Opp.Dice))
		// South banked left is south-east (the plane's own left).
		p := g.planes[2]
		want := Pos{4 + card.Opp.Dice, 8 - card.Opp.Dice}
		if p.Heading != SouthEast || p.Pos != want {
			t.Fatalf("opponent at %+v heading %s, want %+v SE", p.Pos, p.Heading, want)
		}
	})
	t.Run("disrupt first, then move", func(t *testing.T) {
		g := setup(t, 2, VariantStandard)
		doMove(t, g, DisruptMove(3))
		doRoll(t, g, blackRoll(t, card.Opp.Dice, card.Opp.Dice))
		flyTotal(t, g, 1)
	})
	t.Run("not an own plane", func(t *testing.T) {
		g := setup(t, 2, VariantStandard)
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: DisruptMove(0).Encode()}); err == nil {
			t.Fatal("disrupted an own plane")
		}
	})
	t.Run("not a teammate", func(t *testing.T) {
		g := setup(t, 4, VariantTeam)
		// Seat 0 (Blue) and seat 3 (Tiger) are a team.
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: DisruptMove(6).Encode()}); err == nil {
			t.Fatal("disrupted a teammate")
		}
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: DisruptMove(4).Encode()}); err != nil {
			t.Fatalf("could not disrupt an opponent: %v", err)
		}
	})
	t.Run("no bonus for a disrupted F-35", func(t *testing.T) {
		g := setup(t, 2, VariantStandard)
		doMove(t, g, DisruptMove(2))
		doRoll(t, g, blackRoll(t, card.Opp.Dice, card.Opp.Dice))
		if g.pend.kind == pendBonus {
			t.Fatal("asked for the opponent F-35's +1")
		}
	})
}

func TestCardTable(t *testing.T) {
	var kinds [3]int
	var nineOwn, nineOpp [9]int
	thirds := map[CardKind][3]int{}
	for i, c := range NavCards {
		if c.Number != i+1 {
			t.Fatalf("card %d numbered %d", i+1, c.Number)
		}
		kinds[c.Kind]++
		th := thirds[c.Kind]
		th[i/20]++
		thirds[c.Kind] = th
		if c.Kind == Disruption {
			nineOwn[int(c.Own.Turn)+3*slices.Index(diceCounts[:], c.Own.Dice)]++
			nineOpp[int(c.Opp.Turn)+3*slices.Index(diceCounts[:], c.Opp.Dice)]++
		}
	}
	if kinds != [3]int{36, 12, 12} {
		t.Fatalf("kinds %v, want 36 standard, 12 wingman, 12 disruption", kinds)
	}
	for k, th := range thirds {
		for i, n := range th {
			if n == 0 {
				t.Errorf("%s cards missing from third %d of the numbers", k, i)
			}
		}
	}
	for i := range 9 {
		if nineOwn[i] == 0 || nineOpp[i] == 0 {
			t.Errorf("maneuver %v missing from the disruption cards", nine(i))
		}
	}
}

func TestTurnOrderByCardNumber(t *testing.T) {
	r := newReferee(t, 2, VariantStandard, 3, randomAgents(2, 3))
	r.runTo(t, func(n engine.Need) bool { return r.Game.phase == phTurn })
	ch := r.Game.Chosen()
	if len(ch) != 4 {
		t.Fatalf("%d cards chosen, want 4", len(ch))
	}
	if !slices.IsSortedFunc(ch, func(a, b Played) int { return a.Number - b.Number }) {
		t.Fatalf("not in card order: %+v", ch)
	}
	act, _ := r.Game.Active()
	if act.Plane != ch[0].Plane {
		t.Fatalf("plane %d acts first, want %d (lowest card)", act.Plane, ch[0].Plane)
	}
}

// A table the rules do not allow is refused as illegal input, as every
// other game's New does, so that a caller tells it from a broken engine
// with errors.Is.
func TestNewRefusesAsIllegal(t *testing.T) {
	for _, s := range []engine.Setup{
		{Seats: 5}, {Seats: 1, Variant: VariantMaxDamage}, {Seats: 2, Variant: VariantFreeForAll},
		{Seats: 3, Variant: VariantTeam}, {Seats: 2, Variant: "salvo"},
	} {
		if _, err := New(s); !errors.Is(err, engine.ErrIllegal) {
			t.Errorf("New(%+v) = %v; want an error wrapping engine.ErrIllegal", s, err)
		}
	}
}
