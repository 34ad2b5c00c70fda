package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
	"github.com/salvo-game/salvo/p2p/session"
)

// tableFlags are netplay's settings for agreeing a match: two players
// over a match stream, or a table of 3-4 over a gossipsub topic.
type tableFlags struct {
	role, code, rdv string
	files           codeFiles
	players         int
	offer           session.Offer
	relayWait       time.Duration
	relays, mdns    bool
}

// agreedMatch is a match netplay agreed, ready to play: start plays it
// (a session.Runner either way).
type agreedMatch struct {
	game  string
	seat  int
	watch bool // the header opens the match to spectators
	start func(ctx context.Context, res *session.Resumer, cfg session.NetPlayConfig) *session.Runner
}

// agree finds the other players and agrees the match, filling in the
// report's match and remote.
func (t tableFlags) agree(ctx context.Context, h *p2p.Host, self session.Self, rep *netReport, start time.Time, stdout io.Writer, log *slog.Logger) (agreedMatch, error) {
	if t.players > 2 {
		return t.agreeTable(ctx, h, self, rep, start, stdout, log)
	}
	var m *session.Match
	var err error
	if t.role == "host" {
		m, err = hostNet(ctx, h, self, t.offer, t.files, t.rdv, t.relayWait, t.relays, stdout, rep, start, log)
	} else {
		m, err = joinNet(ctx, h, self, t.code, t.files.long, t.rdv, t.mdns, rep, start)
	}
	if err != nil {
		return agreedMatch{}, err
	}
	rep.Match, rep.Remote = m.Header.Match, m.Stream.Remote().String()
	return agreedMatch{game: m.Header.Game, seat: int(m.Seat), watch: m.Header.Watch, start: func(ctx context.Context, res *session.Resumer, cfg session.NetPlayConfig) *session.Runner {
		return session.StartMatch(ctx, res, m, t.role == "join", cfg)
	}}, nil
}

// agreeTable gathers (host) or joins a table of t.players over the
// host's pubsub router, started here (tableRouter).
func (t tableFlags) agreeTable(ctx context.Context, h *p2p.Host, self session.Self, rep *netReport, start time.Time, stdout io.Writer, log *slog.Logger) (agreedMatch, error) {
	r, err := tableRouter(h, log)
	if err != nil {
		return agreedMatch{}, err
	}
	var m *session.GroupMatch
	if t.role == "host" {
		if err := advertise(ctx, h, t.offer, t.files, t.rdv, t.relayWait, t.relays, stdout, log); err != nil {
			return agreedMatch{}, err
		}
		m, err = session.HostGroup(ctx, session.GroupHostConfig{Self: self, Offer: t.offer, Players: t.players, Router: r, Logger: log}, h.Incoming())
		rep.DiscoverMS = ms(time.Since(start))
	} else {
		var c *p2p.Conn
		if c, err = openHost(ctx, h, t.code, t.files.long, t.rdv, t.mdns, rep, start); err == nil {
			m, err = session.JoinGroup(ctx, r, c, self, nil)
		}
	}
	if err != nil {
		return agreedMatch{}, err
	}
	rep.Match, rep.Remote = m.Header.Match, m.Header.Players[0].Peer
	if m.Seat == 0 {
		rep.Remote = m.Header.Players[1].Peer
	}
	return agreedMatch{game: m.Header.Game, seat: int(m.Seat), watch: m.Header.Watch, start: func(ctx context.Context, res *session.Resumer, cfg session.NetPlayConfig) *session.Runner {
		return session.StartGroup(ctx, res, m, cfg)
	}}, nil
}

// tableRouter starts the host's pubsub router, which lives as long as the
// host: gossipsub registers its protocols on it.
func tableRouter(h *p2p.Host, log *slog.Logger) (*group.Router, error) {
	r, err := group.NewRouter(h.Libp2p(), group.Config{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("pubsub router: %w", err)
	}
	return r, nil
}
