package airview

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// lineOf returns the screen line that starts with a row's edge number.
func lineOf(t *testing.T, screen string, row int) string {
	t.Helper()
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, fmt.Sprintf("%3d ", row)) {
			return l
		}
	}
	t.Fatalf("no row %d on screen\n%s", row, screen)
	return ""
}

// columnX returns the screen column of a column's edge number.
func columnX(t *testing.T, screen string, col int) int {
	t.Helper()
	l := strings.Split(screen, "\n")[1]
	i := strings.Index(l, fmt.Sprintf(" %d ", col))
	if i < 0 {
		t.Fatalf("no column %d\n%s", col, screen)
	}
	return len([]rune(l[:i])) + 1
}

// runeIndex is the screen column of sub in l.
func runeIndex(l, sub string) int {
	i := strings.Index(l, sub)
	if i < 0 {
		return -1
	}
	return len([]rune(l[:i]))
}

func TestEveryPlaneOnItsStartSpaceWithItsFacing(t *testing.T) {
	for _, seats := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%d players", seats), func(t *testing.T) {
			d := newDriver(t, seats, "", 1)
			f := newFixture(t, false, 71, 28)
			f.show(d, 0)
			s := f.Must("Round 1", "shuffle the Navigation deck", " 15 ", " 95 ")
			for _, p := range d.g.Planes() {
				row, col := p.Pos.Labels()
				l := lineOf(t, s, row)
				glyph := planeGlyph(p)
				if x := runeIndex(l, glyph); x != columnX(t, s, col) {
					t.Errorf("%s (%s) is at column %d, the edge number %d at %d\n%s", p.Name(), glyph, x, col, columnX(t, s, col), s)
				}
			}
			// Rows are drawn upward: 120 at the top, 10 at the bottom.
			lines := strings.Split(s, "\n")
			if !strings.HasPrefix(lines[2], "120 ") || !strings.HasPrefix(lines[13], " 10 ") {
				t.Errorf("rows are not 120 down to 10\n%s", s)
			}
		})
	}
}

func TestGlyphsAndCardForms(t *testing.T) {
	cases := []struct {
		name string
		got  string
		want string
	}{
		{"Blue F-35 north", planeGlyph(air.Plane{Seat: 0, Kind: air.F35, Heading: air.North}), "B5↑"},
		{"Fire F-22 south-west", planeGlyph(air.Plane{Seat: 1, Kind: air.F22, Heading: air.SouthWest}), "F2↙"},
		{"Eagle F-35 east", planeGlyph(air.Plane{Seat: 2, Kind: air.F35, Heading: air.East}), "E5→"},
		{"Tiger F-22 north-west", planeGlyph(air.Plane{Seat: 3, Kind: air.F22, Heading: air.NorthWest}), "T2↖"},
		{"standard card", cardShort(mustCard(t, 1)), " 1S↑1"},
		{"wingman card", cardShort(mustCard(t, 13)), "13W↗1"},
		{"disruption card", cardShort(mustCard(t, 55)), "55D↖1↑1"},
		{"disruption in words", cardWords(mustCard(t, 55)), "#55 disruption ↖1 foe ↑1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.got != c.want {
				t.Errorf("got %q, want %q", c.got, c.want)
			}
		})
	}
	// The short form fits the narrow hand (a marker and a given mark too).
	for n := 1; n <= air.DeckSize; n++ {
		if w := len([]rune(cardShort(mustCard(t, n)))); w+2 > sideW {
			t.Errorf("card %d is %d cells short", n, w)
		}
	}
}

func mustCard(t testing.TB, n int) air.Card {
	t.Helper()
	c, ok := air.CardByNumber(n)
	if !ok {
		t.Fatalf("no card %d", n)
	}
	return c
}

