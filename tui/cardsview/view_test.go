package cardsview

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/board/boardtest"
	"github.com/salvo-game/salvo/tui/style"
)

// findTurn plays strong-bot matches from successive seeds until seat 0
// must play a card in a position where ok holds, and returns the table
// there.
func findTurn(t *testing.T, variant string, ok func(tb *table) bool) *table {
	t.Helper()
	for seed := uint64(1); seed < 400; seed++ {
		tb := newTable(t, variant, seed)
		if tb.Until(func(g *cards.Game) bool { return myTurn(0)(g) && ok(tb) }) {
			return tb
		}
	}
	t.Fatal("no match reached the position")
	return nil
}

// handIndex returns the index of the first card of face f in seat 0's hand.
func (tb *table) handIndex(f cards.Face) int {
	return slices.Index(tb.G.HandFaces(0, tb.Own(0)), f)
}

// hasFace reports whether seat 0 holds a card of face f it may play now.
func (tb *table) hasFace(f cards.Face) bool {
	for _, m := range tb.G.LegalMoves(0, tb.Own(0)) {
		if m.Face == f {
			return true
		}
	}
	return false
}

// enemyShip returns a revealed ship of seat 1 afloat, and its position.
func enemyShip(g *cards.Game, seat engine.Seat, pred func(cards.ShipView) bool) (cards.ShipView, bool) {
	for _, sv := range g.Fleet(seat) {
		if sv.Revealed && !sv.Sunk && (pred == nil || pred(sv)) {
			return sv, true
		}
	}
	return cards.ShipView{}, false
}

// aim moves the view's cursor to seat's grid position pos by arrow keys.
func aim(t testing.TB, v *View, seat engine.Seat, pos int) {
	row := pos / cards.GridCols
	if seat == v.seat() {
		row += cards.GridRows
	}
	for v.row > row {
		boardtest.Press(t, v, tcell.KeyUp)
	}
	for v.row < row {
		boardtest.Press(t, v, tcell.KeyDown)
	}
	for v.col > pos%cards.GridCols {
		boardtest.Press(t, v, tcell.KeyLeft)
	}
	for v.col < pos%cards.GridCols {
		boardtest.Press(t, v, tcell.KeyRight)
	}
}

// pick selects hand card i with the digit keys or tab.
func pick(t testing.TB, v *View, i int) {
	t.Helper()
	boardtest.PickHand(t, v, i, func() int { return v.sel })
}

func decoded(t *testing.T, req *board.Request) cards.Move {
	t.Helper()
	return boardtest.Move(t, req, cards.DecodeMove)
}

func TestCommitSendsTheRightCards(t *testing.T) {
	count := func(leaves [][]byte) map[byte]int {
		out := map[byte]int{}
		for _, l := range leaves {
			out[l[0]]++
		}
		return out
	}
	tests := []struct {
		name    string
		variant string
		reach   func(g *cards.Game) bool
		want    func(tb *table) [][]byte
	}{
		{"coordinate cards", cards.VariantStandard, func(g *cards.Game) bool { return g.Next().Name == cards.CoordsName }, func(*table) [][]byte {
			var out [][]byte
			for _, k := range cards.CoordList() {
				out = append(out, cards.EncodeCoord(k))
			}
			return out
		}},
		{"standard deck", cards.VariantStandard, func(g *cards.Game) bool { return g.Next().Name == cards.DeckName(1) }, deckLeaves(cards.VariantStandard)},
		{"beginner deck", cards.VariantBeginner, func(g *cards.Game) bool { return g.Next().Name == cards.DeckName(1) }, deckLeaves(cards.VariantBeginner)},
		{"reshuffle of the discard pile", cards.VariantStandard, func(g *cards.Game) bool {
			n := g.Next()
			return n.Kind == engine.NeedCommit && n.Name == cards.DeckName(2)
		}, func(tb *table) [][]byte {
			var out [][]byte
			d := tb.G.Discard(tb.G.Next().Seat)
			for f := cards.White; f <= cards.RepairDraw; f++ {
				for range d[f] {
					out = append(out, cards.EncodeCard(f))
				}
			}
			return out
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tb *table
			for seed := uint64(1); tb == nil && seed < 50; seed++ {
				x := newTable(t, tc.variant, seed)
				if x.Until(tc.reach) {
					tb = x
				}
			}
			if tb == nil {
				t.Fatal("no match reached the commitment")
			}
			seat := tb.G.Next().Seat
			v := newView()
			req := tb.Ask(v, seat)
			if !strings.Contains(v.Prompt(), "enter") {
				t.Fatalf("prompt %q", v.Prompt())
			}
			boardtest.Press(t, v, tcell.KeyEnter)
			d, ok := req.Answer()
			if !ok {
				t.Fatalf("nothing committed: %q", v.Prompt())
			}
			if got, want := count(d.Leaves), count(tc.want(tb)); !equalCounts(got, want) {
				t.Fatalf("committed %v, want %v", got, want)
			}
			tb.Answer(req) // the engine takes it
		})
	}
}

