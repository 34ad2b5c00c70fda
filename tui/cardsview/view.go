// Package cardsview is the board of the Battleship Card Game with coordinate
// cards (game "cards") in the Salvo terminal interface: the opponent's 3 x 4
// grid of coordinate cards and yours (facedown, miss, or ship with the peg
// cards and shield on it), your hand, both draw piles and discard piles, the
// ship powers in force, and what changed since the last move. It turns keys
// and clicks into the decisions the engine asks for: the commitments of the
// coordinate cards, the deck and every reshuffle; the PT Boat repair at the
// start of a turn; and every play of a card (tap, attack, shield, the two
// powers of each power card, the repair, "draw 3", a dead card's discard).
//
// # Playing
//
// Pick a hand card (tab, 1-9, or a click), aim with the arrows at a cell of
// either grid and press enter (or click the cell): a peg card taps a
// facedown card or attacks a revealed ship, a Shield or a repair goes on one
// of your ships. o (or a right click) lists every legal use of the picked
// card in words, the only way to the uses that have no cell (play 2 more,
// discard white peg cards, draw 3, discard a dead card). Every choice is
// checked against a copy of the engine before it is sent: an illegal one is
// refused with the engine's reason on the prompt line.
//
// # House choices of the board
//
// The coordinate cards and the deck have no setup choices: which card lies
// where is a joint random pick made when a card is tapped, and every draw is
// a joint random pick too, so the board commits them in a shuffled order
// with one key (enter) and offers no "random layout" key. The layout
// numbers are the constants of draw.go: at most keepRecent (6) changes are
// kept for the "what changed" lines; a grid cell is minCellW (9) to
// maxCellW (18) cells wide, and a grid row takes two lines (the card, then
// its hits, shield, power and pegs) unless the board is short, when it
// takes one and the lower grid borrows the upper grid's column numbers.
//
// In the audit viewer (a spectator snapshot) both hands are drawn with the
// faces the audit opened; the facedown coordinate cards stay facedown there
// too, since nobody, their owner included, knew them.
package cardsview

