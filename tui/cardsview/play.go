package cardsview

import (
	"fmt"
	"slices"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
)

// Grid cursor rows: 0-2 are the opponent's grid, 3-5 the player's.
const cursorRows = 2 * cards.GridRows

// menu is the list of legal uses of the picked card (or of the PT Boat's
// repairs at the start of a turn).
type menu = board.Menu[cards.Move]

// isStart reports whether the move asked for is the start-of-turn PT Boat
// decision.
func (v *View) isStart() bool {
	for _, m := range v.g.LegalMoves(v.seat(), v.secrets()) {
		if m.Action == cards.Skip {
			return true
		}
	}
	return false
}

// fitSel keeps the picked card inside the hand.
func (v *View) fitSel() {
	if v.g == nil {
		return
	}
	n := len(v.g.Hand(v.seat()))
	v.sel = min(max(v.sel, 0), max(n-1, 0))
}

// startPlay picks a card that may be played: one of the three just drawn
// with "Draw 3", else the card picked before.
func (v *View) startPlay() {
	v.fitSel()
	hand := v.g.Hand(v.seat())
	if must := v.g.MustPlayFrom(); len(must) > 0 {
		if v.sel >= len(hand) || !slices.Contains(must, hand[v.sel]) {
			v.sel = max(0, slices.Index(hand, must[0]))
		}
	}
	v.skipDeadCell()
}

// skipDeadCell moves a cursor left on a card of the opponent's grid that
// nothing can be played on any more (a miss, a sunk ship) to the next
// facedown card, so that enter has a target.
func (v *View) skipDeadCell() {
	s, pos := v.cursorCell()
	if s == v.seat() {
		return
	}
	grid := v.g.Grid(s)
	if _, afloat := v.shipAt(s, pos); !grid[pos].Faceup || afloat {
		return
	}
	for i := 1; i < cards.GridSize; i++ {
		p := (pos + i) % cards.GridSize
		if !grid[p].Faceup {
			v.row, v.col = p/cards.GridCols, p%cards.GridCols
			return
		}
	}
}

// picked returns the picked hand card and its face (NoFace if unknown).
func (v *View) picked() (cards.CardRef, cards.Face, bool) {
	hand := v.g.Hand(v.seat())
	if v.sel < 0 || v.sel >= len(hand) {
		return cards.CardRef{}, cards.NoFace, false
	}
	return hand[v.sel], v.g.HandFaces(v.seat(), v.secrets())[v.sel], true
}

// usesOf lists the legal moves that play hand card i. Cards of one face
// are interchangeable, so the engine's list for that face is taken with the
// card put in.
func (v *View) usesOf(i int) []cards.Move {
	hand := v.g.Hand(v.seat())
	if i < 0 || i >= len(hand) {
		return nil
	}
	f := v.g.HandFaces(v.seat(), v.secrets())[i]
	if must := v.g.MustPlayFrom(); must != nil && !slices.Contains(must, hand[i]) {
		return nil
	}
	var out []cards.Move
	for _, m := range v.g.LegalMoves(v.seat(), v.secrets()) {
		if m.Face == f && m.Action != cards.Skip && m.Action != cards.PTRepair {
			m.Card = hand[i]
			out = append(out, m)
		}
	}
	return out
}

// send encodes and replies a move.
func (v *View) send(m cards.Move) {
	v.reply(engine.Decision{Move: m.Encode()})
}

// openMenu lists the legal uses of the picked card, or the PT Boat's
// choices at the start of a turn.
func (v *View) openMenu() {
	var moves []cards.Move
	title := ""
	switch v.mode {
	case starting:
		moves = v.g.LegalMoves(v.seat(), v.secrets())
		title = "PT Boat: take a peg card off one of your ships?"
	case playing:
		_, f, ok := v.picked()
		if !ok {
			v.life.Msg = "your hand is empty"
			return
		}
		moves = v.usesOf(v.sel)
		if len(moves) == 0 {
			if v.g.MustPlayFrom() != nil {
				v.life.Msg = "not one of the 3 drawn: tab picks another card"
			} else {
				v.life.Msg = "this card cannot be played now"
			}
			return
		}
		title = "Uses of " + faceLabel(f)
	default:
		return
	}
	v.showMenu(title, moves)
}

// showMenu opens the menu on moves.
func (v *View) showMenu(title string, moves []cards.Move) {
	items := make([]board.MenuItem[cards.Move], len(moves))
	for i, m := range moves {
		items[i] = board.MenuItem[cards.Move]{Label: v.moveLabel(m), Move: m}
	}
	v.menu = menu{Title: title, Items: items}
}

func (v *View) closeMenu() {
	if v.mode == starting {
		return // the decision is the menu's
	}
	v.menu.Close()
}