func deckLeaves(variant string) func(*table) [][]byte {
	return func(*table) [][]byte {
		deck, _ := cards.DeckList(variant)
		var out [][]byte
		for _, f := range deck {
			out = append(out, cards.EncodeCard(f))
		}
		return out
	}
}

func equalCounts(a, b map[byte]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, n := range a {
		if b[k] != n {
			return false
		}
	}
	return true
}

func TestEnterPlaysThePickedCardOnTheCursor(t *testing.T) {
	tests := []struct {
		name  string
		ready func(tb *table) bool
		keys  func(t *testing.T, tb *table, v *View)
		want  func(t *testing.T, tb *table, m cards.Move)
	}{
		{
			name:  "a white peg taps a facedown card",
			ready: func(tb *table) bool { return tb.hasFace(cards.White) },
			keys: func(t *testing.T, tb *table, v *View) {
				pick(t, v, tb.handIndex(cards.White))
				aim(t, v, 1, facedown(tb.G.Grid(1)))
				boardtest.Press(t, v, tcell.KeyEnter)
			},
			want: func(t *testing.T, tb *table, m cards.Move) {
				if m.Action != cards.Tap || m.Face != cards.White || m.Pos != facedown(tb.G.Grid(1)) {
					t.Fatalf("sent %v", m)
				}
			},
		},
		{
			name: "a red peg attacks a revealed ship",
			ready: func(tb *table) bool {
				_, ok := enemyShip(tb.G, 1, func(sv cards.ShipView) bool { return sv.Ship != cards.Submarine })
				return ok && tb.hasFace(cards.Red1)
			},
			keys: func(t *testing.T, tb *table, v *View) {
				sv, _ := enemyShip(tb.G, 1, func(sv cards.ShipView) bool { return sv.Ship != cards.Submarine })
				pick(t, v, tb.handIndex(cards.Red1))
				aim(t, v, 1, sv.Pos)
				boardtest.Press(t, v, tcell.KeyEnter)
			},
			want: func(t *testing.T, tb *table, m cards.Move) {
				sv, _ := enemyShip(tb.G, 1, func(sv cards.ShipView) bool { return sv.Ship != cards.Submarine })
				if m.Action != cards.Attack || m.Ship != sv.Ship || m.Face != cards.Red1 {
					t.Fatalf("sent %v", m)
				}
			},
		},
		{
			name: "a Shield goes on one of your revealed ships",
			ready: func(tb *table) bool {
				_, ok := enemyShip(tb.G, 0, func(sv cards.ShipView) bool { return !sv.Shield })
				return ok && tb.hasFace(cards.ShieldCard)
			},
			keys: func(t *testing.T, tb *table, v *View) {
				sv, _ := enemyShip(tb.G, 0, func(sv cards.ShipView) bool { return !sv.Shield })
				pick(t, v, tb.handIndex(cards.ShieldCard))
				aim(t, v, 0, sv.Pos)
				boardtest.Press(t, v, tcell.KeyEnter)
			},
			want: func(t *testing.T, tb *table, m cards.Move) {
				sv, _ := enemyShip(tb.G, 0, func(sv cards.ShipView) bool { return !sv.Shield })
				if m.Action != cards.PlaceShield || m.Ship != sv.Ship {
					t.Fatalf("sent %v", m)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := findTurn(t, cards.VariantStandard, tc.ready)
			v := newView()
			req := tb.Ask(v, 0)
			tc.keys(t, tb, v)
			m := decoded(t, req)
			tc.want(t, tb, m)
			tb.Answer(req)
		})
	}
}

// missAt returns a faceup miss of seat 1's grid, or -1.
func missAt(g *cards.Game) int {
	for i, c := range g.Grid(1) {
		if c.Faceup && c.Ship == cards.NoShip {
			return i
		}
	}
	return -1
}

// facedown returns the first facedown position of a grid.
func facedown(g [cards.GridSize]cards.Cell) int {
	for i, c := range g {
		if !c.Faceup {
			return i
		}
	}
	return -1
}

func TestRefusalsSayWhy(t *testing.T) {
	tests := []struct {
		name  string
		ready func(tb *table) bool
		keys  func(tb *table, v *View)
		msg   string
	}{
		{
			name: "a white peg on a ship without the Destroyer's power",
			ready: func(tb *table) bool {
				_, ok := enemyShip(tb.G, 1, func(sv cards.ShipView) bool { return sv.Ship != cards.Submarine })
				return ok && tb.hasFace(cards.White) && !tb.G.PowerOn(0, cards.Destroyer)
			},
			keys: func(tb *table, v *View) {
				sv, _ := enemyShip(tb.G, 1, func(sv cards.ShipView) bool { return sv.Ship != cards.Submarine })
				pick(tb.T, v, tb.handIndex(cards.White))
				aim(tb.T, v, 1, sv.Pos)
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			msg: "refused: a white peg card cannot damage",
		},
		{
			name: "a miss holds nothing to play on",
			ready: func(tb *table) bool {
				return tb.hasFace(cards.Red1) && missAt(tb.G) >= 0
			},
			keys: func(tb *table, v *View) {
				pick(tb.T, v, tb.handIndex(cards.Red1))
				aim(tb.T, v, 1, missAt(tb.G))
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			msg: "is a miss",
		},
		{
			name:  "a peg card on your own grid",
			ready: func(tb *table) bool { _, ok := enemyShip(tb.G, 0, nil); return ok && tb.hasFace(cards.Red1) },
			keys: func(tb *table, v *View) {
				sv, _ := enemyShip(tb.G, 0, nil)
				pick(tb.T, v, tb.handIndex(cards.Red1))
				aim(tb.T, v, 0, sv.Pos)
				boardtest.Press(tb.T, v, tcell.KeyEnter)
			},
			msg: "goes on the opponent's grid",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb := findTurn(t, cards.VariantStandard, tc.ready)
			v := newView()
			req := tb.Ask(v, 0)
			boardtest.Refuses(t, v, req, tb.G, tc.msg, func() { tc.keys(tb, v) })
			// The next key clears the reason.
			boardtest.Press(t, v, tcell.KeyTab)
			if strings.Contains(v.Prompt(), "refused") {
				t.Fatalf("the refusal stays: %q", v.Prompt())
			}
		})
	}
}

func TestUsesMenuListsEveryLegalUse(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool { return tb.hasFace(cards.DiscardPlay) })
	v := newView()
	req := tb.Ask(v, 0)
	i := tb.handIndex(cards.DiscardPlay)
	pick(t, v, i)
	boardtest.Press(t, v, tcell.KeyEnter) // a two-power card has no cell: enter lists its uses
	if !v.menu.Open() {
		t.Fatalf("no menu: %q", v.Prompt())
	}
	var want int
	for _, m := range tb.G.LegalMoves(0, tb.Own(0)) {
		if m.Face == cards.DiscardPlay {
			want++
		}
	}
	if len(v.menu.Items) != want || v.menu.Items[0].Label != "play 2 more cards" {
		t.Fatalf("menu %+v, want %d uses starting with play 2", v.menu.Items, want)
	}
	_, txt := boardtest.RenderText(t, v, 51, 22)
	if !strings.Contains(txt, "Uses of "+glyphPower+" discard/play 2") || !strings.Contains(txt, "1 play 2 more cards") {
		t.Fatalf("menu not drawn\n%s", txt)
	}
	boardtest.Press(t, v, tcell.KeyEscape)
	if v.menu.Open() {
		t.Fatal("esc did not close the menu")
	}
	boardtest.Press(t, v, "o", "1")
	m := decoded(t, req)
	if m.Action != cards.PlayTwo || m.Card != tb.G.Hand(0)[i] {
		t.Fatalf("sent %v", m)
	}
	tb.Answer(req)
	if tb.G.PlaysLeft() != cards.PowerExtraPlays {
		t.Fatalf("%d plays left", tb.G.PlaysLeft())
	}
}

func TestPTBoatRepairAtTheStartOfATurn(t *testing.T) {
	var tb *table
	for seed := uint64(1); tb == nil && seed < 400; seed++ {
		x := newTable(t, cards.VariantStandard, seed)
		if x.Until(func(g *cards.Game) bool {
			n := g.Next()
			return n.Kind == engine.NeedMove && n.Seat == 0 && isStartNeed(g, 0)
		}) {
			tb = x
		}
	}
	if tb == nil {
		t.Fatal("no PT Boat repair came up")
	}
	for _, tc := range []struct {
		name string
		keys []any
		want cards.Action
	}{
		{"s skips", []any{"s"}, cards.Skip},
		{"the second entry repairs", []any{tcell.KeyDown, tcell.KeyEnter}, cards.PTRepair},
		{"esc does not leave the decision", []any{tcell.KeyEscape, "1"}, cards.Skip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newView()
			req := tb.Ask(v, 0)
			if !v.menu.Open() || !strings.Contains(v.Prompt(), "PT Boat") {
				t.Fatalf("no PT Boat choice: %q", v.Prompt())
			}
			boardtest.Press(t, v, tc.keys...)
			if m := decoded(t, req); m.Action != tc.want {
				t.Fatalf("sent %v, want %v", m, tc.want)
			}
		})
	}
}

