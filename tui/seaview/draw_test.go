package seaview

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// midGame returns a position of turn 6 or later with fighters of both
// sides in the air and a Harpoon in the water.
func midGame(t *testing.T) *driver {
	t.Helper()
	return findWith(t, 1, newEager, func(d *driver, n engine.Need) bool {
		air := [2]int{}
		for s := range engine.Seat(2) {
			for _, f := range d.g.Fighters(s, nil) {
				if f.State == sea.InFlight {
					air[s]++
				}
			}
		}
		return d.g.Turn() >= 6 && air[0] > 0 && air[1] > 0 && len(d.g.Harpoons()) > 0
	})
}

// wantGlyph is the glyph a space should have, worked out from the
// engine's accessors independently of the view's drawing code.
func wantGlyph(g *sea.Game, me engine.Seat, sec engine.Secrets, spectator bool, c sea.Cell) string {
	o := g.OccupantAt(c)
	own := o.Owner == me
	switch o.Kind {
	case sea.CarrierPiece:
		cv := g.Carrier(o.Owner)
		switch {
		case c == cv.Bow && own:
			return ownCarrierBow[cv.Facing]
		case c == cv.Bow:
			return foeCarrierBow[cv.Facing]
		case cv.Damaged:
			return gDamaged
		case own:
			return gOwnHull
		}
		return gFoeHull
	case sea.DestroyerPiece:
		dv := g.Destroyers(o.Owner)[o.Index]
		switch {
		case c == dv.Bow:
			return destroyerBow[dv.Facing]
		case own:
			return gOwnHull
		}
		return gFoeHull
	case sea.FighterPiece:
		view := sec
		if !own && !spectator {
			view = nil
		}
		f := g.Fighters(o.Owner, view)[o.Index]
		switch {
		case own:
			return fmt.Sprint(f.Strength)
		case f.Strength == 0:
			return gFoeHidden
		}
		return foeStrength[f.Strength]
	case sea.HarpoonPiece:
		if own {
			return gOwnHarp
		}
		return gFoeHarp
	}
	if g.Shallow(c) {
		return gShallow
	}
	for s := range engine.Seat(2) {
		if g.Carrier(s).Launch == c {
			return gLaunch
		}
	}
	return ""
}

func checkGlyphs(t *testing.T, v *View, scr tcell.SimulationScreen, g *sea.Game, me engine.Seat, sec engine.Secrets, spectator bool) {
	t.Helper()
	for c := sea.Cell(0); c < sea.NumCells; c++ {
		want := wantGlyph(g, me, sec, spectator, c)
		got, _ := glyphAt(scr, v, c)
		if want == "" {
			if got != gWater && got != gSunk {
				t.Errorf("%s drawn %q, want water", c, got)
			}
			continue
		}
		if got != want {
			t.Errorf("%s drawn %q, want %q\n%s", c, got, want, boardtest.Text(scr))
			return
		}
		if o := g.OccupantAt(c); o.Kind == sea.FighterPiece {
			view := sec
			if o.Owner != me && !spectator {
				view = nil
			}
			f := g.Fighters(o.Owner, view)[o.Index]
			wantLoad := map[sea.Missile]string{sea.Harpoon: "h", sea.Sidewinder: "s", sea.MissileNone: "m"}[f.Missile]
			if !f.Armed {
				wantLoad = " "
			}
			cells, w, _ := scr.GetContents()
			x, y := v.geo.screenOf(c)
			if got := string(cells[y*w+x+1].Runes); got != wantLoad {
				t.Errorf("%s: the fighter's missile is drawn %q, want %q\n%s", c, got, wantLoad, boardtest.Text(scr))
			}
		}
	}
}

func TestEverySpaceHasItsGlyph(t *testing.T) {
	d := midGame(t)
	for _, me := range []engine.Seat{0, 1} {
		v := newView()
		d.show(v, me)
		scr := boardtest.Render(t, v, 71, 27)
		checkGlyphs(t, v, scr, d.g, me, d.own(me), false)
	}
}

func TestLiveMatchNeverDrawsEnemySecrets(t *testing.T) {
	d := midGame(t)
	v := newView()
	// Even handed every value of both seats, a live board shows only the
	// enemy's public ones.
	v.Show(board.Snapshot{Game: d.g.Clone(), Seat: 0, Secrets: d.known, Names: []string{"ann", "bob"}})
	scr := boardtest.Render(t, v, 71, 27)
	checkGlyphs(t, v, scr, d.g, 0, d.known, false)
	for _, f := range d.g.Fighters(1, nil) {
		if f.State != sea.InFlight {
			continue
		}
		v.cur = f.Cell
		scr = boardtest.Render(t, v, 71, 27)
		text := boardtest.Text(scr)
		if !f.Public && !strings.Contains(text, "strength ?") {
			t.Errorf("enemy fighter %d's details give its strength away\n%s", f.Index, text)
		}
		if f.Armed && !strings.Contains(text, "(hidden)") {
			t.Errorf("enemy fighter %d's details give its missile away\n%s", f.Index, text)
		}
	}
	if text := boardtest.Text(scr); strings.Contains(text, "deck: ") && strings.Count(text, "deck: ") > 1 {
		t.Errorf("the enemy's deck strengths are listed\n%s", text)
	}
}