func TestChoiceByKeys(t *testing.T) {
	cases := []struct {
		name   string
		keys   []any
		plays  []int  // hand indexes given to the F-35 and the F-22, nil for a refusal
		refuse string // the reason shown
	}{
		{"digits then enter", []any{"1", "2", tcell.KeyEnter}, []int{0, 1}, ""},
		{"cursor and space", []any{tcell.KeyDown, tcell.KeyDown, " ", tcell.KeyUp, " ", tcell.KeyEnter}, []int{2, 1}, ""},
		{"tab arms the F-22 first", []any{tcell.KeyTab, "5", "3", tcell.KeyEnter}, []int{2, 4}, ""},
		{"enter with nothing given", []any{tcell.KeyEnter}, nil, "has no card yet (0 of 2 given)"},
		{"a card moves to the other plane", []any{"1", "1", tcell.KeyEnter}, nil, "the Blue F-35 has no card yet"},
		{"u takes every card back", []any{"1", "2", "u", tcell.KeyEnter}, nil, "has no card yet"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newDriver(t, 2, "", 3)
			d.runTo(choiceFor)
			f := newFixture(t, false, 71, 28)
			r := f.ask(d, 0)
			hand := d.g.Hand(0)
			f.Keys(c.keys...)
			if c.plays == nil {
				if _, ok := r.Answer(); ok {
					t.Fatal("a bad choice was sent")
				}
				if !strings.Contains(f.v.Prompt(), c.refuse) {
					t.Fatalf("prompt %q does not say %q", f.v.Prompt(), c.refuse)
				}
				return
			}
			var ch air.Choice
			if err := engine.DecodeMove(boardtest.Answer(t, r).Choice, &ch); err != nil {
				t.Fatal(err)
			}
			want := air.Choice{Cards: []air.PlaneCard{
				{Plane: 0, Deck: hand[c.plays[0]].Deck, Pos: hand[c.plays[0]].Pos},
				{Plane: 1, Deck: hand[c.plays[1]].Deck, Pos: hand[c.plays[1]].Pos},
			}}
			if !slices.Equal(ch.Cards, want.Cards) {
				t.Fatalf("chose %+v, want %+v", ch.Cards, want.Cards)
			}
		})
	}
}

func TestRandomChoiceIsLegal(t *testing.T) {
	for seed := range uint64(20) {
		d := newDriver(t, 2+int(seed%3), "", seed)
		d.runTo(choiceFor)
		f := newFixture(t, false, 71, 28)
		r := f.ask(d, 0)
		f.Keys("x", tcell.KeyEnter)
		dec := boardtest.Answer(t, r)
		n := d.g.Next()
		if err := checkChoice(d.g, n, 0, decode(t, dec.Choice)); err != nil {
			t.Fatalf("seed %d: the random choice is refused: %v", seed, err)
		}
	}
}

