package seaview

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/keys"
)

// finish is a key sequence that always completes the decision of a mode:
// what a player in a hurry presses.
func finish(v *View) []any {
	switch v.mode {
	case mStrengths, mPlace, mDamage:
		return []any{"x", tcell.KeyEnter}
	case mPath:
		if v.path.req.Launch && len(v.path.dests) > 0 {
			return []any{tcell.KeyTab, tcell.KeyEnter}
		}
		return []any{"d"}
	case mReturn, mSidewinder:
		return []any{tcell.KeyEnter}
	case mScramble:
		return []any{"f"}
	case mLoad:
		return []any{"h"}
	case mDestroyers, mLaunch:
		return []any{"d"}
	case mHarpoonPick, mDogfighter:
		return []any{tcell.KeyTab, tcell.KeyEnter}
	}
	return nil
}

// monkey presses random keys of the ones the view declares, and clicks
// random spaces and rows, until the decision is made or it gives up.
func monkey(t *testing.T, v *View, r *rand.Rand, presses int) {
	for i := 0; i < presses && v.life.Req != nil && v.life.Req.Pending(); i++ {
		if r.IntN(5) == 0 {
			boardtest.Render(t, v, 71, 27)
			action := tview.MouseLeftClick
			if r.IntN(4) == 0 {
				action = tview.MouseRightClick
			}
			if r.IntN(3) == 0 && len(v.geo.rows) > 0 {
				row := v.geo.rows[r.IntN(len(v.geo.rows))]
				boardtest.Mouse(v, action, row.X, row.Y)
			} else {
				x, y := v.geo.screenOf(sea.Cell(r.IntN(sea.NumCells)))
				boardtest.Mouse(v, action, x, y)
			}
			continue
		}
		bs := v.Bindings()
		var ks []keys.Key
		for _, b := range bs {
			ks = append(ks, b.Keys...)
		}
		if len(ks) == 0 {
			return
		}
		k := ks[r.IntN(len(ks))]
		if k.Key == tcell.KeyRune {
			boardtest.Press(t, v, string(k.Rune))
		} else {
			boardtest.Press(t, v, k.Key)
		}
	}
}

// TestRandomKeysPlayLegalMatches drives seat 0 through the view with
// random keys and clicks against the strong bot: every decision the view
// sends must be one the engine accepts, and every match must end.
func TestRandomKeysPlayLegalMatches(t *testing.T) {
	t.Parallel()
	matches := 3
	if testing.Short() {
		matches = 1
	}
	seen := map[string]bool{}
	for seed := range uint64(matches) {
		d := newDriver(t, seed+100)
		r := rand.New(rand.NewPCG(seed, 77))
		v := newView()
		for steps := 0; d.g.Next().Kind != engine.NeedNone; steps++ {
			if steps > 20000 {
				t.Fatalf("seed %d: the match did not end", seed)
			}
			n := d.g.Next()
			if n.Seat != 0 || (n.Kind != engine.NeedMove && n.Kind != engine.NeedCommit) {
				d.step()
				continue
			}
			req := d.ask(v)
			seen[n.Name] = true
			monkey(t, v, r, 30)
			if req.Pending() {
				boardtest.Press(t, v, finish(v)...)
			}
			if req.Pending() {
				t.Fatalf("seed %d: %s %s not answered by %v: %q", seed, n.Kind, n.Name, finish(v), v.Prompt())
			}
			d.answer(req)
		}
	}
	for _, name := range []string{sea.StrengthsName, sea.NeedPlace, sea.NeedScramble, sea.NeedDestroyers, sea.NeedLaunch} {
		if !seen[name] {
			t.Errorf("no %s decision in %d matches", name, matches)
		}
	}
	t.Logf("decisions seen: %v", seen)
}
