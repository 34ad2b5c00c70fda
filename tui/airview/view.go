// Package airview is the Mission Command Air board of the Salvo terminal
// interface: the looping 9 x 12 board with its edge numbers (columns 15-95
// along the top, rows 10-120 up the left side, as the rulebook names the
// spaces), every plane with its squadron, model and heading, the cone of
// fire of the selected plane and weapon, your hand of Navigation cards,
// the cards chosen this round in turn order (face down until turned over),
// and every squadron board with its damage markers and missiles. Every
// decision the engine asks of a player is made here by keyboard, and the
// main ones by mouse: the secret choice of a card for each plane (with a
// random legal key) and each plane's turn (move, wingman move, disruption,
// fire with either weapon at any target, hold fire, and the F-35's +1).
//
// The view registers itself as the board of "air" (see package board). The
// cards dealt to the player come from the shared deck, which only the
// referee's secrets know: the view is a [board.Peeker], so the match
// screen's human agent copies the hand's values at each decision. Other
// squadrons' hands are never drawn (only how many cards they hold); in the
// audit viewer (a spectator snapshot) the cards are drawn as the match
// turned them over, since nobody ever opens a hand.
//
// # Keys
//
// Choosing cards: ↑↓ move in the hand, space (or 1-7, or a click) gives
// the card to the plane being armed, tab the other plane, x a random legal
// choice, u clears, enter plays the choice. A plane's turn: m flies the
// card's maneuver, f fires the selected weapon at the selected target, w
// switches missile and cannon, tab picks the next target (a click on a
// plane too; a click on the target again fires), d disrupts the target
// with a disruption card, arrows move the cursor and j makes the wingman
// move there (a click on a + space too), e holds fire and ends the turn;
// after an F-35's roll, y takes the +1 and n refuses it. Any time: tab
// (when nothing is asked) selects the plane whose cone is drawn, w its
// weapon, g the legend. The hint bar and the help list the keys in force.
//
// # House choices of the view
//
// Glyphs and card short forms are in glyphs.go: a plane is its squadron's
// letter, 5 or 2 for its model, and an arrow for its heading (B5↑); a
// card is its number, its kind's letter and its maneuver as an arrow
// relative to the heading with its dice (12W↖4). The board takes four
// cells a space (a marker, then three for the plane) and needs 41 columns
// and 14 rows; the hand goes beside it, the turn order, the latest
// changes and the squadron boards below. A line under the board names
// what changed since the last state drawn (the verification log has every
// die). The target offered first is one the selected weapon can hit, the
// weapon offered first the missile while any is left.
package airview

