// Package oceansview is the board of the Battleship Card Game with ocean
// cards (game "oceans") in the Salvo terminal interface: the five oceans
// with both task forces (facedown or revealed, and which oceans are won),
// your hand, both decks, the blockades and surprises in force, the battles
// step by step (the reveal, the zero-valued cards played in turn with their
// effects and who chose, the totals and the winner) and what happened since
// your last move. It turns keys and clicks into every decision the engine
// asks for: the fleet deck's commitment, the faceup opening deployment, each
// turn's plays (a card facedown to a task force, a card discarded for its
// special command with its targets, an attack) and the choices inside a
// battle.
//
// # Playing
//
// Pick a hand card (tab, 1-9 or a click) and an ocean (↑↓ or a click on its
// row), then: enter plays the card there (facedown; faceup in the opening
// deployment), d discards it for its command, a attacks there. A command's
// targets are the enemy cards under the target cursor (←→ along the enemy
// task force of the picked ocean, space marks a second card for a
// Carrier). o (or a right click) lists every legal play of the picked card,
// with its targets, in words; a battle lists its choices by itself. Every
// choice is checked against a copy of the engine before it is sent, and an
// illegal one is refused with the engine's reason.
//
// # Following the match
//
// The board is shown the match after each message, and one message may
// carry a whole turn of the opponent. To tell that turn step by step, the
// board retraces it on copies of the engine (see follow.go): it finds the
// inputs that lead to the new state hash exactly, and tells their events.
// When several battle choices of one player come in one message, the order
// told is one that leads to the same state. When retracing fails (the audit
// viewer jumping around), the board shows the state alone, and a battle in
// progress is rebuilt from the cards still standing.
//
// In the audit viewer (a spectator snapshot) both hands and every facedown
// card are drawn with the values the audit opened.
//
// # House values of the board
//
// Retracing gives up past followDepth (24) inputs or followBudget (6000)
// inputs tried in one gap (follow.go); a bot's turn takes about 0.1 ms.
// The layout numbers are the constants of draw.go: keepRecent (12) lines of
// what happened; a card on the table is minCellW (3) to maxCellW (7) cells
// wide, with its glyph from 4 cells; the board needs minW (41) by minH
// (16) cells. Cards are named by two-letter codes (BB Battleship, CV
// Aircraft Carrier, FP Fighter Plane, SS Submarine, DD Destroyer, PT PT
// Boat, MF Minefield, DC Depth Charges, ES Element of Surprise) and the
// oceans by labels of seven cells (names.go).
package oceansview

import (
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

func init() {
	board.Register(oceans.Spec.Name, func(env board.Env) board.View { return New(env) })
}

// mode is what the board is doing with the player.
type mode int

const (
	idle       mode = iota // nothing asked: just draw
	committing             // NeedCommit: the fleet deck
	deploying              // the faceup opening deployment
	playing                // a turn: a card, then a second card or an attack
	fighting               // a choice inside a battle
)

// View is the ocean-card board. Build it with New; it implements
// board.View and board.Describer.
type View struct {
	board.Base
	th   *style.Theme
	rand *rand.Rand

	life board.Pending[*oceans.Game] // the snapshot, the request and the message line
	g    *oceans.Game
	mode mode

	sel    int          // the picked hand card (index into the hand)
	ocean  oceans.Ocean // the picked ocean
	tcol   int          // the target cursor along the enemy task force there
	marks  []int        // enemy leaves marked as a command's targets
	wasted bool         // d was pressed once without a target
	menu   menu

	prev   *oceans.Game // the game last drawn, to retrace from
	recent []string     // what happened, newest last
	battle *battleRec   // the battle in progress, or the last one
	zeros  int          // zero-valued cards told played, in all battles

	geo geometry

	legendOn bool // the legend shows in place of the latest changes
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

// setGame makes g the game drawn, retracing the steps since the last.
func (v *View) setGame(g *oceans.Game) {
	if g == nil {
		v.g = nil
		return
	}
	if v.prev != nil && g.Hash() != v.prev.Hash() {
		if steps, ok := follow(v.prev, g, v.secrets()); ok {
			for _, st := range steps {
				v.tell(st, g)
			}
		} else if !canReach(v.prev, g) {
			// An earlier state (the audit viewer stepping back).
			v.recent, v.battle = nil, nil
		}
	}
	if bv, ok := g.Battle(); ok && (v.battle == nil || v.battle.over || v.battle.ocean != bv.Ocean || v.battle.attacker != bv.Attacker) {
		v.battle = battleFromState(g)
	}
	v.prev, v.g = g, g
	v.fit()
}

// fit keeps the picks inside the hand and the table.
func (v *View) fit() {
	n := len(v.g.Hand(v.seat()))
	v.sel = min(max(v.sel, 0), max(n-1, 0))
	v.tcol = min(max(v.tcol, 0), max(len(v.g.TaskForce(1-v.seat(), v.ocean))-1, 0))
	kept := v.marks[:0]
	for _, l := range v.marks {
		if o, ok := forceOf(v.g, 1-v.seat(), l); ok && o == v.ocean {
			kept = append(kept, l)
		}
	}
	v.marks = kept
}

// Ask starts the decision the request asks for.
func (v *View) Ask(r *board.Request) {
	v.wasted, v.menu = false, menu{}
	if g, ok := v.life.Ask(r); ok {
		v.setGame(g)
	}
	switch {
	case v.g == nil:
		v.mode = idle
		v.life.Msg = "this board draws only the ocean card game"
	case r.Need.Kind == engine.NeedCommit:
		v.mode = committing
	case r.Need.Kind == engine.NeedMove && v.g.Phase() == oceans.PhaseDeploy:
		v.mode = deploying
		v.fit()
	case r.Need.Kind == engine.NeedMove && v.g.Phase() == oceans.PhaseBattle:
		v.mode = fighting
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
	v.mode, v.menu, v.marks, v.wasted = idle, menu{}, nil, false
	return true
}

// seat is the local seat (the one drawn on the left in spectator mode).
func (v *View) seat() engine.Seat { return v.life.Seat() }

// secrets returns the hidden values the board knows.
func (v *View) secrets() engine.Secrets { return v.life.Secrets() }

// who names a seat for the board: "you" for the local seat of a live match.
func (v *View) who(s engine.Seat) string { return v.life.Snap.Who(s, v.seat()) }

// Prompt says what the board expects of the player now.
func (v *View) Prompt() string {
	p := ""
	switch v.mode {
	case committing:
		p = "Commit your 36-card fleet deck: enter (every draw is a joint random pick)"
	case deploying:
		p = v.deployPrompt()
	case playing:
		p = v.playPrompt()
	case fighting:
		p = v.fightPrompt()
	}
	return board.Prompt(v.life.Msg, p)
}

// Bindings lists the keys the board handles now; each clears the last
// refusal before it runs.
func (v *View) Bindings() []keys.Binding {
	var bs []keys.Binding
	switch {
	case v.menu.Open():
		bs = v.menuBindings()
	case v.mode == committing:
		bs = []keys.Binding{{Keys: keys.Enter, Label: "enter", Hint: "commit",
			Help: "commit the fleet deck in a shuffled order: only its hash goes out", Run: v.commit}}
	case v.mode == deploying || v.mode == playing:
		bs = v.playBindings()
	}
	if v.g != nil && !v.life.Snap.Spectator {
		bs = append(bs, v.legendBinding())
	}
	return board.Clearing(bs, &v.life.Msg)
}
