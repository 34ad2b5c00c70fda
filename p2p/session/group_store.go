package session

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
)

// A table (3-4 players over a topic) kept in the match store survives a
// restart as a two-player match does: its transcript, secrets and a peer
// record listing every player and the addresses last known for each. A
// restarted player rejoins the topic, dials the others, and takes back
// from them (the fetch protocol) every message sent while it was away;
// the others take from it any message it signed that never reached them.
// Nothing else is needed: every copy of a message is checkable, and the
// give-up time (the others forfeit a seat only once the match waits for
// it and it has been away that long) is the only clock of an outage.

// StartGroup plays an agreed table until it ends, is suspended or left,
// keeping it in cfg.Store so that ResumeMatch can take it up again after
// a restart. It returns at once; ctx ending suspends the match. The
// runner has no Transport (a table has no match stream).
func StartGroup(ctx context.Context, res *Resumer, m *GroupMatch, cfg NetPlayConfig) *Runner {
	r := newRunner(ctx, res, m.Header.Match, &cfg)
	go r.run(func(ctx context.Context) (*fairness.Result, error) {
		return m.playStored(ctx, res.Host(), cfg)
	})
	return r
}

// tableRecord is the peer record of a table: the other player named in
// Remote is the first other seat (the store lists a match by it), Table
// lists every seat's peer and addresses.
func tableRecord(h *p2p.Host, m *GroupMatch) peerRecord {
	pr := peerRecord{Match: m.Header.Match, Seat: int(m.Seat), Transcript: TranscriptName(m.Header, m.Seat)}
	for _, a := range h.Libp2p().Network().ListenAddresses() {
		pr.Listen = append(pr.Listen, a.String())
	}
	pr.Relays, pr.Bootstrap = h.NetPeers()
	for s, p := range m.Header.Players {
		if pr.Remote == "" && engine.Seat(s) != m.Seat {
			pr.Remote = p.Peer
		}
	}
	pr.Table = tableAddrs(h, m.Header, m.Seat)
	return pr
}

// tableAddrs lists where every other player can be found now (none for
// this seat), at most maxAddrs each (peerAddrs).
func tableAddrs(h *p2p.Host, hd fairness.Header, seat engine.Seat) []PeerAddrs {
	out := make([]PeerAddrs, len(hd.Players))
	for s, p := range hd.Players {
		out[s].Peer = p.Peer
		id, err := peer.Decode(p.Peer)
		if err != nil || engine.Seat(s) == seat {
			continue
		}
		out[s].Addrs = peerAddrs(h, id)
	}
	return out
}

// PlayStored is Play with the transcript, the secrets and the peer record
// in cfg.Store, on the table's host h: StartGroup without a Runner, for an
// interface that runs the referee itself.
func (m *GroupMatch) PlayStored(ctx context.Context, h *p2p.Host, cfg NetPlayConfig) (*fairness.Result, error) {
	return m.playStored(ctx, h, cfg)
}

// playStored is PlayStored.
func (m *GroupMatch) playStored(ctx context.Context, h *p2p.Host, cfg NetPlayConfig) (*fairness.Result, error) {
	defer m.Topic.Close()
	pr := tableRecord(h, m)
	if err := cfg.Store.writePeer(pr); err != nil {
		return nil, err
	}
	fm, tw, err := openMatch(m.Entry.Spec, m.Header, cfg.Store.Transcript(m.Header.Match))
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	return m.runStored(ctx, h, cfg, fm, tw, pr)
}

// runStored runs the referee of a stored table, records the addresses
// identify learns meanwhile, and marks the match ended in the store once
// it is over here.
func (m *GroupMatch) runStored(ctx context.Context, h *p2p.Host, cfg NetPlayConfig, fm *fairness.Match, tw *fairness.TranscriptWriter, pr peerRecord) (*fairness.Result, error) {
	var mu sync.Mutex
	over := make(chan struct{})
	var bg sync.WaitGroup
	bg.Add(1)
	go func() { // identify tells the other players' listen addresses soon after they connect
		defer bg.Done()
		select {
		case <-time.After(2 * time.Second):
		case <-over:
			return
		}
		mu.Lock()
		defer mu.Unlock()
		pr.Table = tableAddrs(h, m.Header, m.Seat)
		_ = cfg.Store.writePeer(pr)
	}()
	pc := PlayConfig{Key: cfg.Key, Agent: cfg.Agent, Timeout: cfg.Timeout, Observe: cfg.Observe, Hooks: cfg.Hooks,
		Logger: cfg.Logger, GiveUp: cfg.Reconnect.GiveUp}
	result, err := m.referee(ctx, pc, fm, tw, &sendTracker{Topic: m.Topic}, nil, cfg.Store.Secrets(m.Header.Match))
	close(over)
	bg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if pr.ended(result, fm, err) {
		err = errors.Join(err, cfg.Store.writePeer(pr))
	}
	return result, err
}