func decode(t testing.TB, b []byte) air.Choice {
	t.Helper()
	var ch air.Choice
	if err := engine.DecodeMove(b, &ch); err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestChoiceByMouse(t *testing.T) {
	d := newDriver(t, 2, "", 3)
	d.runTo(choiceFor)
	f := newFixture(t, false, 71, 28)
	r := f.ask(d, 0)
	hand := d.g.Hand(0)
	c3 := mustCard(t, int(d.known(0)[hand[3].Slot()][0]))
	x, y, ok := f.Find(fmt.Sprintf("#%-2d", c3.Number))
	if !ok {
		t.Fatalf("card #%d not on screen", c3.Number)
	}
	f.Click(x, y) // the F-35 gets card 3; the F-22 is armed
	// A click on the F-35 arms it again: it gets the first card instead,
	// and card 3, free again, goes to the F-22.
	fp, _ := d.g.PlaneByID(0)
	f.Click(f.v.geo.x0+fp.Pos.X*cellW+1, f.v.geo.y0+air.Rows-1-fp.Pos.Y)
	c0 := mustCard(t, int(d.known(0)[hand[0].Slot()][0]))
	x0, y0, _ := f.Find(fmt.Sprintf("#%-2d", c0.Number))
	f.Click(x0, y0)
	f.Click(x, y)
	f.Keys(tcell.KeyEnter)
	ch := decode(t, boardtest.Answer(t, r).Choice)
	want := []air.PlaneCard{{Plane: 0, Deck: hand[0].Deck, Pos: hand[0].Pos}, {Plane: 1, Deck: hand[3].Deck, Pos: hand[3].Pos}}
	if !slices.Equal(ch.Cards, want) {
		t.Fatalf("chose %+v, want %+v", ch.Cards, want)
	}
}

// firstMove plays until seat 0 must act with some legal move satisfying
// ok, trying seeds in turn.
func firstMove(t *testing.T, seats int, ok func(g *air.Game) bool) *driver {
	t.Helper()
	for seed := range uint64(200) {
		d := newDriver(t, seats, "", seed)
		for i := 0; i < 3000 && d.g.Next().Kind != engine.NeedNone; i++ {
			if n := d.g.Next(); n.Kind == engine.NeedMove && n.Seat == 0 && ok(d.g) {
				return d
			}
			d.step()
		}
	}
	t.Fatal("no such move in 200 matches")
	return nil
}

// legalHas reports whether the legal moves include one of action.
func legalHas(action string) func(g *air.Game) bool {
	return func(g *air.Game) bool {
		return slices.ContainsFunc(g.LegalMoves(), func(m air.Move) bool { return m.Action == action })
	}
}

func TestTurnKeys(t *testing.T) {
	cases := []struct {
		name  string
		when  func(g *air.Game) bool
		keys  []any
		want  func(v *View) air.Move
		hides string // a word the prompt must not offer
	}{
		{"m flies the card", legalHas(air.ActMove), []any{"m"}, func(*View) air.Move { return air.PlainMove(air.ActMove) }, ""},
		{"e ends the turn", legalHas(air.ActEnd), []any{"e"}, func(*View) air.Move { return air.PlainMove(air.ActEnd) }, "m fly"},
		{"f fires at the target", legalHas(air.ActFire), []any{"f"}, func(v *View) air.Move { return air.FireMove(v.weapon, v.tgt) }, ""},
		{"d disrupts the target", legalHas(air.ActDisrupt), []any{"d"}, func(v *View) air.Move { return air.DisruptMove(v.tgt) }, ""},
		{"y takes the +1", legalHas(air.ActBonus), []any{"y"}, func(*View) air.Move { return air.BonusMove(true) }, ""},
		{"n refuses the +1", legalHas(air.ActBonus), []any{"n"}, func(*View) air.Move { return air.BonusMove(false) }, ""},
		{"j then enter makes the wingman move", legalHas(air.ActWingman), []any{"j", tcell.KeyEnter}, func(v *View) air.Move { return air.WingmanMove(v.cur) }, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := firstMove(t, 2, c.when)
			f := newFixture(t, false, 71, 28)
			r := f.ask(d, 0)
			if c.hides != "" && strings.Contains(f.v.Prompt(), c.hides) {
				t.Fatalf("the prompt offers %q: %s", c.hides, f.v.Prompt())
			}
			want := c.want(f.v)
			f.Keys(c.keys...)
			got := boardtest.Answer(t, r)
			if string(got.Move) != string(want.Encode()) {
				t.Fatalf("sent %s, want %s", got.Move, want.Encode())
			}
		})
	}
}

func TestIllegalTurnKeysAreRefusedWithAReason(t *testing.T) {
	cases := []struct {
		name   string
		when   func(g *air.Game) bool
		keys   []any
		reason string
	}{
		{"end before moving", func(g *air.Game) bool { t, _ := g.Active(); return !t.Moved && legalHas(air.ActMove)(g) }, []any{"e"}, "must move before the turn ends"},
		{"disrupt without the card", func(g *air.Game) bool {
			t, _ := g.Active()
			return t.Card.Kind != air.Disruption && legalHas(air.ActMove)(g)
		},
			[]any{"d"}, "is not a disruption card"},
		{"wingman without the card", func(g *air.Game) bool {
			t, _ := g.Active()
			return t.Card.Kind == air.Standard && legalHas(air.ActMove)(g)
		},
			[]any{"j"}, "is not a wingman card"},
		{"fire out of the cone", func(g *air.Game) bool {
			t, _ := g.Active()
			p, _ := g.PlaneByID(t.Plane)
			return !t.Fired && p.Missiles > 0 && !legalHas(air.ActFire)(g) && legalHas(air.ActMove)(g)
		}, []any{"f"}, "out of the cone of fire"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := firstMove(t, 2, c.when)
			f := newFixture(t, false, 71, 28)
			r := f.ask(d, 0)
			boardtest.Refuses(t, f.v, r, d.g, c.reason, func() { f.Keys(c.keys...) })
			if strings.Contains(f.v.Prompt(), "illegal input") {
				t.Fatalf("prompt %q does not say %q in words", f.v.Prompt(), c.reason)
			}
			// The decision is still open: m flies.
			f.Keys("m")
			if _, ok := r.Answer(); !ok {
				t.Fatal("the decision was lost after a refusal")
			}
		})
	}
}