import (
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

func init() {
	board.Register(air.Spec.Name, func(env board.Env) board.View { return New(env) })
}

// mode is the decision the view is making with the player.
type mode int

const (
	idle     mode = iota // nothing asked: draw, let tab pick a plane to inspect
	choosing             // NeedChoice: a card for each plane flying
	acting               // NeedMove: a plane's turn
	bonusing             // NeedMove: the F-35's +1
)

// View is the Mission Command Air board. Build it with New; it implements
// board.View, board.Describer and board.Peeker.
type View struct {
	board.Base
	th   *style.Theme
	rand *rand.Rand

	life board.Pending[*air.Game] // the snapshot, the request and the message line
	g    *air.Game
	mode mode

	weapon air.Weapon
	sel    int     // the plane whose cone is drawn when nothing is asked, or -1
	picked bool    // the player picked sel (else the acting plane is drawn)
	tgt    int     // the target of fire or disruption, or -1
	cur    air.Pos // the board cursor (the wingman move's space)
	wing   bool    // the wingman move's space is being picked
	legend bool

	legalFor   *board.Request // the request legalMoves lists the moves of
	legalMoves []air.Move

	choice choice
	news   string
	prev   []air.Plane

	geo geometry // where the last draw put things, for the mouse
}

var (
	_ board.View      = (*View)(nil)
	_ board.Describer = (*View)(nil)
	_ board.Peeker    = (*View)(nil)
)

// New returns an empty Mission Command Air board.
func New(env board.Env) *View {
	env = env.WithDefaults()
	v := &View{th: env.Theme, rand: env.Rand, sel: -1, tgt: -1}
	v.Base = board.NewBase(board.Handlers{Self: v, Bindings: v.Bindings, Click: v.click, Msg: &v.life.Msg, Right: false})
	return v
}

// Peek lists the cards of seat's hand and those it chose this round: the
// values the shared deck dealt to it, which the referee's secrets hold.
// It only reads g.
func (v *View) Peek(g engine.Game, seat engine.Seat) []engine.Slot {
	ag, ok := g.(*air.Game)
	if !ok {
		return nil
	}
	var out []engine.Slot
	for _, c := range ag.Hand(seat) {
		out = append(out, c.Slot())
	}
	for _, p := range ag.Chosen() {
		if pl, ok := ag.PlaneByID(p.Plane); ok && pl.Seat == seat {
			out = append(out, p.Card.Slot())
		}
	}
	return out
}

// Show replaces the snapshot the board draws from.
func (v *View) Show(s board.Snapshot) {
	g, _ := v.life.Show(s)
	v.g = g
	if g == nil {
		return
	}
	planes := g.Planes()
	if n := changes(v.prev, planes); n != "" {
		v.news = n
	}
	v.prev = planes
	v.fit()
}

// Ask starts the decision the request asks for.
func (v *View) Ask(r *board.Request) {
	v.picked, v.wing = false, false
	if g, ok := v.life.Ask(r); ok {
		v.g = g
	}
	switch {
	case r.Need.Kind == engine.NeedChoice && strings.HasPrefix(r.Need.Name, "choice/"):
		v.mode = choosing
		v.choice.start(v)
	case r.Need.Kind == engine.NeedMove && v.game() != nil && isBonus(v.game().LegalMoves()):
		v.mode = bonusing
	case r.Need.Kind == engine.NeedMove && v.game() != nil:
		v.mode = acting
		v.startTurn()
	default:
		v.mode = idle
		v.life.Msg = "this board cannot answer a " + r.Need.Kind.String() + " need"
	}
	v.fit()
}

// Withdraw drops a request the referee no longer waits for.
func (v *View) Withdraw(r *board.Request) {
	if v.life.Withdraw(r) {
		v.mode = idle
	}
}

// reply sends the decision; a refusal stays on screen and the player can
// try again.
func (v *View) reply(d engine.Decision) bool {
	if !v.life.Reply(d) {
		return false
	}
	v.mode, v.wing = idle, false
	return true
}

// game is the game decisions are checked against: the request's while
// one is pending, else the one drawn.
func (v *View) game() *air.Game {
	g, _ := v.life.Decide()
	return g
}

// seat is the local seat (the first drawn in spectator mode).
func (v *View) seat() engine.Seat { return v.life.Seat() }

// secrets returns the hidden values the view knows: the request's (newest)
// or the snapshot's.
func (v *View) secrets() engine.Secrets { return v.life.Secrets() }

// mine reports whether seat is the viewer's own in a live match.
func (v *View) mine(seat engine.Seat) bool { return !v.life.Snap.Spectator && seat == v.seat() }

// card returns the face of a card the viewer knows: turned over in the
// match, or in the viewer's secrets.
func (v *View) card(ref air.CardRef, number int) (air.Card, bool) {
	if number > 0 {
		return air.CardByNumber(number)
	}
	b, ok := v.secrets().Value(ref.Slot())
	if !ok || len(b) != 1 {
		return air.Card{}, false
	}
	return air.CardByNumber(int(b[0]))
}

// flying returns the planes still in the air, optionally only seat's.
func flying(g *air.Game, seat engine.Seat) []air.Plane {
	var out []air.Plane
	for _, p := range g.Planes() {
		if !p.Down && (seat == engine.NoSeat || p.Seat == seat) {
			out = append(out, p)
		}
	}
	return out
}

// selected is the plane whose cone is drawn: the acting plane during a
// turn, the plane being armed while choosing, else the one picked with tab
// or a click, or the plane acting now.
func (v *View) selected() (air.Plane, bool) {
	g := v.g
	if g == nil {
		return air.Plane{}, false
	}
	id := v.sel
	t, active := g.Active()
	switch {
	case v.mode == choosing:
		id = v.choice.plane
	case v.mode != idle && active, !v.picked && active:
		id = t.Plane
	}
	if p, ok := g.PlaneByID(id); ok && !p.Down {
		return p, true
	}
	return air.Plane{}, false
}

// fit keeps the selections pointing at planes still flying.
func (v *View) fit() {
	g := v.g
	if g == nil {
		return
	}
	if p, ok := g.PlaneByID(v.sel); !ok || p.Down {
		v.sel = -1
		if own := flying(g, v.seat()); len(own) > 0 && !v.life.Snap.Spectator {
			v.sel = own[0].ID
		} else if all := flying(g, engine.NoSeat); len(all) > 0 {
			v.sel = all[0].ID
		}
	}
	if p, ok := g.PlaneByID(v.tgt); !ok || p.Down {
		v.tgt = -1
	}
	if v.mode == acting {
		v.pickTarget(false)
	}
}

// cycleSelected picks the next (d = 1) or previous plane flying to draw the
// cone of, when nothing is asked.
func (v *View) cycleSelected(d int) {
	if v.g == nil {
		return
	}
	all := flying(v.g, engine.NoSeat)
	if len(all) == 0 {
		return
	}
	i := slices.IndexFunc(all, func(p air.Plane) bool { return p.ID == v.sel })
	v.picked = true
	if i < 0 && d < 0 {
		v.sel = all[len(all)-1].ID
		return
	}
	v.sel = all[(i+d+len(all))%len(all)].ID
}

// OutText tells a player whose squadron was shot down that it is out.
const OutText = "your squadron was shot down: you are out of the game · nothing waits for you · q leaves, forfeiting nothing"

// out reports whether the player's own squadron is out of the game.
func (v *View) out() bool {
	g := v.g
	return g != nil && !v.life.Snap.Spectator && !g.Outcome().Done && g.Out(v.seat())
}

// Prompt says what the board expects of the player now.
func (v *View) Prompt() string {
	p := ""
	switch v.mode {
	case choosing:
		p = v.choice.prompt(v)
	case acting:
		p = v.turnPrompt()
	case bonusing:
		p = v.bonusPrompt()
	default:
		if v.out() {
			p = OutText
		}
	}
	return board.Prompt(v.life.Msg, p)
}

// Bindings lists the keys the board handles now.
func (v *View) Bindings() []keys.Binding {
	var bs []keys.Binding
	switch v.mode {
	case choosing:
		bs = v.choice.bindings(v)
	case acting:
		bs = v.turnBindings()
	case bonusing:
		bs = v.bonusBindings()
	default:
		if v.g != nil {
			bs = []keys.Binding{
				{Keys: keys.Tab, Label: "tab", Hint: "plane", Help: "select the next plane: its cone of fire is drawn", Run: func() { v.cycleSelected(1) }},
				{Keys: keys.Backtab, Label: "shift-tab", Hint: "plane", Hidden: true, Help: "select the previous plane", Run: func() { v.cycleSelected(-1) }},
			}
		}
	}
	if v.g == nil {
		return board.Clearing(bs, &v.life.Msg)
	}
	if v.mode != bonusing {
		bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R('w')}, Label: "w", Hint: "weapon: " + v.weapon.String(), Hidden: v.mode == choosing,
			Help: "switch the weapon whose cone is drawn (and fired): missile or cannon", Run: v.switchWeapon})
	}
	return board.Clearing(append(bs, keys.Binding{Keys: []keys.Key{keys.R('g')}, Label: "g", Hint: "legend", Help: legendHelp,
		Run: func() { v.legend = !v.legend }}), &v.life.Msg)
}

