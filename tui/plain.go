package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/salvo-game/salvo/tui/board"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// plainView stands in for a game that has no board yet: it shows what the
// game waits for and its state hash, and cannot decide anything (a match
// against it can only be watched, or audited).
type plainView struct {
	*tview.Box
	th   *style.Theme
	snap board.Snapshot
	req  *board.Request
}

func newPlainView(th *style.Theme) *plainView { return &plainView{Box: tview.NewBox(), th: th} }

// Show keeps the snapshot.
func (p *plainView) Show(s board.Snapshot) { p.snap = s }

// Ask notes the request; the player cannot answer it here.
func (p *plainView) Ask(r *board.Request) { p.req = r }

// Withdraw forgets the request.
func (p *plainView) Withdraw(*board.Request) { p.req = nil }

// Bindings: the plain view has no keys.
func (p *plainView) Bindings() []keys.Binding { return nil }

// Prompt says that the game cannot be played here.
func (p *plainView) Prompt() string {
	if p.req != nil {
		return "this game has no board in the interface yet: it cannot be played here"
	}
	return ""
}

// Draw shows what the game waits for and its state hash.
func (p *plainView) Draw(scr tcell.Screen) {
	x, y, w, _ := p.GetInnerRect()
	style.Print(scr, x, y, w, p.th.Warn, "No board for this game yet.")
	if g := p.snap.Game; g != nil {
		n := g.Next()
		style.Print(scr, x, y+2, w, p.th.Base, fmt.Sprintf("next: %s %s", n.Kind, p.snap.Say(n.Asks())))
		style.Print(scr, x, y+3, w, p.th.Dim, "state hash "+g.Hash().Short())
	}
}