// resumeGroup takes up a stored table after this program stopped: the
// match rebuilt from its transcript (checked line by line), the topic
// joined again, the other players dialled at their stored addresses, and
// the referee started where the transcript stands; what was sent while
// this peer was away comes back through the fetch protocol.
func resumeGroup(ctx context.Context, res *Resumer, pr peerRecord, cfg NetPlayConfig) (*fairness.Result, error) {
	if cfg.Router == nil {
		return nil, errors.New("session: resume: a table of more than two needs the host's pubsub router")
	}
	path := cfg.Store.Transcript(pr.Match)
	fm, envs, err := fairness.LoadMatch(games.Spec, path)
	if err != nil {
		return nil, fmt.Errorf("session: resume: %w", err)
	}
	if fm.Done() {
		return nil, fmt.Errorf("session: resume %.12s…: %w", pr.Match, ErrMatchOver)
	}
	hd := fm.Header()
	me, err := peer.IDFromPrivateKey(cfg.Key)
	if err != nil {
		return nil, err
	}
	seat := hd.Seat(me.String())
	if seat != engine.Seat(pr.Seat) || len(pr.Table) != len(hd.Players) {
		return nil, fmt.Errorf("session: resume: this key is not seat %d of table %.12s…", pr.Seat, pr.Match)
	}
	entry, ok := games.Lookup(hd.Game)
	if !ok {
		return nil, fmt.Errorf("session: resume: unknown game %q", hd.Game)
	}
	if err := replayNotes(hd, envs, me.String(), cfg.Observe); err != nil {
		return nil, err
	}
	h := res.Host()
	if err := h.UseNetPeers(pr.Relays, pr.Bootstrap); err != nil {
		res.log.Warn("stored relays unusable; resuming without them", "match", short(pr.Match), "err", err)
	}
	ids := make([]peer.ID, len(hd.Players))
	for s, p := range hd.Players {
		if ids[s], err = peer.Decode(p.Peer); err != nil {
			return nil, fmt.Errorf("session: resume: seat %d: %w", s, err)
		}
		if engine.Seat(s) != seat {
			h.AddPeerAddrs(ids[s], append(parseAddrs(pr.Table[s].Addrs), h.CircuitAddrs()...))
		}
	}
	topic, err := cfg.Router.Join(pr.Match, ids)
	if err != nil {
		return nil, fmt.Errorf("session: resume: %w", err)
	}
	m := &GroupMatch{Header: hd, Seat: seat, Entry: entry, Topic: topic, eager: true}
	defer topic.Close()
	tw, err := fairness.AppendTranscript(path)
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	rctx, stop := context.WithCancel(ctx)
	defer stop()
	go reachTable(rctx, cfg.Router, ids, seat)
	return m.runStored(ctx, h, cfg, fm, tw, pr)
}

// reachTable dials every other player until each has been connected once
// (from then on the topic keeps them connected), the wait between tries
// growing from group.RedialFirst to group.RedialMax, until ctx ends.
func reachTable(ctx context.Context, r *group.Router, ids []peer.ID, seat engine.Seat) {
	wait := group.RedialFirst
	reached := map[peer.ID]bool{r.ID(): true}
	for len(reached) < len(ids) {
		for s, id := range ids {
			if engine.Seat(s) == seat || reached[id] {
				continue
			}
			dctx, cancel := context.WithTimeout(ctx, group.RedialTimeout)
			if r.Connect(dctx, id, nil) == nil {
				reached[id] = true
			}
			cancel()
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, group.RedialMax)
	}
}