func TestBonusPromptNamesBothLandings(t *testing.T) {
	d := firstMove(t, 2, legalHas(air.ActBonus))
	f := newFixture(t, false, 71, 28)
	f.ask(d, 0)
	a, _ := d.g.Active()
	for _, take := range []bool{true, false} {
		c := d.g.Clone().(*air.Game)
		if _, err := c.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: air.BonusMove(take).Encode()}); err != nil {
			t.Fatal(err)
		}
		p, _ := c.PlaneByID(a.Plane)
		if !strings.Contains(f.v.Prompt(), p.Pos.String()) {
			t.Errorf("the prompt does not name %s: %s", p.Pos, f.v.Prompt())
		}
	}
}

func TestTargetsByTabAndMouse(t *testing.T) {
	d := firstMove(t, 2, func(g *air.Game) bool {
		n := 0
		for _, m := range g.LegalMoves() {
			if m.Action == air.ActFire && m.Weapon == "missile" {
				n++
			}
		}
		return n >= 2
	})
	f := newFixture(t, false, 71, 28)
	r := f.ask(d, 0)
	first := f.v.tgt
	f.Keys(tcell.KeyTab)
	if f.v.tgt == first || f.v.tgt < 0 {
		t.Fatalf("tab kept the target %d", first)
	}
	// A click on a target selects it; a second click fires.
	tp, _ := d.g.PlaneByID(first)
	f.Text()
	x, y := f.v.geo.x0+tp.Pos.X*cellW+1, f.v.geo.y0+air.Rows-1-tp.Pos.Y
	f.Click(x, y)
	if f.v.tgt != first {
		t.Fatalf("the click selected %d, not %d", f.v.tgt, first)
	}
	if !strings.Contains(f.Text(), gTarget+planeGlyph(tp)) {
		t.Fatalf("the target is not marked\n%s", f.Text())
	}
	f.Click(x, y)
	if got := boardtest.Answer(t, r); string(got.Move) != string(air.FireMove(f.v.weapon, first).Encode()) {
		t.Fatalf("the second click sent %s", got.Move)
	}
}

func TestWingmanSpacesAndClick(t *testing.T) {
	d := firstMove(t, 2, legalHas(air.ActWingman))
	f := newFixture(t, false, 71, 28)
	r := f.ask(d, 0)
	ws := f.v.wingmanSpaces()
	s := f.Text()
	for _, p := range ws {
		row, col := p.Labels()
		if l := lineOf(t, s, row); []rune(l)[columnX(t, s, col)+1] != []rune(gWingman)[0] {
			t.Errorf("wingman space %s is not drawn %s\n%s", p, gWingman, s)
		}
	}
	last := ws[len(ws)-1]
	f.Click(f.v.geo.x0+last.X*cellW+2, f.v.geo.y0+air.Rows-1-last.Y)
	if got := boardtest.Answer(t, r); string(got.Move) != string(air.WingmanMove(last).Encode()) {
		t.Fatalf("the click sent %s", got.Move)
	}
}

