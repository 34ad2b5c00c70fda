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
// is predicted across it. A seat's own commitments in a row (custom
// U-Build's grid, then its weapons) are asked one after the other: the
// clone steps across the seat's own earlier commitment with a placeholder
// root too, and the later question is shown the earlier answer's values
// among the seat's secrets, as they will be at its turn.
//
// The prediction is checked again after every accepted message: a removal
// or a release since it was made, or a next step that no longer leads to
// the same decision, cancels the early ask (the agent sees ctx end; a
// person's prompt is withdrawn), and when the seat's real step comes its
// need must equal the predicted one (kind, name, seats, size, ...) or the
// early answer is dropped and the agent asked again.
//
// # Why asking early leaks nothing
//
// The agent is shown the clone and a copy of this seat's own secrets. The
// clone holds strictly less than the game will hold at the seat's real turn:
// the same public state, with zeros where the other seats' real roots will
// be (roots the seat would see then, and which tell nothing of the hidden
// values anyway). The secrets are this seat's own (Referee.secrets, with
// the values of its own earlier answers of a chain), and they are the same
// at its real turn: they change only by this seat's own inputs and by
// cards dealt to it, no deal comes between a prediction and the step it
// predicts, and the seat's own inputs between are those earlier answers.
// Every other seat sees nothing of the early answer before the real step:
// what it then receives is what it would have received from a seat asked
// late, in the same place of the chain. So an early answer is one the seat
// could have given at its turn with what it knew then, and timing aside,
// no peer can tell the two apart.

// askAnswer is what an agent answered.
type askAnswer struct {
	d   engine.Decision
	err error
}

// ask is one question put to the local agent, on its own goroutine: for the
// step the match waits for now, or ahead of it. Early questions come in a
// chain: a seat's set-up of several commitments (custom U-Build's grid, then
// its weapons) is asked one after the other, each once the one before is
// answered, all ahead of the seat's turn.
type ask struct {
	st      Step
	fence   askFence
	cancel  context.CancelFunc // this question's
	stopAll func()             // the chain's: this question and every later one
	done    chan askAnswer     // buffered: the agent's one answer, for the referee
	// answered is closed once ans holds the agent's answer (or why it was
	// never asked): the next question of the chain waits for it.
	answered chan struct{}
	ans      askAnswer
	// sec is what the seat knows when the agent is asked: its secrets, and
	// (added by put) own, the values of its own earlier answers of the
	// chain, which will be among its secrets at this question's turn.
	sec  engine.Known
	own  engine.Known
	next *ask
}

// askFence is what must stay unchanged for an early ask to stand: seats
// taken off the table and releases of out seats are inputs that no
// prediction steps across, and they may come between two steps.
type askFence struct {
	removed  uint64
	releases int
}

func (m *Match) askFence() askFence { return askFence{removed: m.removed, releases: m.releases} }

// maxAhead bounds how many commitments a prediction steps across (a set-up
// of every seat's commitments in turn).
const maxAhead = 64

// predicted is one decision of the local seat known ahead: its step and the
// game it is to be decided on (nil: the match's game as it stands).
type predicted struct {
	st   Step
	game engine.Game
}

// predictOwn returns the local seat's next decisions that can be known
// exactly while the match waits for another seat's step cur (m.Next), see
// the comment at the top of early.go, in order; none when cur is this
// seat's.
func predictOwn(m *Match, me engine.Seat, cur Step) []predicted {
	if cur.Seat == me || m.Removed(me) {
		return nil
	}
	switch need := cur.Need; {
	case need.Kind == engine.NeedChoice && (cur.Kind == InChoose || cur.Kind == InHello):
		return predictChoice(m, me, need)
	case need.Kind == engine.NeedCommit && (cur.Kind == InCommit || cur.Kind == InHello):
		return predictCommits(m, me)
	}
	return nil
}

// predictChoice: the other contributors choose in turn, hidden, and the game
// does not change until every choice is open, so the local seat's own
// choose comes with this very need if it is a contributor that has not
// chosen yet.
func predictChoice(m *Match, me engine.Seat, need engine.Need) []predicted {
	if j := m.gather; j != nil && j.reveal {
		return nil
	}
	if !slices.Contains(m.order(need), me) {
		return nil
	}
	if _, chosen := m.commits[commitKey{me, need.Name}]; chosen {
		return nil
	}
	return []predicted{{st: Step{Seat: me, Kind: InChoose, Need: need}}}
}

// predictCommits steps a clone of the game across the commitments to come,
// with placeholder roots, and returns the local seat's own among them, up
// to the first need that is no commitment.
func predictCommits(m *Match, me engine.Seat) []predicted {
	if len(m.decks) > 0 {
		return nil // a release could come between (release.go)
	}
	g := m.game.Clone()
	var out []predicted
	for range maxAhead {
		n := g.Next()
		if n.Kind != engine.NeedCommit || n.Seat < 0 || int(n.Seat) >= m.Seats() {
			break
		}
		if n.Seat == me {
			out = append(out, predicted{Step{Seat: me, Kind: InCommit, Need: n}, g.Clone()})
		}
		c := &engine.Commitment{Owner: n.Seat, Name: n.Name, Size: n.Size}
		if _, err := g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: n.Seat, Commitment: c}); err != nil {
			break
		}
	}
	return out
}