func TestDrawThreeLimitsThePlay(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool {
		must := tb.G.MustPlayFrom()
		return len(must) > 0 && len(tb.G.Hand(0)) > len(must)
	})
	v := newView()
	req := tb.Ask(v, 0)
	hand := tb.G.Hand(0)
	if !slices.Contains(tb.G.MustPlayFrom(), hand[v.sel]) {
		t.Fatalf("the picked card %v is not one of the drawn %v", hand[v.sel], tb.G.MustPlayFrom())
	}
	other := slices.IndexFunc(hand, func(c cards.CardRef) bool { return !slices.Contains(tb.G.MustPlayFrom(), c) })
	pick(t, v, other)
	boardtest.Press(t, v, "o")
	if v.menu.Open() || !strings.Contains(v.Prompt(), "not one of the 3 drawn") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	if !strings.Contains(v.Prompt(), "play one of the 3 drawn") {
		t.Fatalf("prompt %q", v.Prompt())
	}
	if _, ok := req.Answer(); ok {
		t.Fatal("sent a move")
	}
}

func TestMouseAimsPicksAndPlays(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool { return tb.hasFace(cards.Red1) && tb.hasFace(cards.White) })
	v := newView()
	req := tb.Ask(v, 0)
	boardtest.RenderText(t, v, 71, 28)
	// A click on a hand card picks it.
	hw := tb.handIndex(cards.White)
	r := v.geo.hand[hw]
	boardtest.Mouse(v, tview.MouseLeftClick, r.X, r.Y)
	if v.sel != hw {
		t.Fatalf("picked %d, want %d", v.sel, hw)
	}
	// A right click lists its uses; a click on one plays it.
	boardtest.Mouse(v, tview.MouseRightClick, r.X, r.Y)
	if !v.menu.Open() {
		t.Fatal("no menu")
	}
	boardtest.RenderText(t, v, 71, 28)
	mr := v.menu.Row(1)
	want := v.menu.Items[1].Move
	boardtest.Mouse(v, tview.MouseLeftClick, mr.X+3, mr.Y)
	if m := decoded(t, req); m.Face != cards.White || m.Action != want.Action || m.Pos != want.Pos || m.Ship != want.Ship {
		t.Fatalf("sent %v, want %v", m, want)
	}
	// A click on a facedown enemy cell taps it.
	v2 := newView()
	req2 := tb.Ask(v2, 0)
	boardtest.RenderText(t, v2, 51, 22)
	pick(t, v2, tb.handIndex(cards.Red1))
	pos := facedown(tb.G.Grid(1))
	cell := v2.geo.cells[pos/cards.GridCols][pos%cards.GridCols]
	boardtest.Mouse(v2, tview.MouseLeftClick, cell.X+2, cell.Y)
	if m := decoded(t, req2); m.Action != cards.Tap || m.Pos != pos || m.Face != cards.Red1 {
		t.Fatalf("sent %v", m)
	}
}