func TestConeFollowsTheWeapon(t *testing.T) {
	d := newDriver(t, 2, "", 1)
	f := newFixture(t, false, 71, 28)
	f.show(d, 0)
	p, _ := d.g.PlaneByID(0)
	count := func(s, g string) int { return strings.Count(s, " "+g+" ") }
	missile := f.Text()
	if n := count(missile, gMissile); n == 0 || n+1 < len(d.g.Cone(0, air.Missile))-2 {
		t.Fatalf("%d missile-cone spaces drawn, the cone has %d\n%s", n, len(d.g.Cone(0, air.Missile)), missile)
	}
	f.Keys("w")
	cannon := f.Text()
	if count(cannon, gMissile) != 0 || count(cannon, gCannon) == 0 {
		t.Fatalf("the cannon lines are not drawn\n%s", cannon)
	}
	// Tab selects the next plane: its cone is drawn instead.
	f.Keys(tcell.KeyTab)
	if sel, _ := f.v.selected(); sel.ID == p.ID {
		t.Fatal("tab kept the selected plane")
	}
}

func TestHiddenHandsAreNeverDrawnLive(t *testing.T) {
	d := newDriver(t, 3, "", 5)
	d.runTo(choiceFor)
	// Even with every card's value at hand (as if leaked), a live board
	// draws only the viewer's own hand.
	all := board.Known{}
	for s := range 3 {
		all.Merge(d.known(engine.Seat(s)))
	}
	f := newFixture(t, false, 100, 30)
	f.v.Show(board.Snapshot{Game: d.g.Clone(), Seat: 0, Secrets: all, Names: []string{"ann", "bob", "cy"}})
	s := f.Text()
	for seat := 1; seat < 3; seat++ {
		for _, h := range d.g.HandCards(engine.Seat(seat), all) {
			if strings.Contains(s, fmt.Sprintf("#%-2d %s", h.Card.Number, kindWord[h.Card.Kind])) || strings.Contains(s, cardShort(h.Card)) {
				t.Fatalf("%s's card #%d is drawn\n%s", air.Squadron[seat], h.Card.Number, s)
			}
		}
	}
	if !strings.Contains(s, "Fire holds 7 cards") {
		t.Fatalf("the others' hand sizes are not drawn\n%s", s)
	}
}

func TestSpectatorDrawsWhatWasTurnedOver(t *testing.T) {
	d := newDriver(t, 2, "", 2)
	d.runTo(moveOf(0))
	opened := board.Known{}
	for s, ok := range d.opened {
		if ok {
			opened[s] = d.known(0)[s]
			if opened[s] == nil {
				opened[s] = d.known(1)[s]
			}
		}
	}
	f := newFixture(t, false, 67, 20)
	f.v.Show(board.Snapshot{Game: d.g.Clone(), Seat: 0, Secrets: opened, Names: []string{"ann", "bob"}, Spectator: true})
	s := f.Must("Hands", "(never opened)", "Blue 5", "Fire 5")
	if strings.Contains(s, "Your hand") || strings.Contains(s, "(you)") {
		t.Fatalf("the audit draws a viewer's own side\n%s", s)
	}
	for _, p := range d.g.Chosen() {
		if !strings.Contains(s, fmt.Sprintf("#%d", p.Number)) {
			t.Fatalf("turned-over card #%d is not in the order\n%s", p.Number, s)
		}
	}
}

func TestNoColourKeepsEveryState(t *testing.T) {
	d := firstMove(t, 2, legalHas(air.ActFire))
	f := newFixture(t, true, 71, 28)
	f.ask(d, 0)
	f.Text()
	boardtest.Mono(t, f.Sim)
	f.Must(gActing+"B", gTarget, gMissile)
}

func TestSizes(t *testing.T) {
	d := newDriver(t, 4, "", 1)
	d.runTo(choiceFor)
	cases := []struct {
		w, h int
		want []string
	}{
		{39, 22, []string{"the board needs 40x14"}},
		{51, 13, []string{"the board needs 40x14"}},
		{40, 14, []string{" 10 ", "120 ", " 95"}},
		{51, 22, []string{"Hand (7)", "Blue  5↑", "Tiger 5←", "Order"}},
		{71, 28, []string{"Your hand (7 cards)", "Tiger · dee", "F-22 ← (70,95)"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			f := newFixture(t, false, c.w, c.h)
			f.ask(d, 0)
			f.Must(c.want...)
		})
	}
}

