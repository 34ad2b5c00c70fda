package fairness

import (
	"context"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// Asking early: the local seat's agent is asked for its next decision while
// the match still waits for other seats, whenever that decision can be
// known exactly now, so that players make their set-up and their hidden
// choices at the same time instead of one after another (issue 15). Nothing
// of the protocol changes: the answer is kept here, unsigned and unsent,
// until the match's real step for this seat comes, and only then does it
// become an input (a commitment made with fresh salts, signed and sent in
// turn), exactly as if it had been asked for then.
//
// # Exact, never a guess
//
// The prediction steps a clone of the game past what the match awaits from
// the other seats, and only past inputs that cannot change this seat's
// decision because the seat never learns what they hold:
//
//   - another seat's NeedCommit: all the game learns is a commitment root,
//     hidden values it cannot read; the clone is given a placeholder root
//     (zeros). An engine treats a root as opaque (it holds no value the
//     engine could read), so the clone's next need is the one the real
//     game will have after the real commitment;
//   - another seat's hello (a dice-chain tip) and its choose of a
//     NeedChoice (a one-leaf commitment root): the fairness layer records
//     them and the game does not change at all until every choice is open.
//
// Anything else on the way (a move, an opening, a roll, a reveal, a deal, a
// release) is information the seat may see before it decides, so nothing
// is predicted across it. The prediction is checked again after every
// accepted message: a removal or a release since it was made, or a next
// step that no longer leads to the same decision, cancels the early ask
// (the agent sees ctx end; a person's prompt is withdrawn), and when the
// seat's real step comes its need must equal the predicted one (kind, name,
// seats, size, ...) or the early answer is dropped and the agent asked
// again.
//
// # Why asking early leaks nothing
//
// The agent is shown the clone and a copy of this seat's own secrets. The
// clone holds strictly less than the game will hold at the seat's real turn:
// the same public state, with zeros where the other seats' real roots will
// be (roots the seat would see then, and which tell nothing of the hidden
// values anyway). The secrets are this seat's own (Referee.secrets), and
// they are the same at its real turn: they change only by this seat's own
// inputs and by cards dealt to it, and neither comes between a prediction
// and the step it predicts. Every other seat sees nothing of the early
// answer before the real step: what it then receives is what it would have
// received from a seat asked late, in the same place of the chain. So an
// early answer is one the seat could have given at its turn with what it
// knew then, and timing aside, no peer can tell the two apart.

// askAnswer is what an agent answered.
type askAnswer struct {
	d   engine.Decision
	err error
}

// ask is one question put to the local agent, on its own goroutine: for the
// step the match waits for now, or ahead of it (early.go).
type ask struct {
	st     Step
	fence  askFence
	cancel context.CancelFunc
	done   chan askAnswer // buffered: the agent's one answer
}

// askFence is what must stay unchanged for an early ask to stand: seats
// taken off the table and releases of out seats are inputs that no
// prediction steps across, and they may come between two steps.
type askFence struct {
	removed  uint64
	releases int
}

func (m *Match) askFence() askFence { return askFence{removed: m.removed, releases: m.releases} }

// maxAhead bounds how many of the other seats' commitments a prediction
// steps across (a set-up of every seat's commitments in turn).
const maxAhead = 64

// predictOwn returns the local seat's next decision step and the game it is
// to be decided on, when it can be known exactly while the match waits for
// another seat (see the comment at the top of early.go). The game is nil
// when it is the match's game as it stands (the caller clones it).
func predictOwn(m *Match, me engine.Seat) (Step, engine.Game, bool) {
	cur, ok := m.Next()
	if !ok || cur.Seat == me || m.Removed(me) {
		return Step{}, nil, false
	}
	switch need := cur.Need; {
	case need.Kind == engine.NeedChoice && (cur.Kind == InChoose || cur.Kind == InHello):
		return predictChoice(m, me, need)
	case need.Kind == engine.NeedCommit && (cur.Kind == InCommit || cur.Kind == InHello):
		return predictCommit(m, me)
	}
	return Step{}, nil, false
}

// predictChoice: the other contributors choose in turn, hidden, and the game
// does not change until every choice is open, so the local seat's own
// choose comes with this very need if it is a contributor that has not
// chosen yet.
func predictChoice(m *Match, me engine.Seat, need engine.Need) (Step, engine.Game, bool) {
	if j := m.gather; j != nil && j.reveal {
		return Step{}, nil, false
	}
	if !slices.Contains(m.order(need), me) {
		return Step{}, nil, false
	}
	if _, chosen := m.commits[commitKey{me, need.Name}]; chosen {
		return Step{}, nil, false
	}
	return Step{Seat: me, Kind: InChoose, Need: need}, nil, true
}

// predictCommit steps a clone of the game past the other seats'
// commitments, with placeholder roots, to the local seat's own.
func predictCommit(m *Match, me engine.Seat) (Step, engine.Game, bool) {
	if len(m.decks) > 0 {
		return Step{}, nil, false // a release could come between (release.go)
	}
	g := m.game.Clone()
	for range maxAhead {
		n := g.Next()
		if n.Kind != engine.NeedCommit || n.Seat < 0 || int(n.Seat) >= m.Seats() {
			return Step{}, nil, false
		}
		if n.Seat == me {
			return Step{Seat: me, Kind: InCommit, Need: n}, g, true
		}
		c := &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}
		if _, err := g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: c}); err != nil {
			return Step{}, nil, false
		}
	}
	return Step{}, nil, false
}