// moveLabel puts a legal move into words from the player's side.
func (v *View) moveLabel(m cards.Move) string {
	opp := 1 - v.seat()
	them := v.life.Snap.Name(opp)
	switch m.Action {
	case cards.Tap:
		return fmt.Sprintf("tap %s's %s (facedown)", them, cards.PosName(m.Pos))
	case cards.Attack:
		return fmt.Sprintf("attack %s's %s (%d/%d hits)", them, m.Ship.Title(), v.g.Damage(opp, m.Ship), m.Ship.Hits())
	case cards.PlaceShield:
		return "shield your " + m.Ship.Title()
	case cards.PlayTwo:
		return "play 2 more cards"
	case cards.DiscardWhite:
		return fmt.Sprintf("discard %d white peg card(s) (draw more at reload)", len(m.Discard))
	case cards.Repair:
		return fmt.Sprintf("repair: take %s off your %s, then play a card", v.pegOn(m.Ship, m.Peg), m.Ship.Title())
	case cards.Draw3:
		return "draw 3 cards, then play one of them"
	case cards.DiscardDead:
		return "discard it (it has no use now)"
	case cards.PTRepair:
		return fmt.Sprintf("take %s off your %s", v.pegOn(m.Ship, m.Peg), m.Ship.Title())
	case cards.Skip:
		return "skip the repair"
	}
	return m.String()
}

// pegOn names peg card i on the player's ship k.
func (v *View) pegOn(k cards.Ship, i int) string {
	for _, sv := range v.g.Fleet(v.seat()) {
		if sv.Ship == k && i >= 0 && i < len(sv.Pegs) {
			return faceWords(sv.Pegs[i])
		}
	}
	return fmt.Sprintf("peg card %d", i+1)
}

// commit answers a NeedCommit with the cards in a shuffled order.
func (v *View) commit() {
	if v.life.Req == nil {
		return
	}
	leaves, err := commitLeaves(v.g, v.life.Req.Need, v.seat(), v.rand)
	if err != nil {
		v.life.Msg = err.Error()
		return
	}
	v.reply(engine.Decision{Leaves: leaves})
}