func TestLegendToggles(t *testing.T) {
	d := newDriver(t, 2, "", 1)
	f := newFixture(t, false, 71, 28)
	f.show(d, 0)
	f.Keys("g")
	f.Must("missile cone", "fuel tank, tail, wings, engine, cockpit")
	f.Keys("g")
	if strings.Contains(f.Text(), "missile cone") {
		t.Fatal("g did not hide the legend")
	}
}

func TestPeekNamesTheHandAndTheChosenCards(t *testing.T) {
	d := newDriver(t, 2, "", 1)
	d.runTo(choiceFor)
	v := New(board.Env{})
	hand := d.g.Hand(0)
	got := v.Peek(d.g, 0)
	if len(got) != len(hand) {
		t.Fatalf("peek names %d slots, the hand has %d", len(got), len(hand))
	}
	d.step() // the choice
	got = v.Peek(d.g, 0)
	for _, p := range d.g.Chosen() {
		if pl, _ := d.g.PlaneByID(p.Plane); pl.Seat == 0 && !slices.Contains(got, p.Card.Slot()) {
			t.Fatalf("peek misses the chosen card %s", p.Card)
		}
	}
	if v.Peek(nil, 0) != nil {
		t.Fatal("peek of no game names slots")
	}
}

func TestNewsSaysWhatChanged(t *testing.T) {
	a := []air.Plane{{ID: 0, Seat: 0, Kind: air.F35, Pos: air.Pos{X: 3}, Missiles: 5}, {ID: 1, Seat: 0, Kind: air.F22, Missiles: 6}}
	b := slices.Clone(a)
	b[0].Pos, b[0].Missiles = air.Pos{X: 3, Y: 4}, 4
	b[1].Damage[air.Wings] = 1
	got := changes(a, b)
	for _, w := range []string{"Blue F-35 flew to (50,45) heading N", "Blue F-35 fired a missile", "Blue F-22 hit in the wings"} {
		if !strings.Contains(got, w) {
			t.Errorf("%q does not say %q", got, w)
		}
	}
	b[1].Down = true
	if got := changes(a, b); !strings.Contains(got, "Blue F-22 shot down") {
		t.Errorf("%q does not say the F-22 is down", got)
	}
	if changes(a, a) != "" || changes(a, b[:1]) != "" {
		t.Error("news without a change")
	}
}

func TestHitChance(t *testing.T) {
	cases := []struct{ dice, dist, want int }{
		{3, 0, 100}, {3, 1, 96}, {2, 1, 89}, {3, 15, 4}, {3, 16, 0}, {2, 10, 11},
	}
	for _, c := range cases {
		if got := hitChance(c.dice, c.dist); got != c.want {
			t.Errorf("%d dice reaching %d: %d%%, want %d%%", c.dice, c.dist, got, c.want)
		}
	}
}

// Issue 14 requirement 4: the squadron board says a departed player's
// planes left; a plane shot down still reads "shot down".
func TestSquadronBoardSaysALeaverLeft(t *testing.T) {
	g, err := air.New(engine.Setup{Seats: 3, Variant: air.VariantFreeForAll})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Remove(2); err != nil {
		t.Fatal(err)
	}
	v := New(board.Env{})
	v.Show(board.Snapshot{Game: g, Seat: 0, Names: []string{"ann", "bob", "cy"}})
	text := func(p air.Plane) string {
		var b strings.Builder
		for _, s := range v.planeSegs(p, true) {
			b.WriteString(s.Text)
		}
		return b.String()
	}
	gone, _ := g.PlaneByID(4)
	if got := text(gone); !strings.Contains(got, "left") {
		t.Fatalf("the leaver's plane reads %q", got)
	}
	down, _ := g.PlaneByID(0)
	down.Down = true
	if got := text(down); !strings.Contains(got, "shot down") {
		t.Fatalf("a plane shot down reads %q", got)
	}
}
