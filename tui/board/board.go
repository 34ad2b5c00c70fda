// Package board is the seam between the match screen and the games: each
// game's board is a [View] registered under the game's name, drawn from a
// [Snapshot] of the public game plus the hidden values the viewer knows, and
// turning the local player's keys and clicks into the decision a [Request]
// asks for. [Human] is the [engine.Agent] of the local player that hands the
// referee's needs to the view and waits for the player's answer. [Base] is
// what every board embeds for its key and mouse handlers and the start of
// its Draw; the [Snapshot] methods (Name, and Say, SayError and Refusal,
// which tell texts that name seats from the seats they keep apart) and the
// words helpers (Prompt, Possessive, Verb) are the small logic the boards
// share.
//
// # Concurrency
//
// Views live on the tview goroutine: Show, Ask, Withdraw, Draw and the
// handlers are only ever called there. Human.Decide runs on the referee's
// goroutine and reaches the view only through the post function it was given
// (which must run its argument on the tview goroutine without blocking the
// caller, like a queued update). Snapshots hold clones, so a view may keep
// them.
package board

import (
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// Snapshot is what a view draws: the public game as it stood, and the hidden
// values this viewer knows. Everything in it is a copy the view may keep.
type Snapshot struct {
	// Game is a clone of the public game; read it, never change it.
	Game engine.Game
	// Seat is the local player's seat; in spectator mode, the seat drawn
	// first.
	Seat engine.Seat
	// Secrets holds the hidden values the viewer knows: the local seat's
	// own in a live match, every value the match opened in the audit.
	Secrets engine.Secrets
	// Names are the players' display names, by seat.
	Names []string
	// Spectator is set in the audit viewer: no side is the viewer's, and
	// both sides' known hidden values are drawn.
	Spectator bool
}

// Name returns the display name of seat, or the seat's own name.
func (s Snapshot) Name(seat engine.Seat) string {
	if seat >= 0 && int(seat) < len(s.Names) && s.Names[seat] != "" {
		return s.Names[seat]
	}
	return seat.String()
}

// View is one game's board on the match screen and in the audit viewer.
type View interface {
	tview.Primitive
	keys.Bound
	// Show replaces the snapshot the view draws from.
	Show(s Snapshot)
	// Ask hands the view a decision the local player owes; the view calls
	// r.Reply once the player has made it.
	Ask(r *Request)
	// Withdraw tells the view the referee no longer waits for r.
	Withdraw(r *Request)
	// Prompt says in one line what the view expects of the player now,
	// or "" when it expects nothing.
	Prompt() string
}

// Describer is implemented by views that can put a game's moves and hidden
// values into words, for the verification log and the cheat panel.
type Describer interface {
	// DescribeMove returns a move in words, such as "Carrier fires at C-4".
	DescribeMove(move []byte) string
	// DescribeValue returns an opened hidden value in words, such as
	// "C-4 holds the Aircraft Carrier".
	DescribeValue(slot engine.Slot, value []byte) string
}

// Env is what a view is built with.
type Env struct {
	Theme   *style.Theme
	Spec    engine.Spec
	Variant string
	// Rand feeds the view's "random" keys (a random legal layout); tests
	// seed it.
	Rand *rand.Rand
}

// Factory builds a game's view.
type Factory func(Env) View

var registry = struct {
	sync.Mutex
	m map[string]Factory
}{m: map[string]Factory{}}

// Register makes f the board of game (its engine.Spec.Name). Game packages
// call it from init.
func Register(game string, f Factory) {
	registry.Lock()
	defer registry.Unlock()
	registry.m[game] = f
}

// Lookup returns the board registered for game.
func Lookup(game string) (Factory, bool) {
	registry.Lock()
	defer registry.Unlock()
	f, ok := registry.m[game]
	return f, ok
}

// Registered lists the games that have a board, sorted.
func Registered() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Known is a set of hidden values a viewer knows. It implements
// [engine.Secrets].
type Known = engine.Known