// sameDecision reports whether two steps ask the local agent the same
// question: the same input kind for the same need.
func sameDecision(a, b Step) bool {
	x, y := a.Need, b.Need
	return a.Seat == b.Seat && a.Kind == b.Kind && x.Kind == y.Kind && x.Seat == y.Seat && x.Name == y.Name &&
		x.Size == y.Size && x.Count == y.Count && x.Bound == y.Bound && x.Auto == y.Auto && x.Prompt == y.Prompt &&
		slices.Equal(x.Seats, y.Seats) && slices.Equal(x.Open, y.Open)
}

// startAsk asks the agent for st's decision on game (the match's game when
// nil), with a copy of the seat's secrets, on its own goroutine.
func (r *Referee) startAsk(ctx context.Context, st Step, game engine.Game) *ask {
	if game == nil {
		game = r.m.Game().Clone()
	}
	actx, cancel := context.WithCancel(ctx)
	a := &ask{st: st, fence: r.m.askFence(), cancel: cancel, done: make(chan askAnswer, 1)}
	secrets := r.secrets.Snapshot()
	go func() {
		d, err := r.cfg.Agent.Decide(actx, game, r.cfg.Seat, secrets, st.Need)
		a.done <- askAnswer{d, err}
	}()
	return a
}

// stop cancels the ask and waits for the agent to return, so that it is
// never asked twice at once.
func (a *ask) stop() {
	a.cancel()
	if ans, ok := <-a.done; ok {
		a.done <- ans // keep it for a later stop
	}
}

// askAhead runs while the match waits for another seat: it starts asking
// the agent for the local seat's next decision when that can be known
// exactly now, and cancels an early ask that what arrived since has made
// wrong.
func (r *Referee) askAhead(ctx context.Context) {
	if r.cfg.AskLate {
		return
	}
	st, game, ok := predictOwn(r.m, r.cfg.Seat)
	if a := r.ahead; a != nil {
		if ok && sameDecision(a.st, st) && a.fence == r.m.askFence() {
			return // still the question asked
		}
		r.dropAhead()
	}
	if ok {
		r.ahead = r.startAsk(ctx, st, game)
	}
}

// dropAhead cancels the early ask, if any.
func (r *Referee) dropAhead() {
	if r.ahead != nil {
		r.ahead.stop()
		r.ahead = nil
	}
}

// askFor returns the ask for the local seat's step st: the early one when
// it asked this very question and nothing since has made it wrong, else a
// fresh one (the early one cancelled).
func (r *Referee) askFor(ctx context.Context, st Step) *ask {
	if a := r.ahead; a != nil && sameDecision(a.st, st) && a.fence == r.m.askFence() {
		r.ahead = nil
		return a
	}
	r.dropAhead()
	return r.startAsk(ctx, st, nil)
}
