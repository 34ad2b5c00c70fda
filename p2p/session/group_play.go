package session

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/watch"
)

// Play runs the referee for the local seat over the match topic to the end
// of the match and leaves the topic. If the match ended by the rules and
// this seat sent its last message, it first stays on the topic until the
// other players have left (they leave once their referee is done, so they
// have it), at most GroupLinger: a peer that quits at once could take its
// last message with it. Only that seat lingers: seats lingering for each
// other would wait out the bound.
func (m *GroupMatch) Play(ctx context.Context, cfg PlayConfig) (*fairness.Result, error) {
	return m.play(ctx, cfg, nil)
}

// play is Play; wrap, if set, stands between the referee and the topic (the
// attack tests put a dishonest player's extra frames there).
func (m *GroupMatch) play(ctx context.Context, cfg PlayConfig, wrap func(fairness.GroupTransport) fairness.GroupTransport) (*fairness.Result, error) {
	defer m.Topic.Close()
	fm, tw, err := openMatch(m.Entry.Spec, m.Header, cfg.Transcript)
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	tr := &sendTracker{Topic: m.Topic}
	return m.referee(ctx, cfg, fm, tw, tr, wrap, "")
}

// referee runs the referee of the local seat over the topic (tr), with
// the fetch protocol's two sides: this peer answers the others from its
// transcript, and takes back what it missed (catchUp). secrets is the
// secrets file of a match kept in a store ("" for none).
func (m *GroupMatch) referee(ctx context.Context, cfg PlayConfig, fm *fairness.Match, tw *fairness.TranscriptWriter, tr *sendTracker,
	wrap func(fairness.GroupTransport) fairness.GroupTransport, secrets string) (*fairness.Result, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cu, err := newCatchUp(tr, m, log)
	if err != nil {
		return nil, err
	}
	cu.have.Store(fm.Seq()) // a resumed match holds its transcript's messages
	m.catchUp.Store(cu)
	defer serveFetch(m.Topic.Host(), m.Header, tw.Path(), log)()
	defer watch.ServeTranscript(m.Topic.Host(), m.Header, tw.Path(), log)()
	guard := newGiveUpGuard(cu, m, cfg.GiveUp)
	var transport fairness.GroupTransport = guard
	if wrap != nil {
		transport = wrap(guard)
	}
	observe := func(n fairness.Note) {
		guard.observe(n)
		cu.observe(n)
		if cfg.Observe != nil {
			cfg.Observe(n)
		}
	}
	ref, err := fairness.NewReferee(fairness.Config{
		Match: fm, Seat: m.Seat, Key: cfg.Key, Agent: cfg.Agent, Transport: transport,
		Transcript: tw, Timeout: cfg.Timeout, Observe: observe, Logger: cfg.Logger, Hooks: cfg.Hooks,
		SecretsPath: secrets,
	})
	if err != nil {
		return nil, err
	}
	cctx, stop := context.WithCancel(ctx)
	go cu.run(cctx)
	res, err := ref.Run(ctx)
	stop()
	if errors.Is(context.Cause(ctx), fairness.ErrLeaving) {
		// The referee just handed our left record to the others: stay a
		// moment on the topic so that gossip carries it.
		m.Topic.Linger(context.WithoutCancel(ctx), LeftLinger)
	}
	if err == nil && res.Closing == nil && res.Violation == nil && tr.last > 0 && tr.last == fm.Seq() {
		m.Topic.Linger(ctx, GroupLinger)
	}
	return res, errors.Join(err, m.Topic.Close())
}

// LeftLinger is how long a player who leaves a table on purpose stays on
// the topic after handing the others its left record.
const LeftLinger = time.Second

// sendTracker is the topic as the referee's transport, noting the number of
// the last envelope the seat sent. The referee sends from one goroutine.
type sendTracker struct {
	*group.Topic
	last uint64
}

// Send publishes the frame and notes its envelope's number.
func (t *sendTracker) Send(ctx context.Context, frame []byte) error {
	if err := t.Topic.Send(ctx, frame); err != nil {
		return err
	}
	if e, err := fairness.DecodeEnvelope(frame); err == nil {
		t.last = e.Seq
	}
	return nil
}

// Fetched is how many envelopes this seat, in its last Play, missed on the
// topic and took back from other players (the fetch protocol).
func (m *GroupMatch) Fetched() int {
	if cu := m.catchUp.Load(); cu != nil {
		return int(cu.fetched.Load())
	}
	return 0
}
