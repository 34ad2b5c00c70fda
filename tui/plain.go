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

func (p *plainView) Show(s board.Snapshot)    { p.snap = s }
func (p *plainView) Ask(r *board.Request)     { p.req = r }
func (p *plainView) Withdraw(*board.Request)  { p.req = nil }
func (p *plainView) Bindings() []keys.Binding { return nil }
func (p *plainView) Prompt() string {
	if p.req != nil {
		return "this game has no board in the interface yet: it cannot be played here"
	}
	return ""
}

func (p *plainView) Draw(scr tcell.Screen) {
	x, y, w, _ := p.GetInnerRect()
	style.Print(scr, x, y, w, p.th.Warn, "No board for this game yet.")
	if g := p.snap.Game; g != nil {
		n := g.Next()
		style.Print(scr, x, y+2, w, p.th.Base, fmt.Sprintf("next: %s %s", n.Kind, n.Prompt))
		style.Print(scr, x, y+3, w, p.th.Dim, "state hash "+g.Hash().Short())
	}
}
