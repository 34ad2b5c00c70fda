// Package ubuildview is the Battleship U-Build board of the Salvo terminal
// interface: your ocean with your ships, the weapons left on each and the
// hits taken; the target grid with your hits and misses; fleet placement at
// setup by keyboard and mouse (with a random legal layout key); the custom
// variant's weapon allocation; and aiming a volley: pick the ship that fires,
// mark its shots, fire.
//
// The view registers itself as the board of "ubuild" (see package board).
// In the audit viewer (a spectator snapshot) it draws both oceans with every
// hidden value the audit opened.
package ubuildview

import (
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

func init() {
	board.Register(ubuild.Spec.Name, func(env board.Env) board.View { return New(env) })
}

// mode is what the view is doing with the player.
type mode int

const (
	idle    mode = iota // nothing asked: just draw
	placing             // NeedCommit "grid": place the fleet
	arming              // NeedCommit "weapons": allocate custom weapons
	aiming              // NeedMove: pick a ship, mark shots, fire
)

// View is the U-Build board. Build it with New; it implements board.View
// and board.Describer.
type View struct {
	board.Base
	th   *style.Theme
	rand *rand.Rand

	life board.Pending[*ubuild.Game] // the snapshot, the request and the message line
	g    *ubuild.Game
	mode mode

	place placement
	arm   armament
	aim   aim

	geo geometry // where the last draw put things, for the mouse

	legendOn bool // the legend shows in place of the fleet tables
}

var (
	_ board.View      = (*View)(nil)
	_ board.Describer = (*View)(nil)
)

// New returns an empty U-Build board.
func New(env board.Env) *View {
	env = env.WithDefaults()
	v := &View{th: env.Theme, rand: env.Rand}
	v.Base = board.NewBase(board.Handlers{Self: v, Bindings: v.Bindings, Click: v.click, Msg: &v.life.Msg, Right: true})
	v.place.reset()
	v.arm.reset(ubuild.MaxFleetWeapons)
	return v
}

// Show replaces the snapshot the board draws from.
func (v *View) Show(s board.Snapshot) {
	v.g, _ = v.life.Show(s)
	if v.mode == aiming {
		v.aim.fit(v)
	}
}

// Ask starts the decision the request asks for.
func (v *View) Ask(r *board.Request) {
	if g, ok := v.life.Ask(r); ok {
		v.g = g
	}
	switch {
	case r.Need.Kind == engine.NeedCommit && r.Need.Name == ubuild.GridName:
		v.mode = placing
		v.place.start()
	case r.Need.Kind == engine.NeedCommit && r.Need.Name == ubuild.WeaponsName:
		v.mode = arming
		if v.g != nil && v.g.FleetWeapons() != v.arm.total {
			v.arm.reset(v.g.FleetWeapons())
		}
	case r.Need.Kind == engine.NeedMove && !r.Need.Auto:
		v.mode = aiming
		v.aim.start(v)
	default:
		v.mode = idle
		v.life.Msg = "this board cannot answer a " + r.Need.Kind.String() + " need"
	}
}

// Withdraw drops a request the referee no longer waits for.
func (v *View) Withdraw(r *board.Request) {
	if v.life.Withdraw(r) {
		v.mode = idle
	}
}

// reply sends the decision; a refusal stays on screen and the player can try
// again.
func (v *View) reply(d engine.Decision) bool {
	if !v.life.Reply(d) {
		return false
	}
	v.mode = idle
	return true
}

// seat is the local seat (the first drawn in spectator mode).
func (v *View) seat() engine.Seat { return v.life.Seat() }

// secrets returns the hidden values the view knows: the request's (newest)
// or the snapshot's.
func (v *View) secrets() engine.Secrets { return v.life.Secrets() }

func (v *View) variant() string {
	if v.g == nil {
		return ubuild.Standard
	}
	return v.g.Variant()
}

// Prompt says what the board expects of the player now.
func (v *View) Prompt() string {
	p := ""
	switch v.mode {
	case placing:
		p = v.place.prompt()
	case arming:
		p = v.arm.prompt()
	case aiming:
		p = v.aim.prompt(v)
	}
	return board.Prompt(v.life.Msg, p)
}

// Bindings lists the keys the board handles now.
func (v *View) Bindings() []keys.Binding {
	var bs []keys.Binding
	switch v.mode {
	case placing:
		bs = v.placeBindings()
	case arming:
		bs = v.armBindings()
	case aiming:
		bs = v.aimBindings()
	}
	if v.g != nil && !v.life.Snap.Spectator {
		bs = append(bs, v.legendBinding())
	}
	return board.Clearing(bs, &v.life.Msg)
}

// click places ships, marks shots and picks ships with the mouse.
func (v *View) click(x, y int, right bool) {
	switch v.mode {
	case placing:
		v.placeClick(x, y, right)
	case arming:
		v.armClick(x, y, right)
	case aiming:
		v.aimClick(x, y, right)
	}
}

// shipKeys returns bindings 1..5 selecting a ship through pick.
func shipKeys(pick func(ubuild.Ship)) []keys.Binding {
	var out []keys.Binding
	for s := range ubuild.Ship(ubuild.NumShips) {
		b := keys.Binding{Keys: []keys.Key{keys.R(rune('1' + s))}, Label: "1-5", Hint: "ship",
			Help: "pick a ship by number: 1 Battleship, 2 Carrier, 3 Destroyer, 4 Submarine, 5 PT Boat", Hidden: s > 0}
		b.Run = func() { pick(s) }
		out = append(out, b)
	}
	return out
}

// shortName is a ship's name in at most ten cells.
func shortName(s ubuild.Ship) string {
	if s == ubuild.Carrier {
		return "Carrier"
	}
	return s.Name()
}
