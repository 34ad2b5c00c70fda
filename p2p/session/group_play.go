package session

import (
	"context"
	"errors"

	"github.com/salvo-game/salvo/fairness"
)

// Play runs the referee for the local seat over the match topic to the end
// of the match and leaves the topic. If this seat sent the match's last
// message, it first stays on the topic until the other players have left
// (they leave once their referee is done, so they have it), at most
// GroupLinger: a peer that quits at once could take its last message with
// it. (Every seat lingering for the others would wait for each other.)
func (m *GroupMatch) Play(ctx context.Context, cfg PlayConfig) (*fairness.Result, error) {
	defer m.Topic.Close()
	fm, err := fairness.NewMatch(m.Entry.Spec, m.Header)
	if err != nil {
		return nil, err
	}
	tw, err := fairness.CreateTranscript(cfg.Transcript, m.Header)
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	var lastOut uint64 // the last message this seat sent
	observe := func(n fairness.Note) {
		if n.Dir == "out" {
			lastOut = n.Seq
		}
		if cfg.Observe != nil {
			cfg.Observe(n)
		}
	}
	ref, err := fairness.NewReferee(fairness.Config{
		Match: fm, Seat: m.Seat, Key: cfg.Key, Agent: cfg.Agent, Transport: m.Topic,
		Transcript: tw, Timeout: cfg.Timeout, Observe: observe, Logger: cfg.Logger, Cheat: cfg.Cheat,
	})
	if err != nil {
		return nil, err
	}
	res, err := ref.Run(ctx)
	if lastOut > 0 && lastOut == fm.Seq() {
		m.Topic.Linger(ctx, GroupLinger)
	}
	return res, errors.Join(err, m.Topic.Close())
}