func TestSpectatorShowsBothSides(t *testing.T) {
	d := midGame(t)
	v := newView()
	v.Show(board.Snapshot{Game: d.g.Clone(), Seat: 0, Secrets: d.known, Names: []string{"ann", "bob"}, Spectator: true})
	scr := boardtest.Render(t, v, 71, 27)
	checkGlyphs(t, v, scr, d.g, 0, d.known, true)
	text := boardtest.Text(scr)
	for _, want := range []string{"ann", "bob", "Turn "} {
		if !strings.Contains(text, want) {
			t.Errorf("the spectator board lacks %q\n%s", want, text)
		}
	}
	if len(v.Bindings()) != 0 {
		t.Fatalf("a spectator board has keys: %v", v.Bindings())
	}
}

func TestMonochromeUsesNoColour(t *testing.T) {
	d := midGame(t)
	v := New(board.Env{Theme: style.New(true)})
	d.show(v, 0)
	scr := boardtest.Render(t, v, 71, 27)
	boardtest.Mono(t, scr)
}

// TestFitsItsRectangle draws the board in the rectangles the match screen
// (51x21 at 80x24, 71x27 at 100x30) and the audit viewer (47x19) give it,
// inside a larger screen: every row of the board is there, and nothing is
// drawn outside.
func TestFitsItsRectangle(t *testing.T) {
	d := midGame(t)
	for _, size := range [][2]int{{51, 21}, {47, 19}, {71, 27}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			v := newView()
			d.show(v, 0)
			scr := tcell.NewSimulationScreen("UTF-8")
			if err := scr.Init(); err != nil {
				t.Fatal(err)
			}
			defer scr.Fini()
			scr.SetSize(size[0]+4, size[1]+4)
			v.SetRect(2, 2, size[0], size[1])
			v.Draw(scr)
			scr.Show()
			lines := strings.Split(boardtest.Text(scr), "\n")
			for y, l := range lines {
				for x, r := range []rune(l) {
					inside := x >= 2 && x < 2+size[0] && y >= 2 && y < 2+size[1]
					if !inside && r != ' ' {
						t.Fatalf("%q drawn outside at %d,%d\n%s", r, x, y, strings.Join(lines, "\n"))
					}
				}
			}
			text := strings.Join(lines, "\n")
			for _, want := range []string{"A B C D E F G H I J K L", " 1 ", "16 ", "Turn ", "You "} {
				if !strings.Contains(text, want) {
					t.Errorf("lacks %q\n%s", want, text)
				}
			}
		})
	}
}

func TestTooSmallSaysSo(t *testing.T) {
	d := midGame(t)
	v := newView()
	d.show(v, 0)
	if text := boardtest.Text(boardtest.Render(t, v, boardW-1, boardH)); !strings.Contains(text, "the board needs") {
		t.Fatalf("a narrow board:\n%s", text)
	}
}

func TestDiceOfTheTurnAreShown(t *testing.T) {
	d := find(t, named(sea.NeedScramble))
	v := newView()
	d.ask(v)
	text := boardtest.Text(boardtest.Render(t, v, 71, 27))
	rolls := d.g.Rolls()
	last := rolls[len(rolls)-1]
	want := v.rollText(last)
	if !strings.Contains(text, want) || !strings.Contains(want, diceGlyphs(last.Dice)) {
		t.Fatalf("the scramble roll %v is not shown as %q\n%s", last.Dice, want, text)
	}
}

func TestWrecksAreDrawn(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		for s := range engine.Seat(2) {
			for _, dv := range d.g.Destroyers(s) {
				if dv.Placed && !dv.Afloat && d.g.OccupantAt(dv.Bow).Kind == sea.Empty {
					return true
				}
			}
		}
		return false
	})
	v := newView()
	d.show(v, 0)
	scr := boardtest.Render(t, v, 71, 27)
	for s := range engine.Seat(2) {
		for _, dv := range d.g.Destroyers(s) {
			if dv.Placed && !dv.Afloat && d.g.OccupantAt(dv.Bow).Kind == sea.Empty {
				if g, _ := glyphAt(scr, v, dv.Bow); g != gSunk {
					t.Fatalf("the wreck at %s is drawn %q", dv.Bow, g)
				}
			}
		}
	}
}

// TestLegendAlwaysReachable: where the legend does not fit, its last entry
// names the key that shows all of it in the side pane.
func TestLegendAlwaysReachable(t *testing.T) {
	d := find(t, named(sea.NeedScramble))
	v := newView()
	d.ask(v)
	text := boardtest.Text(boardtest.Render(t, v, 51, 21))
	if !strings.Contains(text, "g all glyphs") {
		t.Fatalf("a cut legend does not say how to see it all\n%s", text)
	}
	boardtest.Press(t, v, "g")
	text = boardtest.Text(boardtest.Render(t, v, 51, 21))
	if !strings.Contains(text, "Legend (g hides it)") {
		t.Fatalf("g did not show the legend\n%s", text)
	}
	for _, e := range legend {
		if !strings.Contains(text, e.glyph+" "+e.text) {
			t.Errorf("the legend lacks %q\n%s", e.glyph+" "+e.text, text)
		}
	}
	boardtest.Press(t, v, "g")
	if text := boardtest.Text(boardtest.Render(t, v, 71, 27)); strings.Contains(text, "g all glyphs") || !strings.Contains(text, "▲△ carrier") {
		t.Fatalf("at 71x27 the whole legend fits\n%s", text)
	}
}
