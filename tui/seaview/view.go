// Package seaview is the Mission Command Sea board of the Salvo terminal
// interface: the 12 x 16 board drawn one glyph a space (water, shallows
// with their islands, carriers with their bows, destroyers with their
// facing, fighters, Harpoons in the water, wrecks), a side pane with the
// turn, its step and its dice, the decision at hand, both Admiral Cards
// (carrier damage, planes on deck), the piece under the cursor, and a
// legend. Every decision the engine asks of a player is made here, by
// keyboard and the main ones by mouse: the squadron's strengths, the
// placement of each piece (with a random legal key), Harpoon paths,
// returns, scrambles and missile loads, destroyer moves and shots,
// defensive fire, deck losses, dogfight pairings and Sidewinders, and
// Harpoon launches. Paths and targets are previewed from the engine's own
// listings (FighterDestinations, HarpoonDestinations, HarpoonRange,
// DestroyerMoves, FireTargets, LineOfFire), and every decision is tried
// on a copy of the game before it goes to the referee, so a choice the
// rules forbid is refused with a one-line reason.
//
// The view registers itself as the board of "sea" (see package board). In
// a live match the enemy's hidden strengths and missiles are never drawn
// (its fighters are read from the game with no secrets at all); in the
// audit viewer (a spectator snapshot) both sides' known values are.
//
// # Keys
//
// Arrows move the cursor and Enter acts on the space under it (select one
// of your pieces, or send it there); a left click does the same, a right
// click turns a piece being placed or takes another way to the same
// space. Tab puts the cursor on the next candidate of the decision. Per
// decision: strengths ↑↓ ←→ 2-4, x shuffle; placement r turn, x random
// legal, n next legal; Harpoon paths tab, d let it run out; returns space
// marks; scramble 1-4 die, n next place, u undo, f fly; loads h Harpoon,
// s Sidewinder; destroyers t target, m move, r other way, d done;
// Sidewinder + add one, 1-4 re-roll, Enter keep; deck losses space, x
// weakest; launch d ends the turn; g shows the whole legend. The hint bar
// and the help list the keys in force.
//
// # House choices of the view
//
// Glyphs are in glyphs.go (solid shapes for your pieces, hollow for the
// enemy's; a fighter shows its strength, an unrevealed enemy fighter "?");
// the layout (two columns a space) in draw.go. Fighters are numbered 0-7
// as in the engine's events. The board is drawn with seat 0's edge (row 1)
// at the top for both players, as transcripts name the spaces. Places a
// piece can go are offered nearest the enemy carrier first. The side pane
// lists the last three rolls of the turn (the verification log has every
// roll with each seat's hash-chain preimage).
package seaview

