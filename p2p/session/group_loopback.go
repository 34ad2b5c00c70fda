package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
)

// GroupLoopbackConfig sets up a table of 2 to 4 Salvo hosts on 127.0.0.1,
// for a selfplay among bots: the group handshake over match streams, then
// the match over a gossipsub topic, all on real libp2p connections.
type GroupLoopbackConfig struct {
	Offer   Offer
	Players int
	// Names of the players in seat order; missing ones are "bot-a",
	// "bot-b", …
	Names []string
	// Keys in seat order; a missing or nil key is a fresh ephemeral one.
	Keys []crypto.PrivKey
	// Transport is "tcp" (the default) or "quic".
	Transport string
	// Delay, if set, puts a slow link in front of every host (see
	// LoopbackConfig.Delay): every player reaches every other through one.
	Delay  time.Duration
	Logger *slog.Logger
}

// Table is a loopback table with an agreed match: everything indexed by
// seat.
type Table struct {
	Hosts   []*p2p.Host
	Routers []*group.Router
	Keys    []crypto.PrivKey
	Seats   []*GroupMatch

	fronts []*slowFront
}

// Close leaves the topics and closes the routers and the hosts.
func (t *Table) Close() error {
	var errs []error
	for _, m := range t.Seats {
		if m != nil {
			errs = append(errs, m.Topic.Close())
		}
	}
	for _, r := range t.Routers {
		if r != nil {
			errs = append(errs, r.Close())
		}
	}
	for _, h := range t.Hosts {
		if h != nil {
			errs = append(errs, h.Close())
		}
	}
	return errors.Join(append(errs, closeFronts(t.fronts))...)
}

// start starts a host listening on listen, named names[i] (none if
// names is short), and its pubsub router for each key of the table; the
// caller closes the table, also on an error.
func (t *Table) start(ctx context.Context, listen, names []string, logger *slog.Logger) error {
	for i, k := range t.Keys {
		var name string
		if i < len(names) {
			name = names[i]
		}
		var front *slowFront
		if i < len(t.fronts) {
			front = t.fronts[i]
		}
		h, err := p2p.New(ctx, front.hostConfig(p2p.Config{Key: k, ListenAddrs: listen, Name: name, Logger: logger}))
		if err != nil {
			return err
		}
		t.Hosts[i] = h
		if t.Routers[i], err = group.NewRouter(h.Libp2p(), group.Config{Logger: logger}); err != nil {
			return fmt.Errorf("router: %w", err)
		}
	}
	return nil
}

// LoopbackGroup starts cfg.Players hosts, each with its pubsub router;
// every joiner connects to the host (seat 0) and opens a match stream, one
// after the other so that seats follow the order of Names and Keys; then
// the group handshake runs on every side.
func LoopbackGroup(ctx context.Context, cfg GroupLoopbackConfig) (*Table, error) {
	listen, err := loopbackListen(cfg.Transport)
	if err != nil {
		return nil, err
	}
	n := cfg.Players
	if n < 2 || n > 26 {
		return nil, fmt.Errorf("loopback group: %d players", n)
	}
	t := &Table{Hosts: make([]*p2p.Host, n), Routers: make([]*group.Router, n), Keys: make([]crypto.PrivKey, n), Seats: make([]*GroupMatch, n)}
	fail := func(err error) (*Table, error) {
		t.Close()
		return nil, fmt.Errorf("loopback group: %w", err)
	}
	names := make([]string, n)
	for i := range n {
		names[i] = fmt.Sprintf("bot-%c", 'a'+i)
		if i < len(cfg.Names) && cfg.Names[i] != "" {
			names[i] = cfg.Names[i]
		}
		if i < len(cfg.Keys) {
			t.Keys[i] = cfg.Keys[i]
		}
		if t.Keys[i] == nil {
			if t.Keys[i], _, err = crypto.GenerateEd25519Key(nil); err != nil {
				return fail(fmt.Errorf("key: %w", err))
			}
		}
	}
	if t.fronts, err = slowFronts(n, cfg.Transport, cfg.Delay); err != nil {
		return fail(err)
	}
	if err := t.start(ctx, listen, names, cfg.Logger); err != nil {
		return fail(err)
	}
	seatedCh := make(chan peer.ID, n)
	type result struct {
		m   *GroupMatch
		err error
	}
	hostDone := make(chan result, 1)
	go func() {
		m, err := HostGroup(ctx, GroupHostConfig{
			Self: Self{Key: t.Keys[0], Name: names[0]}, Offer: cfg.Offer, Players: n, Router: t.Routers[0], Logger: cfg.Logger,
			Seated: func(_ engine.Seat, p peer.ID, _ string) { seatedCh <- p },
		}, t.Hosts[0].Incoming())
		hostDone <- result{m, err}
	}()
	joined := make(chan struct {
		i int
		result
	}, n)
	for i := 1; i < n; i++ {
		id, err := t.Hosts[i].Connect(ctx, t.Hosts[0].Invite())
		if err != nil {
			return fail(err)
		}
		c, err := t.Hosts[i].OpenMatch(ctx, id)
		if err != nil {
			return fail(err)
		}
		go func() {
			m, err := JoinGroup(ctx, t.Routers[i], c, Self{Key: t.Keys[i], Name: names[i]}, nil)
			joined <- struct {
				i int
				result
			}{i, result{m, err}}
		}()
		// Wait for this joiner's seat before the next one joins.
		select {
		case p := <-seatedCh:
			if p != t.Hosts[i].ID() {
				return fail(fmt.Errorf("seat %d went to %s, not host %d", i, p, i))
			}
		case h := <-hostDone:
			return fail(fmt.Errorf("host: %v", h.err))
		case j := <-joined:
			return fail(fmt.Errorf("joiner %d: %v", j.i, j.err))
		case <-ctx.Done():
			return fail(ctx.Err())
		}
	}
	var errs []error
	for range n - 1 {
		j := <-joined
		if j.err != nil {
			errs = append(errs, fmt.Errorf("joiner %d: %w", j.i, j.err))
			continue
		}
		t.Seats[j.i] = j.m
	}
	h := <-hostDone
	if h.err != nil {
		errs = append(errs, fmt.Errorf("host: %w", h.err))
	}
	t.Seats[0] = h.m
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	for i, m := range t.Seats {
		if m.Seat != engine.Seat(i) {
			return fail(fmt.Errorf("host %d holds seat %d", i, m.Seat))
		}
	}
	return t, nil
}
