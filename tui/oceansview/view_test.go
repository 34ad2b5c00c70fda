package oceansview

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// findMove plays strong-bot matches from successive seeds until seat 0 must
// move in a position where ok holds, and returns the table there.
func findMove(t *testing.T, ok func(tb *table) bool) *table {
	t.Helper()
	for seed := uint64(1); seed < 300; seed++ {
		tb := newTable(t, seed)
		if tb.Until(func(g *oceans.Game) bool { return moveOf(0)(g) && ok(tb) }) {
			return tb
		}
	}
	t.Fatal("no match reached the position")
	return nil
}

// holds returns the hand index of seat 0's first card of kind c, or -1.
func (tb *table) holds(c oceans.Card) int {
	cards, _ := tb.G.HandCards(0, tb.Own(0))
	return slices.Index(cards, c)
}

// legal reports whether seat 0 may make a move satisfying ok.
func (tb *table) legal(ok func(oceans.Move) bool) bool {
	ms, _ := tb.G.Moves(0, tb.Own(0))
	return slices.ContainsFunc(ms, ok)
}

func decoded(t *testing.T, req *board.Request) oceans.Move {
	t.Helper()
	return boardtest.Move(t, req, oceans.DecodeMove)
}

// goTo moves the picked ocean to o with the arrow keys.
func goTo(t testing.TB, v *View, o oceans.Ocean) {
	for v.ocean != o {
		boardtest.Press(t, v, tcell.KeyDown)
	}
}

// pickCard picks hand card i.
func pickCard(t testing.TB, v *View, i int) {
	t.Helper()
	boardtest.PickHand(t, v, i, func() int { return v.sel })
}

func inPhase(p oceans.Phase) func(tb *table) bool {
	return func(tb *table) bool { return tb.G.Phase() == p }
}