func TestDrawShowsEveryStateWithAGlyph(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool {
		g := tb.G
		sunk := slices.ContainsFunc(g.Fleet(1), func(sv cards.ShipView) bool { return sv.Sunk })
		_, afloat := enemyShip(g, 0, nil)
		return sunk && afloat && missAt(g) >= 0
	})
	v := newView()
	tb.Ask(v, 0)
	scr, txt := boardtest.RenderText(t, v, 51, 22)
	cells, w, _ := scr.GetContents()
	at := func(r board.Rect) (string, tcell.Style) {
		c := cells[r.Y*w+r.X]
		return string(c.Runes), c.Style
	}
	g := tb.G
	check := func(seat engine.Seat, pos int, glyph string, st tcell.Style) {
		t.Helper()
		row := pos / cards.GridCols
		if seat == 0 {
			row += cards.GridRows
		}
		r := v.geo.cells[row][pos%cards.GridCols]
		if gl, s := at(r); gl != glyph || (s != st && s != st.Reverse(true)) {
			t.Errorf("%s %s drawn %q %v, want %q %v\n%s", seat, cards.PosName(pos), gl, s, glyph, st, txt)
		}
	}
	for pos, c := range g.Grid(1) {
		switch {
		case !c.Faceup:
			check(1, pos, glyphBack, v.th.Dim)
		case c.Ship == cards.NoShip:
			check(1, pos, style.Miss, v.th.Miss)
		default:
			sv := g.Fleet(1)[slices.IndexFunc(g.Fleet(1), func(s cards.ShipView) bool { return s.Ship == c.Ship })]
			if sv.Sunk {
				check(1, pos, style.Sunk, v.th.Sunk)
			} else {
				check(1, pos, style.Ship, v.th.Ghost)
			}
		}
	}
	sv, _ := enemyShip(g, 0, nil)
	check(0, sv.Pos, style.Ship, v.th.Ship)
	for _, want := range []string{"Target · bot", "Your grid", "Hand", "Powers", "Discard bot: ", "Discard you: ", "hand 5", "draw"} {
		if !strings.Contains(txt, want) {
			t.Errorf("screen lacks %q\n%s", want, txt)
		}
	}
}