import (
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/cards"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

func init() {
	board.Register(cards.Spec.Name, func(env board.Env) board.View { return New(env) })
}

// mode is what the board is doing with the player.
type mode int

const (
	idle       mode = iota // nothing asked: just draw
	committing             // NeedCommit: the coordinate cards, a deck, a reshuffle
	starting               // the PT Boat repair at the start of a turn
	playing                // play a card
)

// View is the coordinate-card board. Build it with New; it implements
// board.View and board.Describer.
type View struct {
	board.Base
	th   *style.Theme
	rand *rand.Rand

	life board.Pending[*cards.Game] // the snapshot, the request and the message line
	g    *cards.Game
	mode mode

	sel      int // the picked hand card (index into the hand)
	row, col int // the cursor: rows 0-2 the opponent's grid, 3-5 yours
	menu     menu

	prev   *cards.Game // the game last drawn, for the change log
	recent []string    // what changed, newest last
	legend bool        // the legend shows in place of the change log

	geo geometry
}

var (
	_ board.View      = (*View)(nil)
	_ board.Describer = (*View)(nil)
)

// New returns an empty board.
func New(env board.Env) *View {
	env = env.WithDefaults()
	v := &View{th: env.Theme, rand: env.Rand}
	v.Base = board.NewBase(board.Handlers{Self: v, Bindings: v.Bindings, Click: v.click, Msg: &v.life.Msg, Right: true})
	return v
}

// Show replaces the snapshot the board draws from.
func (v *View) Show(s board.Snapshot) {
	g, _ := v.life.Show(s)
	v.setGame(g)
}

// setGame makes g the game drawn and records what changed since the last.
func (v *View) setGame(g *cards.Game) {
	if g == nil {
		v.g = nil
		return
	}
	switch {
	case v.prev == nil || g.Hash() == v.prev.Hash():
	case before(g, v.prev):
		// An earlier state (the audit viewer stepping back): what was told
		// since no longer holds.
		v.recent = nil
	default:
		if line := changes(v.prev, g, v.who); line != "" {
			v.recent = append(v.recent, line)
			if len(v.recent) > keepRecent {
				v.recent = v.recent[len(v.recent)-keepRecent:]
			}
		}
	}
	v.prev, v.g = g, g
	v.fitSel()
}

// Ask starts the decision the request asks for.
func (v *View) Ask(r *board.Request) {
	v.menu = menu{}
	if g, ok := v.life.Ask(r); ok {
		v.setGame(g)
	}
	switch {
	case v.g == nil:
		v.mode = idle
		v.life.Msg = "this board draws only the coordinate card game"
	case r.Need.Kind == engine.NeedCommit:
		v.mode = committing
	case r.Need.Kind == engine.NeedMove && v.isStart():
		v.mode = starting
		v.openMenu()
	case r.Need.Kind == engine.NeedMove:
		v.mode = playing
		v.startPlay()
	default:
		v.mode = idle
		v.life.Msg = "this board cannot answer a " + r.Need.Kind.String() + " need"
	}
}

// Withdraw drops a request the referee no longer waits for.
func (v *View) Withdraw(r *board.Request) {
	if v.life.Withdraw(r) {
		v.mode, v.menu = idle, menu{}
	}
}

// reply sends the decision; a refusal stays on the prompt line and the
// player can try again.
func (v *View) reply(d engine.Decision) bool {
	if !v.life.Reply(d) {
		return false
	}
	v.mode, v.menu = idle, menu{}
	return true
}

// seat is the local seat (the one drawn at the bottom in spectator mode).
func (v *View) seat() engine.Seat { return v.life.Seat() }

// secrets returns the hidden values the board knows: the request's
// (newest) or the snapshot's.
func (v *View) secrets() engine.Secrets { return v.life.Secrets() }

// who names a seat for sentences: "you" for the local seat in a live
// match, else the player's name.
func (v *View) who(s engine.Seat) string { return v.life.Snap.Who(s, v.seat()) }

// Prompt says what the board expects of the player now.
func (v *View) Prompt() string {
	p := ""
	switch v.mode {
	case committing:
		p = v.commitPrompt()
	case starting:
		p = "Your turn: your PT Boat may take a peg card off a ship — enter picks, s skips"
	case playing:
		p = v.playPrompt()
	}
	return board.Prompt(v.life.Msg, p)
}

// Bindings lists the keys the board handles now. Each clears the last
// refusal before it runs.
func (v *View) Bindings() []keys.Binding {
	var bs []keys.Binding
	switch {
	case v.menu.Open():
		bs = v.menuBindings()
	case v.mode == committing:
		bs = []keys.Binding{{Keys: keys.Enter, Label: "enter", Hint: "commit",
			Help: "commit the cards in a shuffled order: only their hash goes out, and nobody learns the order", Run: v.commit}}
	case v.mode == playing:
		bs = v.playBindings()
	}
	if !v.menu.Open() && !v.life.Snap.Spectator {
		bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R('g')}, Label: "g", Hint: "legend", Help: legendHelp, Run: func() { v.legend = !v.legend }})
	}
	return board.Clearing(bs, &v.life.Msg)
}

// click handles a click at x, y.
func (v *View) click(x, y int, right bool) {
	if v.menu.TakeClick(x, y, right, v.send, v.closeMenu) {
		return
	}
	if v.mode != playing {
		return
	}
	if i, ok := v.geo.handAt(x, y); ok {
		v.sel = i
		if right {
			v.openMenu()
		}
		return
	}
	if right {
		v.openMenu()
		return
	}
	if r, c, ok := v.geo.cellAt(x, y); ok {
		v.row, v.col = r, c
		v.playAtCursor()
	}
}