// switchWeapon toggles missile and cannon.
func (v *View) switchWeapon() {
	if v.weapon == air.Missile {
		v.weapon = air.Cannon
	} else {
		v.weapon = air.Missile
	}
	if v.mode == acting {
		v.pickTarget(false)
	}
}

// click picks planes, targets, wingman spaces and cards with the mouse
// (the left button only).
func (v *View) click(x, y int, _ bool) {
	if i, ok := v.geo.handAt(x, y); ok {
		if v.mode == choosing {
			v.choice.cursor = i
			v.choice.give(v, i)
		}
		return
	}
	if p, ok := v.geo.spaceAt(x, y); ok {
		v.clickSpace(p)
	}
}

// clickSpace acts on a click on a board space.
func (v *View) clickSpace(p air.Pos) {
	g := v.g
	if g == nil {
		return
	}
	var on *air.Plane
	for _, pl := range flying(g, engine.NoSeat) {
		if pl.Pos == p {
			on = &pl
			break
		}
	}
	switch v.mode {
	case choosing:
		if on != nil && on.Seat == v.seat() {
			v.choice.plane = on.ID
		}
	case acting:
		v.cur = p
		if on == nil {
			if slices.Contains(v.wingmanSpaces(), p) {
				v.act(air.WingmanMove(p))
			}
			return
		}
		if on.ID == v.tgt {
			v.act(air.FireMove(v.weapon, on.ID))
			return
		}
		if g.Opposes(v.seat(), on.Seat) {
			v.tgt = on.ID
		}
	default:
		if on != nil {
			v.sel, v.picked = on.ID, true
		}
	}
}