func TestLiveBoardNeverDrawsTheOpponentsHand(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool { return tb.G.Turns() > 6 })
	v := newView()
	// Even handed every value, a live board draws only its own hand.
	v.Show(board.Snapshot{Game: tb.G.Clone(), Seat: 0, Secrets: tb.Known, Names: []string{"ann", "bot"}})
	_, txt := boardtest.RenderText(t, v, 100, 28)
	var opp []string
	for _, it := range v.handItems(1, false) {
		opp = append(opp, it.text)
	}
	if strings.Contains(txt, strings.Join(opp, "  ")) {
		t.Fatalf("the opponent's hand %v is drawn\n%s", opp, txt)
	}
	own := v.handItems(0, true)
	if len(own) != len(tb.G.Hand(0)) || strings.Contains(own[0].text, "?") {
		t.Fatalf("own hand %v", own)
	}
	// The spectator board draws both hands with their faces.
	v.Show(board.Snapshot{Game: tb.G.Clone(), Seat: 0, Secrets: tb.Known, Names: []string{"ann", "bot"}, Spectator: true})
	_, txt = boardtest.RenderText(t, v, 71, 28)
	for _, s := range []engine.Seat{0, 1} {
		for _, it := range v.handItems(s, false) {
			if !strings.Contains(txt, it.text) || strings.Contains(it.text, "?") {
				t.Fatalf("spectator hand of %s lacks %q\n%s", s, it.text, txt)
			}
		}
	}
	if !strings.Contains(txt, "ann · seat 0") || !strings.Contains(txt, "bot · seat 1") {
		t.Fatalf("titles\n%s", txt)
	}
	if len(v.Bindings()) != 0 {
		t.Fatal("a spectator board has keys")
	}
}