func TestCommitSendsTheDeckList(t *testing.T) {
	tb := newTable(t, 1)
	v := newView()
	req := tb.Ask(v, 0)
	if !strings.Contains(v.Prompt(), "Commit your 36-card fleet deck") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	boardtest.Press(t, v, tcell.KeyEnter)
	d, ok := req.Answer()
	if !ok {
		t.Fatal("nothing committed")
	}
	var got []oceans.Card
	for _, l := range d.Leaves {
		c, err := oceans.DecodeCard(l)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	slices.Sort(got)
	if !slices.Equal(got, oceans.DeckList()) {
		t.Fatalf("committed %v", got)
	}
	tb.Answer(req)
}

func TestPlaysByKeys(t *testing.T) {
	tests := []struct {
		name  string
		ready func(tb *table) bool
		keys  func(tb *table, v *View)
		want  func(t *testing.T, tb *table, m oceans.Move)
	}{
		{
			name:  "enter deploys the picked card faceup to the picked ocean",
			ready: inPhase(oceans.PhaseDeploy),
			keys: func(tb *table, v *View) {
				cards, _ := tb.G.HandCards(0, tb.Own(0))
				pickCard(tb.T, v, slices.IndexFunc(cards, oceans.Card.CanJoin))
				goTo(tb.T, v, oceans.Pacific)
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				if m.Kind != oceans.Deploy || m.Ocean != oceans.Pacific {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "enter places the picked card facedown",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhasePlay && tb.G.Plays() == 0 && tb.legal(func(m oceans.Move) bool { return m.Kind == oceans.Place && m.Ocean == oceans.Arctic })
			},
			keys: func(tb *table, v *View) {
				ms, _ := tb.G.Moves(0, tb.Own(0))
				m := ms[slices.IndexFunc(ms, func(m oceans.Move) bool { return m.Kind == oceans.Place && m.Ocean == oceans.Arctic })]
				pickCard(tb.T, v, slices.Index(tb.G.Hand(0), m.Leaf))
				goTo(tb.T, v, oceans.Arctic)
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				if m.Kind != oceans.Place || m.Ocean != oceans.Arctic {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "a attacks in the picked ocean",
			ready: func(tb *table) bool {
				return len(tb.G.AttackOceans(0)) > 0
			},
			keys: func(tb *table, v *View) {
				goTo(tb.T, v, tb.G.AttackOceans(0)[0])
				boardtest.Press(tb.T, v, "a")
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				if m.Kind != oceans.Attack || m.Ocean != tb.G.AttackOceans(0)[0] {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "d discards a PT Boat to blockade the picked ocean",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhasePlay && tb.holds(oceans.PTBoat) >= 0 && tb.G.Controller(oceans.Indian) == engine.NoSeat &&
					tb.legal(func(m oceans.Move) bool { return m.Kind == oceans.Discard })
			},
			keys: func(tb *table, v *View) {
				pickCard(tb.T, v, tb.holds(oceans.PTBoat))
				goTo(tb.T, v, oceans.Indian)
				boardtest.Press(tb.T, v, "d")
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				if m.Kind != oceans.Discard || m.Ocean != oceans.Indian || len(m.Targets) != 0 {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "d discards a Fighter Plane revealing the card under the target cursor",
			ready: func(tb *table) bool {
				_, _, ok := facedownFoe(tb.G)
				return tb.holds(oceans.Fighter) >= 0 && ok && tb.legal(func(m oceans.Move) bool { return m.Kind == oceans.Discard })
			},
			keys: func(tb *table, v *View) {
				o, i := must2(facedownFoe(tb.G))
				pickCard(tb.T, v, tb.holds(oceans.Fighter))
				goTo(tb.T, v, o)
				for range i {
					boardtest.Press(tb.T, v, tcell.KeyRight)
				}
				boardtest.Press(tb.T, v, "d")
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				o, i := must2(facedownFoe(tb.G))
				if m.Kind != oceans.Discard || len(m.Targets) != 1 || m.Targets[0] != tb.G.TaskForce(1, o)[i].Leaf {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "a Carrier reveals the two marked cards",
			ready: func(tb *table) bool {
				return tb.holds(oceans.Carrier) >= 0 && tb.legal(func(m oceans.Move) bool { return m.Kind == oceans.Discard && len(m.Targets) == 2 })
			},
			keys: func(tb *table, v *View) {
				ms, _ := tb.G.Moves(0, tb.Own(0))
				m := ms[slices.IndexFunc(ms, func(m oceans.Move) bool { return m.Kind == oceans.Discard && len(m.Targets) == 2 })]
				o, _ := forceOf(tb.G, 1, m.Targets[0])
				pickCard(tb.T, v, slices.Index(tb.G.Hand(0), m.Leaf))
				goTo(tb.T, v, o)
				for _, t := range m.Targets {
					for v.tcol > 0 {
						boardtest.Press(tb.T, v, tcell.KeyLeft)
					}
					for tb.G.TaskForce(1, o)[v.tcol].Leaf != t {
						boardtest.Press(tb.T, v, tcell.KeyRight)
					}
					boardtest.Press(tb.T, v, " ")
				}
				boardtest.Press(tb.T, v, "d")
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				if m.Kind != oceans.Discard || len(m.Targets) != 2 {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "d twice wastes a command with no target",
			ready: func(tb *table) bool {
				return tb.holds(oceans.Destroyer) >= 0 && tb.legal(func(m oceans.Move) bool { return m.Kind == oceans.Discard })
			},
			keys: func(tb *table, v *View) {
				pickCard(tb.T, v, tb.holds(oceans.Destroyer))
				for range oceans.NumOceans {
					if l, ok := v.aimed(); !ok || !v.fits(oceans.Destroyer, l) {
						break
					}
					boardtest.Press(tb.T, v, tcell.KeyDown) // find an ocean with no Submarine under the cursor
				}
				boardtest.Press(tb.T, v, "d")
				if !strings.Contains(v.Prompt(), "d again wastes") {
					tb.T.Fatalf("prompt %q", v.Prompt())
				}
				boardtest.Press(tb.T, v, "d")
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				if m.Kind != oceans.Discard || len(m.Targets) != 0 {
					t.Fatalf("sent %+v", m)
				}
			},
		},
		{
			name: "o lists the plays and a digit plays one",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhasePlay
			},
			keys: func(tb *table, v *View) {
				boardtest.Press(tb.T, v, "o")
				if !v.menu.Open() {
					tb.T.Fatalf("no list: %q", v.Prompt())
				}
				boardtest.Press(tb.T, v, "2")
			},
			want: func(t *testing.T, tb *table, m oceans.Move) {
				ms, _ := tb.G.Moves(0, tb.Own(0))
				if !slices.ContainsFunc(ms, func(x oceans.Move) bool { return string(x.Encode()) == string(m.Encode()) }) {
					t.Fatalf("sent %+v, not a legal move", m)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := findMove(t, tc.ready)
			v := newView()
			req := tb.Ask(v, 0)
			tc.keys(tb, v)
			tc.want(t, tb, decoded(t, req))
			tb.Answer(req)
		})
	}
}

// facedownFoe returns an ocean in play and the index of a facedown card of
// seat 1's task force there.
func facedownFoe(g *oceans.Game) (oceans.Ocean, int, bool) {
	for o := range oceans.Ocean(oceans.NumOceans) {
		for i, c := range g.TaskForce(1, o) {
			if c.Card == oceans.NoCard {
				return o, i, true
			}
		}
	}
	return 0, 0, false
}

func must2(o oceans.Ocean, i int, _ bool) (oceans.Ocean, int) { return o, i }

func TestRefusalsSayWhy(t *testing.T) {
	tests := []struct {
		name  string
		ready func(tb *table) bool
		keys  func(tb *table, v *View)
		msg   string
	}{
		{
			name: "an Element of Surprise cannot be deployed",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhaseDeploy && tb.holds(oceans.Surprise) >= 0
			},
			keys: func(tb *table, v *View) {
				pickCard(tb.T, v, tb.holds(oceans.Surprise))
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			msg: "refused: an Element of Surprise cannot join a task force",
		},
		{
			name: "an Element of Surprise cannot be played facedown",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhasePlay && tb.G.Plays() == 0 && tb.holds(oceans.Surprise) >= 0
			},
			keys: func(tb *table, v *View) {
				pickCard(tb.T, v, tb.holds(oceans.Surprise))
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			msg: "refused: ES Element of Surprise cannot join a task force",
		},
		{
			name: "an attack needs a big enough fleet",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhasePlay && tb.G.Plays() == 1 && len(tb.G.AttackOceans(0)) == 0 && !tb.G.Surprised(0)
			},
			keys: func(tb *table, v *View) { boardtest.Press(t, v, "a") },
			msg:  "refused:",
		},
		{
			name: "an attack before the first card",
			ready: func(tb *table) bool {
				return tb.G.Phase() == oceans.PhasePlay && tb.G.Plays() == 0
			},
			keys: func(tb *table, v *View) { boardtest.Press(t, v, "a") },
			msg:  "an attack replaces the second card",
		},
		{
			name: "a Submarine names only a revealed Destroyer or PT Boat",
			ready: func(tb *table) bool {
				_, _, ok := facedownFoe(tb.G)
				return tb.G.Phase() == oceans.PhasePlay && tb.holds(oceans.Submarine) >= 0 && ok
			},
			keys: func(tb *table, v *View) {
				o, i := must2(facedownFoe(tb.G))
				pickCard(tb.T, v, tb.holds(oceans.Submarine))
				goTo(tb.T, v, o)
				for range i {
					boardtest.Press(tb.T, v, tcell.KeyRight)
				}
				boardtest.Press(tb.T, v, " ")
			},
			msg: "cannot name that card",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := findMove(t, tc.ready)
			v := newView()
			req := tb.Ask(v, 0)
			boardtest.Refuses(t, v, req, tb.G, tc.msg, func() { tc.keys(tb, v) })
		})
	}
}

func TestBattleChoicesAreAList(t *testing.T) {
	tb := findMove(t, inPhase(oceans.PhaseBattle))
	v := newView()
	req := tb.Ask(v, 0)
	if !v.menu.Open() || v.mode != fighting {
		t.Fatalf("no choices: %q", v.Prompt())
	}
	ms, _ := tb.G.Moves(0, tb.Own(0))
	if len(v.menu.Items) != len(ms) {
		t.Fatalf("%d choices listed, the engine has %d", len(v.menu.Items), len(ms))
	}
	_, txt := boardtest.RenderText(t, v, 51, 22)
	if !strings.Contains(txt, glyphBattle+" Battle in the") || !strings.Contains(txt, "1 "+v.menu.Items[0].Label[:10]) {
		t.Fatalf("battle not drawn\n%s", txt)
	}
	boardtest.Press(t, v, tcell.KeyEscape) // a battle choice cannot be put off
	if !v.menu.Open() {
		t.Fatal("esc closed the battle's choices")
	}
	boardtest.Press(t, v, tcell.KeyDown, tcell.KeyEnter)
	m := decoded(t, req)
	if want := ms[min(1, len(ms)-1)]; string(m.Encode()) != string(want.Encode()) {
		t.Fatalf("sent %+v, want %+v", m, want)
	}
}

// TestMinefieldTargetsNameTheRightCard checks every listed target of a
// Minefield against what the engine destroys when it is chosen: the leaf
// numbers of the two seats overlap, so the list must not guess the owner.
func TestMinefieldTargetsNameTheRightCard(t *testing.T) {
	checked := 0
	for seed := uint64(1); seed < 200 && checked < 6; seed++ {
		tb := newTable(t, seed)
		if !tb.Until(func(g *oceans.Game) bool {
			return moveOf(0)(g) && g.Phase() == oceans.PhaseBattle && strings.Contains(g.Next().Prompt, "surface ship")
		}) {
			continue
		}
		v := newView()
		tb.Ask(v, 0)
		for _, it := range v.menu.Items {
			evs, err := tb.G.Clone().Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: it.Move.Encode()})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if e.Kind != "destroy" {
					continue
				}
				want := "your " + cardIn(e.Text).String()
				if e.Seat == 1 {
					want = "bot's " + cardIn(e.Text).String()
				}
				if !strings.Contains(it.Label, want) {
					t.Fatalf("seed %d: the entry %q destroys %s", seed, it.Label, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no Minefield target was chosen by seat 0")
	}
}

// TestFollowRetracesEveryMessage shows the board the match only where a
// live board sees it (at each of seat 0's own steps; everything the bot
// does in between comes as one message), and checks that every gap is
// retraced to the exact state hash, and that every battle is told with as
// many zero-valued cards played as the engine played.
func TestFollowRetracesEveryMessage(t *testing.T) {
	battles := 0
	for seed := uint64(1); seed <= 6; seed++ {
		tb := newTable(t, seed)
		v := newView()
		var prev *oceans.Game
		engineZeros := 0
		counted := map[*battleRec]bool{}
		show := func() {
			cur := tb.G.Clone().(*oceans.Game)
			if prev != nil {
				steps, ok := follow(prev, cur, tb.Own(0))
				if !ok {
					t.Fatalf("seed %d: could not retrace from phase %s to phase %s", seed, prev.Phase(), cur.Phase())
				}
				if len(steps) > 0 && steps[len(steps)-1].after.Hash() != cur.Hash() {
					t.Fatalf("seed %d: the retraced state differs", seed)
				}
			}
			tb.Show(v, 0)
			prev = cur
			if b := v.battle; b != nil && b.over && !counted[b] {
				counted[b] = true
				battles++
			}
		}
		for {
			n := tb.G.Next()
			if n.Kind == engine.NeedNone {
				break
			}
			if n.Seat == 0 && n.Kind != engine.NeedRandom && tb.G.Phase() >= oceans.PhaseDeal {
				show()
			}
			for _, e := range tb.Step() {
				if e.Kind == "zero" {
					engineZeros++
				}
			}
		}
		show()
		if v.zeros != engineZeros {
			t.Fatalf("seed %d: the board told %d zero-valued cards played, the engine played %d", seed, v.zeros, engineZeros)
		}
	}
	if battles == 0 {
		t.Fatal("no battle was fought")
	}
}

func TestSpectatorShowsEveryCardTheLiveBoardHides(t *testing.T) {
	tb := findMove(t, func(tb *table) bool {
		_, _, ok := facedownFoe(tb.G)
		return ok && tb.G.Phase() == oceans.PhasePlay
	})
	o, i := must2(facedownFoe(tb.G))
	leaf := tb.G.TaskForce(1, o)[i].Leaf
	hidden := tb.Known[engine.Slot{Owner: 1, Name: oceans.FleetName, Index: leaf}]
	c, _ := oceans.DecodeCard(hidden)
	v := newView()
	// A live board handed every value still draws the enemy card facedown.
	v.Show(board.Snapshot{Game: tb.G.Clone(), Seat: 0, Secrets: tb.Known, Names: []string{"ann", "bot"}})
	if lk := v.cardLook(1, leaf, false); lk.text != strings.Repeat(glyphBack, 3) {
		t.Fatalf("live board draws the enemy's facedown card as %q", lk.text)
	}
	_, txt := boardtest.RenderText(t, v, 71, 28)
	foeHand, _ := tb.G.HandCards(1, tb.Own(1))
	if strings.Contains(txt, "bot: ") {
		t.Fatalf("a live board draws the enemy's hand %v\n%s", foeHand, txt)
	}
	// The audit viewer draws it, and both hands.
	v2 := newView()
	v2.Show(board.Snapshot{Game: tb.G.Clone(), Seat: 0, Secrets: tb.Known, Names: []string{"ann", "bot"}, Spectator: true})
	if lk := v2.cardLook(1, leaf, false); lk.text != glyphHidden+code[c] {
		t.Fatalf("spectator board draws the enemy's facedown %s as %q", c, lk.text)
	}
	_, txt = boardtest.RenderText(t, v2, 71, 28)
	want := "bot: "
	for _, c := range foeHand {
		want += code[c] + " "
	}
	if !strings.Contains(txt, strings.TrimSpace(want)) || !strings.Contains(txt, "ann: ") {
		t.Fatalf("spectator board lacks %q\n%s", want, txt)
	}
	if len(v2.Bindings()) != 0 {
		t.Fatal("a spectator board has keys")
	}
}

func TestDrawShowsEveryStateWithAGlyph(t *testing.T) {
	tb := findMove(t, func(tb *table) bool {
		g := tb.G
		_, _, down := facedownFoe(g)
		won := false
		for o := range oceans.Ocean(oceans.NumOceans) {
			won = won || g.Controller(o) != engine.NoSeat
		}
		return down && won && g.Phase() == oceans.PhasePlay
	})
	v := newView()
	tb.Ask(v, 0)
	scr, txt := boardtest.RenderText(t, v, 51, 22)
	cells, w, _ := scr.GetContents()
	at := func(r board.Rect) (string, tcell.Style) {
		c := cells[r.Y*w+r.X]
		return string(c.Runes), c.Style
	}
	for o := range oceans.Ocean(oceans.NumOceans) {
		for i, c := range tb.G.TaskForce(1, o) {
			gl, st := at(v.geo.enemy[o][i])
			want, wst := glyphUp, v.th.Accent
			if c.Card == oceans.NoCard {
				want, wst = glyphBack, v.th.Dim
			}
			if gl != want || st != wst && st != wst.Reverse(true) {
				t.Errorf("enemy card %d in the %s drawn %q, want %q\n%s", i, o, gl, want, txt)
			}
		}
	}
	for _, want := range []string{"won by", "Hand", "Ocean", "you", "bot", "fleet", "deck"} {
		if !strings.Contains(txt, want) {
			t.Errorf("screen lacks %q\n%s", want, txt)
		}
	}
}

func TestMouse(t *testing.T) {
	tb := findMove(t, func(tb *table) bool {
		return tb.G.Phase() == oceans.PhasePlay && tb.G.Plays() == 0 && tb.legal(func(m oceans.Move) bool { return m.Kind == oceans.Place })
	})
	ms, _ := tb.G.Moves(0, tb.Own(0))
	m := ms[slices.IndexFunc(ms, func(m oceans.Move) bool { return m.Kind == oceans.Place })]
	v := newView()
	req := tb.Ask(v, 0)
	boardtest.RenderText(t, v, 71, 28)
	i := slices.Index(tb.G.Hand(0), m.Leaf)
	r := v.geo.hand[i]
	boardtest.Mouse(v, tview.MouseLeftClick, r.X, r.Y)
	if v.sel != i {
		t.Fatalf("picked %d, want %d", v.sel, i)
	}
	// A right click lists the plays.
	boardtest.Mouse(v, tview.MouseRightClick, r.X, r.Y)
	if !v.menu.Open() {
		t.Fatal("no list")
	}
	boardtest.Mouse(v, tview.MouseRightClick, r.X, r.Y)
	if v.menu.Open() {
		t.Fatal("a right click did not close the list")
	}
	// A click on your side of an ocean plays the card there.
	own := v.geo.own[m.Ocean]
	boardtest.Mouse(v, tview.MouseLeftClick, own.X+1, own.Y)
	if got := decoded(t, req); got.Kind != oceans.Place || got.Leaf != m.Leaf || got.Ocean != m.Ocean {
		t.Fatalf("sent %+v, want %+v", got, m)
	}
}

func TestMonochromeUsesNoColour(t *testing.T) {
	tb := findMove(t, inPhase(oceans.PhaseBattle))
	v := New(board.Env{Theme: style.New(true)})
	tb.Ask(v, 0)
	scr, _ := boardtest.RenderText(t, v, 71, 28)
	boardtest.Mono(t, scr)
}

func TestTooSmallAndWithdraw(t *testing.T) {
	tb := findMove(t, inPhase(oceans.PhasePlay))
	v := newView()
	req := tb.Ask(v, 0)
	if _, txt := boardtest.RenderText(t, v, 40, 12); !strings.Contains(txt, "needs more room") {
		t.Fatalf("a tiny board\n%s", txt)
	}
	if _, txt := boardtest.RenderText(t, v, 51, 22); strings.Contains(txt, "needs more room") {
		t.Fatalf("the 80x24 board\n%s", txt)
	}
	boardtest.Press(t, v, "o")
	v.Withdraw(req)
	// Only the legend key stays: it asks nothing.
	if bs := v.Bindings(); v.Prompt() != "" || len(bs) != 1 || bs[0].Label != "g" || v.menu.Open() {
		t.Fatalf("still asking: %q", v.Prompt())
	}
}

// TestNarrowBoardInTheAuditViewer draws the board at the size the audit
// viewer gives it on an 80x24 terminal: cards lose their glyphs but keep a
// shape for each state (code, lower-case code, ▒▒).
func TestNarrowBoardInTheAuditViewer(t *testing.T) {
	tb := findMove(t, func(tb *table) bool {
		_, _, ok := facedownFoe(tb.G)
		return ok && tb.G.Phase() == oceans.PhasePlay
	})
	v := newView()
	v.Show(board.Snapshot{Game: tb.G.Clone(), Seat: 0, Secrets: tb.Own(0), Names: []string{"ann", "bot"}})
	_, txt := boardtest.RenderText(t, v, 47, 19)
	if strings.Contains(txt, "needs more room") || !strings.Contains(txt, "Arctic") {
		t.Fatalf("narrow board\n%s", txt)
	}
	o, i := must2(facedownFoe(tb.G))
	if lk := v.cardLook(1, tb.G.TaskForce(1, o)[i].Leaf, true); lk.text != glyphBack+glyphBack {
		t.Fatalf("a facedown enemy card is drawn %q", lk.text)
	}
	for _, c := range tb.G.TaskForce(0, o) {
		lk := v.cardLook(0, c.Leaf, true)
		if c.Card == oceans.NoCard && lk.text != strings.ToLower(lk.text) || c.Card != oceans.NoCard && lk.text != code[c.Card] {
			t.Fatalf("own card %+v drawn %q", c, lk.text)
		}
	}
}