// commitLeaves returns the leaves of the commitment n asks of seat, in an
// order r shuffles: the coordinate cards, the first deck, or (a
// reshuffle) the cards of the seat's discard pile.
func commitLeaves(g *cards.Game, n engine.Need, seat engine.Seat, r interface{ Shuffle(int, func(int, int)) }) ([][]byte, error) {
	var out [][]byte
	switch n.Name {
	case cards.CoordsName:
		for _, k := range cards.CoordList() {
			out = append(out, cards.EncodeCoord(k))
		}
	case cards.DeckName(1):
		deck, err := cards.DeckList(g.Variant())
		if err != nil {
			return nil, fmt.Errorf("deck list: %w", err)
		}
		for _, f := range deck {
			out = append(out, cards.EncodeCard(f))
		}
	default:
		disc := g.Discard(seat)
		for f := cards.White; f <= cards.RepairDraw; f++ {
			for range disc[f] {
				out = append(out, cards.EncodeCard(f))
			}
		}
	}
	if len(out) != n.Size {
		return nil, fmt.Errorf("%d cards for %s, the match wants %d", len(out), n.Name, n.Size)
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

func (v *View) commitPrompt() string {
	n := v.life.Req.Need
	switch n.Name {
	case cards.CoordsName:
		return fmt.Sprintf("Commit your %d coordinate cards: enter (their places are drawn when tapped)", cards.GridSize)
	case cards.DeckName(1):
		return fmt.Sprintf("Commit your %d-card deck: enter (every draw is a joint random pick)", n.Size)
	}
	return fmt.Sprintf("Your draw pile is empty: enter shuffles your %d discards into a new draw pile", n.Size)
}

// cursorCell returns the seat and grid position under the cursor.
func (v *View) cursorCell() (engine.Seat, int) {
	if v.row < cards.GridRows {
		return 1 - v.seat(), v.row*cards.GridCols + v.col
	}
	return v.seat(), (v.row-cards.GridRows)*cards.GridCols + v.col
}

// shipAt returns the ship shown at seat's grid position pos, if it is
// revealed and afloat.
func (v *View) shipAt(s engine.Seat, pos int) (cards.Ship, bool) {
	c := v.g.Grid(s)[pos]
	if !c.Faceup || !c.Ship.Valid() {
		return cards.NoShip, false
	}
	for _, sv := range v.g.Fleet(s) {
		if sv.Ship == c.Ship {
			return c.Ship, sv.Revealed && !sv.Sunk
		}
	}
	return cards.NoShip, false
}

// playAtCursor plays the picked card on the cell under the cursor: a tap or
// an attack on the opponent's grid, a shield or a repair on the player's.
func (v *View) playAtCursor() {
	c, f, ok := v.picked()
	if !ok {
		v.life.Msg = "your hand is empty"
		return
	}
	if !f.Valid() {
		v.life.Msg = "this board does not know that card's face"
		return
	}
	s, pos := v.cursorCell()
	if f == cards.DiscardPlay || (f == cards.RepairDraw && s != v.seat()) {
		v.openMenu()
		return
	}
	if s != v.seat() {
		k, afloat := v.shipAt(s, pos)
		switch {
		case !v.g.Grid(s)[pos].Faceup:
			v.send(cards.Move{Action: cards.Tap, Card: c, Face: f, Pos: pos})
		case afloat:
			v.send(cards.Move{Action: cards.Attack, Card: c, Face: f, Ship: k})
		case k.Valid():
			v.life.Msg = fmt.Sprintf("the %s is sunk", k.Title())
		default:
			v.life.Msg = cards.PosName(pos) + " is a miss: nothing to play on"
		}
		return
	}
	k, afloat := v.shipAt(s, pos)
	if !afloat {
		v.life.Msg = "pick one of your revealed ships afloat, or aim at the opponent's grid"
		return
	}
	switch {
	case f == cards.ShieldCard:
		v.send(cards.Move{Action: cards.PlaceShield, Card: c, Face: f, Ship: k})
	case f == cards.RepairDraw:
		var reps []cards.Move
		for _, m := range v.usesOf(v.sel) {
			if m.Action == cards.Repair && m.Ship == k {
				reps = append(reps, m)
			}
		}
		switch len(reps) {
		case 0:
			v.life.Msg = fmt.Sprintf("your %s carries no peg card to take off", k.Title())
		case 1:
			v.send(reps[0])
		default:
			v.showMenu("Repair your "+k.Title()+": take off which card?", reps)
		}
	default:
		v.life.Msg = fmt.Sprintf("%s goes on the opponent's grid, not on your %s", faceWords(f), k.Title())
	}
}

func (v *View) playPrompt() string {
	_, f, ok := v.picked()
	if !ok {
		return "Your turn: your hand is empty"
	}
	head := "Your turn"
	if left := v.g.PlaysLeft(); left > 1 {
		head = fmt.Sprintf("Your turn (%d plays left)", left)
	}
	if v.g.MustPlayFrom() != nil {
		head = "Your turn: play one of the 3 drawn"
	}
	if v.menu.Open() {
		return fmt.Sprintf("%s: pick a use of %s — enter plays, esc goes back", head, faceLabel(f))
	}
	s, pos := v.cursorCell()
	return fmt.Sprintf("%s: %s → %s — enter plays, o lists uses", head, faceLabel(f), v.cellShort(s, pos))
}

// cellShort describes a grid cell for the prompt: "their A1 (facedown)",
// "your Destroyer".
func (v *View) cellShort(s engine.Seat, pos int) string {
	owner := "their"
	if s == v.seat() {
		owner = "your"
	}
	c := v.g.Grid(s)[pos]
	switch {
	case !c.Faceup:
		return fmt.Sprintf("%s %s (facedown)", owner, cards.PosName(pos))
	case c.Ship == cards.NoShip:
		return fmt.Sprintf("%s %s (miss)", owner, cards.PosName(pos))
	}
	return owner + " " + c.Ship.Title()
}

func (v *View) move(dr, dc int) {
	v.row = min(max(v.row+dr, 0), cursorRows-1)
	v.col = min(max(v.col+dc, 0), cards.GridCols-1)
}

func (v *View) cycle(d int) {
	n := len(v.g.Hand(v.seat()))
	if n == 0 {
		return
	}
	v.sel = (v.sel + d + n) % n
}

func (v *View) playBindings() []keys.Binding {
	n := len(v.g.Hand(v.seat()))
	bs := append(keys.Arrows("aim", "move the cursor over both grids (the opponent's above, yours below)", v.move), []keys.Binding{
		{Keys: keys.Enter, Label: "enter", Hint: "play", Help: "play the picked card on the cell under the cursor: tap or attack the opponent's grid, shield or repair your ship (a click on a cell does too)", Run: v.playAtCursor},
		{Keys: []keys.Key{keys.R('o'), keys.R(' ')}, Label: "o", Hint: "uses", Help: "list every legal use of the picked card in words (space or a right click too)", Run: v.openMenu},
		{Keys: keys.Tab, Label: "tab", Hint: "card", Help: "pick the next card of your hand (a click on a card too)", Run: func() { v.cycle(1) }},
		{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous card", Hidden: true, Help: "pick the previous card of your hand", Run: func() { v.cycle(-1) }},
	}...)
	return append(bs, keys.Digits("card", "pick card N of your hand", n, func(i int) { v.sel = i })...)
}

func (v *View) menuBindings() []keys.Binding {
	back := keys.Binding{Keys: []keys.Key{keys.K(tcell.KeyEscape), keys.R('o')}, Label: "esc", Hint: "back", Help: "close the list and aim again", Run: v.closeMenu}
	if v.mode == starting {
		back = keys.Binding{Keys: []keys.Key{keys.R('s')}, Label: "s", Hint: "skip", Help: "leave every peg card where it is", Run: func() {
			v.send(cards.Move{Action: cards.Skip})
		}}
	}
	return v.menu.Bindings(v.send, back)
}