func TestChangesAreToldInWords(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool { return tb.G.Turns() > 2 })
	v := newView()
	show := func() {
		v.Show(board.Snapshot{Game: tb.G.Clone(), Seat: 0, Secrets: tb.Own(0), Names: []string{"ann", "bot"}})
	}
	show()
	// Play on until something is turned up, showing every state.
	for !slices.ContainsFunc(v.recent, func(s string) bool { return strings.Contains(s, "turns up") }) {
		if tb.G.Next().Kind == engine.NeedNone {
			t.Fatal("nothing was turned up")
		}
		tb.Step()
		show()
	}
	line := v.recent[len(v.recent)-1]
	if !strings.HasPrefix(line, "Your ") && !strings.HasPrefix(line, "bot's ") {
		t.Fatalf("change line %q", line)
	}
	_, txt := boardtest.RenderText(t, v, 51, 22)
	if !strings.Contains(txt, "· "+line[:20]) {
		t.Fatalf("the change is not drawn\n%s", txt)
	}
}

func TestMonochromeUsesNoColour(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(tb *table) bool { _, ok := enemyShip(tb.G, 1, nil); return ok })
	v := New(board.Env{Theme: style.New(true)})
	tb.Ask(v, 0)
	scr, _ := boardtest.RenderText(t, v, 71, 28)
	boardtest.Mono(t, scr)
}

func TestTooSmallSaysSo(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(*table) bool { return true })
	v := newView()
	tb.Ask(v, 0)
	if _, txt := boardtest.RenderText(t, v, 30, 10); !strings.Contains(txt, "needs more room") {
		t.Fatalf("a tiny board\n%s", txt)
	}
	if _, txt := boardtest.RenderText(t, v, 51, 22); strings.Contains(txt, "needs more room") {
		t.Fatalf("the 80x24 board\n%s", txt)
	}
}

func TestWithdrawStopsAsking(t *testing.T) {
	tb := findTurn(t, cards.VariantStandard, func(*table) bool { return true })
	v := newView()
	req := tb.Ask(v, 0)
	boardtest.Press(t, v, "o")
	v.Withdraw(req)
	// Only the legend key stays: it asks nothing.
	if bs := v.Bindings(); v.Prompt() != "" || len(bs) != 1 || bs[0].Label != "g" || v.menu.Open() {
		t.Fatalf("still asking: %q", v.Prompt())
	}
}