import (
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

func init() {
	board.Register(sea.Spec.Name, func(env board.Env) board.View { return New(env) })
}

// mode is the decision the view is making with the player.
type mode int

const (
	idle         mode = iota // nothing asked: draw, let the cursor inspect
	mStrengths               // NeedCommit "strengths"
	mPlace                   // "place"
	mHarpoonPick             // "harpoon": which Harpoon moves next
	mPath                    // "harpoon/path" and "launch/path"
	mReturn                  // "return"
	mScramble                // "scramble"
	mLoad                    // NeedCommit "load/<n>"
	mDestroyers              // "destroyers" (step 3) and "defense" (step 4)
	mDamage                  // "damage": deck fighters lost to a carrier hit
	mDogfighter              // "dogfight/defender" and "dogfight/attacker"
	mSidewinder              // "sidewinder"
	mLaunch                  // "launch"
)

// View is the Mission Command Sea board. Build it with New; it implements
// board.View and board.Describer.
type View struct {
	board.Base
	th   *style.Theme
	rand *rand.Rand

	life board.Pending[*sea.Game] // the snapshot, the request and the message line
	g    *sea.Game
	mode mode

	cur sea.Cell // the board cursor

	str  strengths
	pl   placing
	path pathing
	ret  returning
	scr  scrambling
	ds   destroying
	dmg  damaging
	pick picking // Harpoon, dogfighter and launch choices

	geo geometry

	legendOn bool // the side pane shows the whole legend

	gen   int    // bumped whenever the game or the secrets drawn change
	frame *frame // what the view read of the game at gen
}

var (
	_ board.View      = (*View)(nil)
	_ board.Describer = (*View)(nil)
)

// New returns an empty Mission Command Sea board.
func New(env board.Env) *View {
	env = env.WithDefaults()
	v := &View{th: env.Theme, rand: env.Rand, cur: sea.At(sea.Cols/2, sea.HalfRows/2)}
	v.Base = board.NewBase(board.Handlers{Self: v, Bindings: v.Bindings, Click: v.click, Msg: &v.life.Msg, Right: true})
	v.str.reset()
	return v
}

// Show replaces the snapshot the board draws from.
func (v *View) Show(s board.Snapshot) {
	g, ok := v.life.Show(s)
	v.changed()
	if ok || v.life.Req == nil {
		// board.Pending's rule: the newest game shown is drawn, a pending
		// request or not (the request's own checks the answer). A snapshot
		// of another game leaves a pending decision its game.
		v.g = g
	}
}

// Ask starts the decision the request asks for.
func (v *View) Ask(r *board.Request) {
	v.mode = idle
	g, ok := v.life.Ask(r)
	v.changed()
	if !ok {
		v.life.Msg = "this board only plays Mission Command Sea"
		return
	}
	v.g = g
	n := r.Need
	switch n.Kind {
	case engine.NeedCommit:
		if n.Name == sea.StrengthsName {
			v.mode = mStrengths
			return
		}
		if _, ok := g.PendingLoad(); ok {
			v.mode = mLoad
			return
		}
	case engine.NeedMove:
		if n.Auto {
			break
		}
		switch n.Name {
		case sea.NeedPlace:
			v.mode = mPlace
			v.pl.start(v)
		case sea.NeedHarpoonPick:
			v.mode = mHarpoonPick
			v.pick.start(v, v.harpoonChoices())
		case sea.NeedHarpoonPath, sea.NeedLaunchPath:
			v.mode = mPath
			v.path.start(v)
		case sea.NeedReturn:
			v.mode = mReturn
			v.ret.start(v)
		case sea.NeedScramble:
			v.mode = mScramble
			v.scr.start(v)
		case sea.NeedDestroyers, sea.NeedDefense:
			v.mode = mDestroyers
			v.ds.start(v, n.Name == sea.NeedDefense)
		case sea.NeedDamage:
			v.mode = mDamage
			v.dmg.start(v)
		case sea.NeedDefender, sea.NeedAttacker:
			v.mode = mDogfighter
			v.pick.start(v, g.DogfightCandidates())
		case sea.NeedSidewinder:
			v.mode = mSidewinder
		case sea.NeedLaunch:
			v.mode = mLaunch
			v.pick.start(v, v.launchChoices())
		}
	}
	if v.mode == idle {
		v.life.Msg = "this board cannot answer a " + n.Kind.String() + " " + n.Name + " need"
	}
}

// Withdraw drops a request the referee no longer waits for.
func (v *View) Withdraw(r *board.Request) {
	if v.life.Withdraw(r) {
		v.mode = idle
		v.changed()
	}
}

// reply sends the decision; a refusal stays on screen with its reason and
// the player can try again.
func (v *View) reply(d engine.Decision) bool {
	if !v.life.Reply(d) {
		return false
	}
	v.mode = idle
	v.changed()
	return true
}

// replyMove sends a move.
func (v *View) replyMove(m sea.Move) bool { return v.reply(engine.Decision{Move: m.Encode()}) }

// seat is the local seat (the first drawn in the audit viewer).
func (v *View) seat() engine.Seat {
	if s := v.life.Seat(); s != engine.NoSeat {
		return s
	}
	return 0
}

// foe is the other seat.
func (v *View) foe() engine.Seat { return 1 - v.seat() }

// secrets returns the hidden values the view knows: the request's (newest)
// or the snapshot's.
func (v *View) secrets() engine.Secrets { return v.life.Secrets() }

// fighters returns seat s's fighters as the viewer may see them: the
// enemy's through public values only in a live match.
func (v *View) fighters(s engine.Seat) []sea.FighterView {
	if v.g == nil || s < 0 || s > 1 {
		return nil
	}
	return v.fr().fighters[s]
}

// fightersOf reads seat s's fighters from the game.
func (v *View) fightersOf(s engine.Seat) []sea.FighterView {
	if s != v.seat() && !v.life.Snap.Spectator {
		return v.g.Fighters(s, nil)
	}
	return v.g.Fighters(s, v.secrets())
}

// name returns how the view names seat s: "you" for the local player.
func (v *View) name(s engine.Seat) string { return v.life.Snap.Who(s, v.seat()) }

// whose returns how the view names what seat s owns: "your" for the local
// player, else "bob's".
func (v *View) whose(s engine.Seat) string { return board.Possessive(v.name(s)) }

// Prompt says what the board expects of the player now.
func (v *View) Prompt() string {
	p := v.modePrompt()
	return board.Prompt(v.life.Msg, p)
}

func (v *View) modePrompt() string {
	switch v.mode {
	case mStrengths:
		return v.str.prompt()
	case mPlace:
		return v.pl.prompt(v)
	case mHarpoonPick:
		return v.harpoonPickPrompt()
	case mPath:
		return v.path.prompt(v)
	case mReturn:
		return v.ret.prompt(v)
	case mScramble:
		return v.scr.prompt(v)
	case mLoad:
		return v.loadPrompt()
	case mDestroyers:
		return v.ds.prompt(v)
	case mDamage:
		return v.dmg.prompt()
	case mDogfighter:
		return v.dogfighterPrompt()
	case mSidewinder:
		return v.sidewinderPrompt()
	case mLaunch:
		return v.launchPrompt()
	}
	return ""
}

// Bindings lists the keys the board handles now.
func (v *View) Bindings() []keys.Binding {
	if v.life.Snap.Spectator && v.life.Req == nil {
		return nil
	}
	bs := v.modeBindings()
	if bs == nil {
		return nil
	}
	return board.Clearing(append(bs, keys.Binding{Keys: runes('g'), Label: "g", Hint: "legend", Help: legendHelp,
		Run: func() { v.legendOn = !v.legendOn }}), &v.life.Msg)
}

// modeBindings lists the keys of the decision under way.
func (v *View) modeBindings() []keys.Binding {
	switch v.mode {
	case mStrengths:
		return v.strengthBindings()
	case mPlace:
		return v.placeBindings()
	case mHarpoonPick:
		return v.harpoonPickBindings()
	case mPath:
		return v.pathBindings()
	case mReturn:
		return v.returnBindings()
	case mScramble:
		return v.scrambleBindings()
	case mLoad:
		return v.loadBindings()
	case mDestroyers:
		return v.destroyerBindings()
	case mDamage:
		return v.damageBindings()
	case mDogfighter:
		return v.dogfighterBindings()
	case mSidewinder:
		return v.sidewinderBindings()
	case mLaunch:
		return v.launchBindings()
	}
	if v.g == nil {
		return nil
	}
	// Nothing asked: the cursor still inspects the board.
	return arrowBindings("inspect", "move the cursor to see the piece under it in the side pane", v.move)
}
