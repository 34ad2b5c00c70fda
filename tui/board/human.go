package board

import (
	"context"
	"fmt"
	"sync"

	"github.com/salvo-game/salvo/engine"
)

// Request is one decision the local player owes the referee.
type Request struct {
	// Need is what the game waits for.
	Need engine.Need
	// Seat is the local seat.
	Seat engine.Seat
	// Game is a clone of the game when the referee asked.
	Game engine.Game
	// Secrets are the seat's hidden values known so far.
	Secrets Known

	mu     sync.Mutex
	closed bool
	reply  chan engine.Decision
}

// NewRequest returns a pending request. Human makes them; tests and demos
// make their own and read the answer with Answer.
func NewRequest(n engine.Need, seat engine.Seat, g engine.Game, sec Known) *Request {
	if sec == nil {
		sec = Known{}
	}
	return &Request{Need: n, Seat: seat, Game: g, Secrets: sec, reply: make(chan engine.Decision, 1)}
}

// Answer returns the decision once Reply has accepted one.
func (r *Request) Answer() (engine.Decision, bool) {
	select {
	case d := <-r.reply:
		r.reply <- d
		return d, true
	default:
		return engine.Decision{}, false
	}
}

// Reply hands the decision to the referee, after checking it against a copy
// of the game (a move is applied with the openings it implies, from the
// seat's own values; a commitment must have the right size). It returns
// why the decision is refused, so the view can say so and let the player
// try again, or an error if the request is no longer pending.
func (r *Request) Reply(d engine.Decision) error {
	if err := r.check(d); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("the referee no longer waits for this decision")
	}
	r.closed = true
	r.reply <- d
	return nil
}

// Pending reports whether the referee still waits for this request.
func (r *Request) Pending() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.closed
}

func (r *Request) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}

func (r *Request) check(d engine.Decision) error {
	switch r.Need.Kind {
	case engine.NeedCommit:
		if len(d.Leaves) != r.Need.Size {
			return fmt.Errorf("%d values for %s, want %d", len(d.Leaves), r.Need.Name, r.Need.Size)
		}
	case engine.NeedChoice:
		if len(d.Choice) == 0 {
			return fmt.Errorf("no choice made")
		}
	case engine.NeedMove:
		if r.Game == nil {
			return nil
		}
		slots, err := r.Game.MustOpen(r.Seat, d.Move)
		if err != nil {
			return err
		}
		opened := make([]engine.Opened, len(slots))
		for i, s := range slots {
			v, ok := r.Secrets.Value(s)
			if !ok {
				return fmt.Errorf("the move needs %s, which this seat does not know", s)
			}
			opened[i] = engine.Opened{Slot: s, Value: v}
		}
		g := r.Game.Clone()
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: r.Seat, Move: d.Move, Opened: opened}); err != nil {
			return err
		}
	}
	return nil
}

// Human is the local player's [engine.Agent]: Decide hands the need to the
// interface and blocks until the player has decided, or ctx ends. It keeps
// a copy of every value the player committed, so views can draw the
// player's own hidden data, and of the values its [Peeker] names.
type Human struct {
	post     func(func())
	ask      func(*Request)
	withdraw func(*Request)

	mu       sync.Mutex
	known    Known
	peeker   Peeker
	answered func(*Request) // on the UI goroutine, once a decision is taken
	seat     engine.Seat
	sec      engine.Secrets // the referee's, from the last decision
}

// Peeker is implemented by views of games in which hidden values reach the
// local seat other than through its own commitments: cards dealt to it from
// a deck shared by every seat, which the referee unmasks for it alone.
// Peek lists the slots of such values in g that the view wants to draw for
// seat; at every decision and every Refresh Human copies those the
// seat's secrets hold.
// Peek runs on the referee's goroutine: it must only read g.
type Peeker interface {
	Peek(g engine.Game, seat engine.Seat) []engine.Slot
}

// SetPeeker makes Human copy the values p names at every decision (nil
// stops it). Call it before the match starts.
func (h *Human) SetPeeker(p Peeker) {
	h.mu.Lock()
	h.peeker = p
	h.mu.Unlock()
}

// NewHuman returns the agent. post must run its argument on the UI goroutine
// without blocking the caller; ask and withdraw are then called there.
func NewHuman(post func(func()), ask, withdraw func(*Request)) *Human {
	return &Human{post: post, ask: ask, withdraw: withdraw, known: Known{}}
}

// OnAnswered makes Human call f (on the UI goroutine, through post) once
// the referee has taken the player's decision for a request and Known holds
// what it committed. A decision asked for ahead of the seat's turn (the
// referee asks early while others still set up or choose) is taken long
// before any message of the referee's shows it, so this is when a view
// draws the player's fleet just placed. Call it before the match starts.
func (h *Human) OnAnswered(f func(*Request)) {
	h.mu.Lock()
	h.answered = f
	h.mu.Unlock()
}

// Known returns a copy of the values the player has committed so far.
func (h *Human) Known() Known {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.known.Clone()
}

// Decide implements [engine.Agent].
func (h *Human) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	h.mu.Lock()
	h.seat, h.sec = seat, sec
	h.mu.Unlock()
	h.peek(g, seat, sec)
	req := NewRequest(n, seat, g.Clone(), h.Known())
	h.post(func() { h.ask(req) })
	select {
	case d := <-req.reply:
		h.mu.Lock()
		switch n.Kind {
		case engine.NeedCommit:
			h.known.Add(seat, n.Name, d.Leaves)
		case engine.NeedChoice:
			h.known.Add(seat, n.Name, [][]byte{d.Choice})
		}
		answered := h.answered
		h.mu.Unlock()
		if answered != nil {
			h.post(func() { answered(req) })
		}
		return d, nil
	case <-ctx.Done():
		req.close()
		h.post(func() { h.withdraw(req) })
		return engine.Decision{}, ctx.Err()
	}
}

// Refresh copies the values the peeker names in g for seat from sec, a
// copy of the seat's secrets as the referee's notes carry it
// (fairness.Note.Secrets), so that a card dealt to the seat shows at once,
// before the player is asked anything. A nil sec falls back to the secrets
// the referee handed the last decision (nothing before the first one);
// that fallback must run on the referee's goroutine. Any goroutine may
// call it with a copy.
func (h *Human) Refresh(g engine.Game, seat engine.Seat, sec engine.Secrets) {
	if sec == nil {
		h.mu.Lock()
		seat, sec = h.seat, h.sec
		h.mu.Unlock()
	}
	if g != nil && sec != nil {
		h.peek(g, seat, sec)
	}
}

// peek copies the values the peeker names from the referee's secrets.
func (h *Human) peek(g engine.Game, seat engine.Seat, sec engine.Secrets) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.peeker == nil || sec == nil {
		return
	}
	for _, s := range h.peeker.Peek(g, seat) {
		if v, ok := sec.Value(s); ok {
			h.known[s] = append([]byte(nil), v...)
		}
	}
}