// sameDecision reports whether two steps ask the local agent the same
// question: the same input kind for the same need.
func sameDecision(a, b Step) bool {
	x, y := a.Need, b.Need
	return a.Seat == b.Seat && a.Kind == b.Kind && x.Kind == y.Kind && x.Seat == y.Seat && x.Name == y.Name &&
		x.Size == y.Size && x.Count == y.Count && x.Bound == y.Bound && x.Auto == y.Auto && x.Prompt == y.Prompt &&
		slices.Equal(x.Seats, y.Seats) && slices.Equal(x.Open, y.Open)
}

// startAsks asks the agent the questions of ps, one after the other, each
// on the goroutine of its own and once the one before is answered. It
// returns the first; the others follow by next.
func (r *Referee) startAsks(ctx context.Context, ps []predicted) *ask {
	if len(ps) == 0 {
		return nil
	}
	cctx, cancelAll := context.WithCancel(ctx)
	stopAll := func() { cancelAll() }
	fence := r.m.askFence()
	var first, prev *ask
	for _, p := range ps {
		actx, cancel := context.WithCancel(cctx)
		a := &ask{st: p.st, fence: fence, cancel: cancel, stopAll: stopAll, done: make(chan askAnswer, 1), answered: make(chan struct{})}
		game := p.game
		if game == nil {
			game = r.m.Game().Clone()
		}
		a.sec, _ = r.secrets.Snapshot().(engine.Known)
		if prev == nil {
			first = a
		} else {
			prev.next = a
		}
		go r.put(actx, a, prev, game)
		prev = a
	}
	return first
}

// put asks the agent a's question once prev (if any) is answered.
func (r *Referee) put(ctx context.Context, a, prev *ask, game engine.Game) {
	if prev != nil {
		select {
		case <-prev.answered:
		case <-ctx.Done():
			a.finish(askAnswer{err: ctx.Err()})
			return
		}
		if prev.ans.err != nil {
			a.finish(prev.ans)
			return
		}
		a.own = prev.own.Clone()
		for i, v := range prev.ans.d.Leaves {
			a.own[engine.Slot{Owner: r.cfg.Seat, Name: prev.st.Need.Name, Index: i}] = slices.Clone(v)
		}
		if a.sec == nil {
			a.sec = engine.Known{}
		}
		for k, v := range a.own {
			a.sec[k] = slices.Clone(v)
		}
	}
	d, err := r.cfg.Agent.Decide(ctx, game, r.cfg.Seat, a.sec, a.st.Need)
	a.finish(askAnswer{d, err})
}

func (a *ask) finish(ans askAnswer) {
	a.ans = ans
	a.done <- ans
	close(a.answered)
}

// stop cancels the question and every later one of its chain, and waits
// for the agent to return, so that it is never asked twice at once.
func (a *ask) stop() {
	a.stopAll()
	for ; a != nil; a = a.next {
		<-a.answered
	}
}

// askAhead runs while the match waits for another seat's step st: it
// starts asking the agent for the local seat's next decisions when they
// can be known exactly now, and cancels early questions that what arrived
// since has made wrong.
func (r *Referee) askAhead(ctx context.Context, st Step) {
	if r.cfg.AskLate {
		return
	}
	ps := predictOwn(r.m, r.cfg.Seat, st)
	for len(ps) > 0 {
		if _, sent := r.keptDecision(ps[0].st); !sent {
			break
		}
		ps = ps[1:] // decided already: a member waiting for its number
	}
	if a := r.ahead; a != nil {
		if len(ps) > 0 && r.stands(a, ps[0].st) {
			return // still the questions asked
		}
		r.dropAhead()
	}
	if len(ps) > 0 {
		r.ahead = r.startAsks(ctx, ps)
	}
}

// stands reports whether the early question a is still the one for st.
func (r *Referee) stands(a *ask, st Step) bool {
	return sameDecision(a.st, st) && a.fence == r.m.askFence()
}

// dropAhead cancels the early questions, if any.
func (r *Referee) dropAhead() {
	if r.ahead != nil {
		r.ahead.stop()
		r.ahead = nil
	}
}

// askFor returns the question for the local seat's step st: the early one
// when it asked this very question and nothing since has made it wrong,
// else a fresh one (the early ones cancelled).
func (r *Referee) askFor(ctx context.Context, st Step) *ask {
	a := r.ahead
	if a == nil || !r.stands(a, st) {
		r.dropAhead()
		a = r.startAsks(ctx, []predicted{{st: st}})
	}
	r.ahead = a.next
	if a.next == nil {
		a.cancel = context.CancelFunc(a.stopAll) // the chain's last: done with its context
	}
	return a
}
