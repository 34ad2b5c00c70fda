package board

import "github.com/salvo-game/salvo/engine"

// Pending is the request lifecycle every board shares: the snapshot drawn,
// the request the local player owes (if any) and the one-off message line.
// A view keeps one in a field, G being its game's type, and leaves to it
// Show, Ask, Withdraw and the reply, so that the five boards answer the
// same way; the view keeps its own modes, drawing and keys. Like the views,
// it lives on the tview goroutine.
//
// What is drawn while a request is pending: always the newest game the
// referee showed. A request carries a clone of the game as it stood when the
// referee asked, which is newer than the snapshot shown before it, so Ask
// makes it the snapshot's game; a later Show replaces it again. The
// request's own game is what an answer is checked against ([Pending.Decide]
// and [Request.Reply]), never a reason to hold the picture back.
//
// A request answered or withdrawn is gone: Reply sends nothing more for it
// and Withdraw of a request no longer pending changes nothing, so a key
// pressed after the referee moved on cannot answer a stale question.
type Pending[G engine.Game] struct {
	// Snap is the snapshot drawn.
	Snap Snapshot
	// Req is the pending request, nil when the player owes nothing.
	Req *Request
	// Msg is why the last key did nothing, for the prompt line.
	Msg string
}

// Show makes s the snapshot drawn and returns its game, if it is a G.
func (p *Pending[G]) Show(s Snapshot) (G, bool) {
	p.Snap = s
	g, ok := s.Game.(G)
	return g, ok
}

// Ask makes r the pending request and clears the message line. When r's
// game is a G it becomes the game drawn (the newest the referee showed)
// and is returned.
func (p *Pending[G]) Ask(r *Request) (G, bool) {
	p.Req, p.Msg = r, ""
	g, ok := r.Game.(G)
	if ok {
		p.Snap.Game = g
	}
	return g, ok
}

// Withdraw drops r if it is the pending request and reports whether it
// was: only then has the view a decision to abandon.
func (p *Pending[G]) Withdraw(r *Request) bool {
	if r == nil || p.Req != r {
		return false
	}
	p.Req = nil
	return true
}

// Reply sends d for the pending request. It reports whether the referee
// took it: then the request is gone. A refusal leaves the reason on the
// message line and the request pending, so the player may try again; with
// no request pending nothing is sent and the message line is kept.
func (p *Pending[G]) Reply(d engine.Decision) bool {
	if !Send(p.Req, d, p.Snap, &p.Msg) {
		return false
	}
	p.Req = nil
	return true
}

// Decide returns the game an answer is checked against: the pending
// request's, else the one drawn; false when that is no G.
func (p *Pending[G]) Decide() (G, bool) {
	if p.Req != nil {
		if g, ok := p.Req.Game.(G); ok {
			return g, true
		}
	}
	g, ok := p.Snap.Game.(G)
	return g, ok
}

// Seat returns the seat the view plays: the request's while one is
// pending, else the snapshot's.
func (p *Pending[G]) Seat() engine.Seat { return p.Snap.Deciding(p.Req) }

// Secrets returns the hidden values the view knows: the pending request's
// (the newest), else the snapshot's; never nil.
func (p *Pending[G]) Secrets() engine.Secrets { return p.Snap.SecretsFor(p.Req) }
