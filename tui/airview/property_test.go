package airview

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// drive makes decision want through the view's keys alone.
func (f *fixture) drive(want engine.Decision, n engine.Need) {
	f.T.Helper()
	v := f.v
	switch n.Kind {
	case engine.NeedChoice:
		var ch air.Choice
		if err := engine.DecodeMove(want.Choice, &ch); err != nil {
			f.T.Fatal(err)
		}
		hand := v.choice.hand(v)
		for _, pc := range ch.Cards {
			for range 4 {
				if v.choice.plane == pc.Plane {
					break
				}
				f.Keys(tcell.KeyTab)
			}
			i := slices.Index(hand, air.CardRef{Deck: pc.Deck, Pos: pc.Pos})
			f.Keys(string(rune('1' + i)))
		}
		f.Keys(tcell.KeyEnter)
	case engine.NeedMove:
		var m air.Move
		if err := engine.DecodeMove(want.Move, &m); err != nil {
			f.T.Fatal(err)
		}
		aim := func() {
			for range 8 {
				if v.tgt == *m.Target {
					return
				}
				f.Keys(tcell.KeyTab)
			}
		}
		switch m.Action {
		case air.ActBonus:
			if m.Bonus {
				f.Keys("y")
			} else {
				f.Keys("n")
			}
		case air.ActMove:
			f.Keys("m")
		case air.ActEnd:
			f.Keys("e")
		case air.ActFire:
			for range 2 {
				if v.weapon.String() != m.Weapon {
					f.Keys("w")
				}
			}
			aim()
			f.Keys("f")
		case air.ActDisrupt:
			aim()
			f.Keys("d")
		case air.ActWingman:
			for v.cur.X < m.To.X {
				f.Keys(tcell.KeyRight)
			}
			for v.cur.X > m.To.X {
				f.Keys(tcell.KeyLeft)
			}
			for v.cur.Y < m.To.Y {
				f.Keys(tcell.KeyUp)
			}
			for v.cur.Y > m.To.Y {
				f.Keys(tcell.KeyDown)
			}
			f.Keys("j", "j") // pick the cursor's space, then place it
		}
	}
}

// kindOf names a decision's kind for the coverage count.
func kindOf(n engine.Need, d engine.Decision) string {
	if n.Kind == engine.NeedChoice {
		return "choice"
	}
	var m air.Move
	_ = engine.DecodeMove(d.Move, &m)
	switch m.Action {
	case air.ActFire:
		return "fire " + m.Weapon
	case air.ActBonus:
		if m.Bonus {
			return "bonus taken"
		}
		return "bonus refused"
	}
	return m.Action
}

// TestEveryLegalDecisionByKeys plays random matches of 2 to 4 players in
// which seat 0's decisions are picked at random among the legal ones and
// then made through the view's keys alone: every pick must come out of
// the view exactly, every kind of decision must occur, and the board must
// draw after every step at 80x24 and 100x30 sizes.
func TestEveryLegalDecisionByKeys(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	tables := []struct {
		seats   int
		variant string
	}{{2, ""}, {3, "ffa"}, {4, "team"}, {2, "maxdamage"}, {4, ""}, {3, "maxdamage"}}
	kinds := map[string]int{}
	for seed := range uint64(seeds) {
		tb := tables[int(seed)%len(tables)]
		d := newDriver(t, tb.seats, tb.variant, seed)
		d.randomAgents(seed)
		picker := air.NewRandomBot(rand.New(rand.NewPCG(seed, 99)))
		f := newFixture(t, seed%2 == 0, 71, 28)
		small := newFixture(t, false, 51, 22)
		d.human = func(n engine.Need) engine.Decision {
			want, err := picker.Decide(context.Background(), d.g.Clone(), 0, d.known(0), n)
			if err != nil {
				t.Fatal(err)
			}
			r := f.ask(d, 0)
			f.Text()
			f.drive(want, n)
			got := boardtest.Answer(t, r)
			if n.Kind == engine.NeedMove && string(got.Move) != string(want.Move) {
				t.Fatalf("seed %d: wanted %s, the keys made %s\n%s", seed, want.Move, got.Move, f.Text())
			}
			if n.Kind == engine.NeedChoice && !sameChoice(t, got.Choice, want.Choice) {
				t.Fatalf("seed %d: wanted %s, the keys made %s\n%s", seed, want.Choice, got.Choice, f.Text())
			}
			kinds[kindOf(n, got)]++
			return got
		}
		for steps := 0; d.g.Next().Kind != engine.NeedNone; steps++ {
			if steps > 20000 {
				t.Fatalf("seed %d: no end after %d steps", seed, steps)
			}
			d.step()
			small.show(d, 0)
			small.Text()
		}
	}
	t.Logf("decisions made through the keys: %v", kinds)
	if testing.Short() {
		return
	}
	for _, k := range []string{"choice", "move", "end", "fire missile", "fire cannon", "disrupt", "wingman", "bonus taken", "bonus refused"} {
		if kinds[k] == 0 {
			t.Errorf("no %q decision was made through the keys (%v)", k, kinds)
		}
	}
}

// sameChoice reports whether two choices give the same card to each plane.
func sameChoice(t testing.TB, a, b []byte) bool {
	t.Helper()
	var ca, cb air.Choice
	if engine.DecodeMove(a, &ca) != nil || engine.DecodeMove(b, &cb) != nil || len(ca.Cards) != len(cb.Cards) {
		return false
	}
	for _, x := range ca.Cards {
		if !slices.Contains(cb.Cards, x) {
			return false
		}
	}
	return true
}
