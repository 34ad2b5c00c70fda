package session

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// Runner is the whole life of one two-player match over the network,
// below any interface: the terminal interface and the headless command
// line both drive a match through it and only render its notes
// (NetPlayConfig.Observe). It owns what they used to each copy: the
// referee's goroutine, the reconnecting transport, the store's records,
// the linger after the end, and the signed record of a player who leaves.
//
// A match is started (StartMatch) or taken up again after a restart
// (ResumeMatch); then it is played to its end (Done, Result, Wait),
// suspended (Suspend: this program stops, the match stays resumable and
// the other side waits for us), or left (Leave: our signed forfeit in our
// own transcript and in the other peer's).
type Runner struct {
	res    *Resumer
	store  Store
	key    crypto.PrivKey
	match  string
	ctx    context.Context
	cancel context.CancelFunc
	rc     atomic.Pointer[Reconnecting]
	done   chan struct{}
	// result and err are written once, before done is closed.
	result *fairness.Result
	err    error
}

// StartMatch plays an agreed match m (Host, Join or HostFirst made it)
// over a reconnecting transport until it ends, is suspended or left.
// dialer is true on the side that opened the match stream (the joiner, or
// an inviting host). cfg.Store keeps everything a restart needs. It
// returns at once; ctx ending suspends the match, as Suspend does.
func StartMatch(ctx context.Context, res *Resumer, m *Match, dialer bool, cfg NetPlayConfig) *Runner {
	r := newRunner(ctx, res, m.Header.Match, &cfg)
	go r.run(func(ctx context.Context) (*fairness.Result, error) {
		result, err := m.PlayNet(ctx, res, dialer, cfg)
		if c, ok := m.Stream.(*p2p.Conn); ok && err != nil {
			// PlayNet failed before the transport took the stream over:
			// nothing else will close it.
			_ = c.Close()
		}
		return result, err
	})
	return r
}

// ResumeMatch takes up again a match of cfg.Store after this program (or
// the other peer's) stopped, where its transcript stands (see Resume). Its
// first notes replay the transcript's messages, so that a screen opened
// on it shows the real sequence and the verification of every message
// already played before the other peer is even back. It returns at once;
// ctx ending suspends the match again.
func ResumeMatch(ctx context.Context, res *Resumer, match string, cfg NetPlayConfig) *Runner {
	r := newRunner(ctx, res, match, &cfg)
	go r.run(func(ctx context.Context) (*fairness.Result, error) {
		return Resume(ctx, res, match, cfg)
	})
	return r
}

// newRunner makes the runner of match and has cfg hand it the transport.
func newRunner(ctx context.Context, res *Resumer, match string, cfg *NetPlayConfig) *Runner {
	r := &Runner{res: res, store: cfg.Store, key: cfg.Key, match: match, done: make(chan struct{})}
	r.ctx, r.cancel = context.WithCancel(ctx)
	onT := cfg.OnTransport
	cfg.OnTransport = func(rc *Reconnecting) {
		r.rc.Store(rc)
		if onT != nil {
			onT(rc)
		}
	}
	return r
}

// run runs play (the referee) and records its end.
func (r *Runner) run(play func(context.Context) (*fairness.Result, error)) {
	defer close(r.done)
	r.result, r.err = play(r.ctx)
}

// Match is the ID of the match run.
func (r *Runner) Match() string { return r.match }

// Transport is the match's reconnecting transport (its kind, round-trip
// time, outage), nil until it exists.
func (r *Runner) Transport() *Reconnecting { return r.rc.Load() }

// Done is closed once the referee has stopped: the match ended, or was
// suspended or left.
func (r *Runner) Done() <-chan struct{} { return r.done }

// Result is how the referee's run ended; call it once Done is closed.
// A suspended match ends with the context's error and stays resumable.
func (r *Runner) Result() (*fairness.Result, error) {
	<-r.done
	return r.result, r.err
}

// Wait waits for the referee to stop, then, for a match over by the rules,
// lingers until the other side has our last message (it ended too), at
// most DefaultLinger and never past a Suspend: a program that exits after
// Wait loses no message. It returns Result.
func (r *Runner) Wait() (*fairness.Result, error) {
	<-r.done
	if rc := r.rc.Load(); rc != nil && r.err == nil && r.result != nil && r.result.Closing == nil {
		t := time.NewTimer(DefaultLinger)
		defer t.Stop()
		select {
		case <-rc.Lingered():
		case <-t.C:
		case <-r.ctx.Done():
		}
	}
	return r.result, r.err
}

// Suspend stops the match without a word to the other side, as a program
// that stops does: the transcript, secrets and peer record stay, the other
// peer waits for us (up to its give-up time), and ResumeMatch takes the
// match up again. It returns at once; Done is closed when the referee has
// stopped.
func (r *Runner) Suspend() { r.cancel() }

// Leave leaves the match on purpose: it suspends the referee, then signs
// our forfeit into our own transcript, marks the match ended in the store
// and hands the record to the other peer (the package's Leave), so both
// transcripts end alike. ctx bounds the wait and the telling; a peer that
// cannot be told forfeits us after its give-up time.
func (r *Runner) Leave(ctx context.Context) error {
	r.Suspend()
	select {
	case <-r.done:
	case <-ctx.Done():
		return fmt.Errorf("session: leave: %w", ctx.Err())
	}
	return Leave(ctx, r.res.Host(), r.store, r.key, r.match)
}

// ReplayText is the text of the notes that replay a resumed match's
// transcript (ResumeMatch).
const ReplayText = "replayed from the transcript: signature, chain, every check and the state hash agree"

// replayNotes tells observe, one note per message, what the transcript
// of a resumed match holds: each envelope is checked again on a fresh
// match (as loading it was), and the note carries its events, the state
// hash and the game after it, "out" for our own messages and "in" for the
// others'. Without them a screen opened on a resumed match said "seq 0"
// and "nothing yet" in its verification pane at message 22.
func replayNotes(h fairness.Header, envs []*fairness.Envelope, me string, observe func(fairness.Note)) error {
	if observe == nil || len(envs) == 0 {
		return nil
	}
	sp, ok := games.Spec(h.Game)
	if !ok {
		return fmt.Errorf("session: replay: unknown game %q", h.Game)
	}
	fm, err := fairness.NewMatch(sp, h)
	if err != nil {
		return fmt.Errorf("session: replay: %w", err)
	}
	for _, e := range envs {
		evs, err := fm.Accept(e)
		if err != nil {
			return fmt.Errorf("session: replay: message %d: %w", e.Seq, err)
		}
		n := fairness.Note{Seq: e.Seq, Seat: h.Seat(e.From), Dir: fairness.DirIn, OK: true,
			Text:   fmt.Sprintf("message %d %s", e.Seq, ReplayText),
			Events: evs, State: fm.StateHash(), Game: fm.Game().Clone()}
		if e.From == me {
			n.Dir = fairness.DirOut
		}
		observe(n)
	}
	return nil
}
