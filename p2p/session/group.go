package session

// A match among three or four peers (any table of 2 to 4 works the same
// way) runs over a pubsub topic instead of one match stream. The host
// gathers the joiners over match streams with a handshake like the
// two-player one, then everyone moves to the topic
// "salvo/match/<match id>" (package p2p/group):
//
//	joiner → host   {"t":"join","version":"salvo/4","name":…,"nonce":…}      (the two-player join frame)
//	host → joiner   {"t":"offer","header":{…every player, every nonce…},"peers":[{"peer":…,"addrs":[…]},…]}
//	joiner → host   {"t":"accept","match":…}   or {"t":"decline","reason":…}
//	                 every player joins the topic; the joiners dial each other
//	joiner → host   {"t":"ready","match":…}    it sees every other player subscribed
//	host → joiner   {"t":"start","match":…}    every player is ready; the streams close
//
// The host is seat 0 and seats the joiners in the order their join frames
// arrive. If any joiner declines, fails, or cannot see every other player on
// the topic, the host declines to all the others, naming it, and the table
// breaks up. Once started, the referee of every peer checks every envelope
// on the topic: a cheat is caught by every honest peer, and a seat that
// goes silent (or leaves) forfeits by timeout at every other peer.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p/group"
)

// Group handshake bounds (house).
const (
	// ReadyTimeout bounds the wait, after every player accepted, until
	// every player sees every other one subscribed to the match topic.
	ReadyTimeout = 15 * time.Second
	// DialTimeout bounds a joiner's dial of another joiner.
	DialTimeout = 5 * time.Second
	// IdentifyWait bounds the host's wait for a joiner's addresses (learnt
	// by identify right after it connects).
	IdentifyWait = 2 * time.Second
	// GroupLinger is how long a peer whose match is over stays on the topic
	// for the others to finish (it leaves sooner once they all have).
	GroupLinger = 3 * time.Second
)

// GroupMatch is an agreed match among 2 to 4 players over a pubsub topic,
// ready to play.
type GroupMatch struct {
	Header fairness.Header
	Seat   engine.Seat
	Entry  games.Entry
	Topic  *group.Topic

	catchUp atomic.Pointer[catchUp] // the fetch protocol's asking side, while it plays
	// eager has the seat ask the others for what it missed as soon as the
	// match waits for another seat (a resumed table: it was away).
	eager bool
}

// GroupHostConfig says what a host offers to a table.
type GroupHostConfig struct {
	Self    Self
	Offer   Offer
	Players int // the table's size, the host included (2 to 4)
	Router  *group.Router
	// Seated, if set, is told of each joiner as it takes its seat.
	Seated func(seat engine.Seat, p peer.ID, name string)
	Logger *slog.Logger
}

type joinReq struct {
	s   Stream
	f   frame
	err error
}

// HostGroup gathers cfg.Players-1 joiners from the match streams that
// arrive on joiners (a *p2p.Host's Incoming channel, say), agrees the match
// with all of them and moves everyone to the match topic. A joiner that
// sends a bad join frame is turned away and another awaited; streams that
// arrive once the table is full are declined. The joiners channel is not
// drained beyond that.
func HostGroup[S Stream](ctx context.Context, cfg GroupHostConfig, joiners <-chan S) (*GroupMatch, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	entry, ok := games.Lookup(cfg.Offer.Game)
	if !ok {
		return nil, fmt.Errorf("host group: unknown game %q", cfg.Offer.Game)
	}
	if cfg.Players < 2 || cfg.Players < entry.Spec.MinSeats || cfg.Players > entry.Spec.MaxSeats {
		return nil, fmt.Errorf("host group: %s takes %d to %d players, not %d", entry.Spec.Name, entry.Spec.MinSeats, entry.Spec.MaxSeats, cfg.Players)
	}
	if cfg.Router == nil {
		return nil, errors.New("host group: no pubsub router")
	}
	me, err := peer.IDFromPrivateKey(cfg.Self.Key)
	if err != nil || me != cfg.Router.ID() {
		return nil, fmt.Errorf("host group: the key is not the router's host identity")
	}
	seats, err := gather(ctx, cfg, joiners, me, log)
	if err != nil {
		return nil, err
	}
	return offerTable(ctx, cfg, entry, me, seats, log)
}

// seated is a joiner that took a seat.
type seated struct {
	s     Stream
	name  string
	nonce string
	once  sync.Once
}

func (j *seated) close() { j.once.Do(func() { _ = j.s.Close() }) }

// readJoin reads one stream's join frame and hands it to the gatherer, or
// turns the stream away if the table filled up meanwhile.
func readJoin(ctx context.Context, s Stream, reqs chan<- joinReq, full <-chan struct{}) {
	rctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	f, err := recvGroup(rctx, s, tJoin)
	select {
	case reqs <- joinReq{s: s, f: f, err: err}:
	case <-full:
		if err == nil {
			_ = send(rctx, s, frame{T: tDecline, Reason: "the table is full"})
		}
		_ = s.Close()
	}
}

// gather reads join frames until the table is full.
func gather[S Stream](ctx context.Context, cfg GroupHostConfig, joiners <-chan S, me peer.ID, log *slog.Logger) ([]*seated, error) {
	full := make(chan struct{})
	defer close(full)
	reqs := make(chan joinReq)
	var out []*seated
	taken := map[peer.ID]bool{me: true}
	fail := func(err error) ([]*seated, error) {
		declineAll(ctx, out, "the host stopped gathering players")
		return nil, err
	}
	for len(out) < cfg.Players-1 {
		select {
		case s, ok := <-joiners:
			if !ok {
				return fail(errors.New("host group: no more incoming streams"))
			}
			go readJoin(ctx, s, reqs, full)
		case r := <-reqs:
			reason := ""
			switch {
			case r.err != nil:
				log.Debug("join failed", "peer", r.s.Remote(), "err", r.err)
				_ = r.s.Close()
				continue
			case r.f.Version != Version:
				reason = fmt.Sprintf("protocol %q, this peer speaks %q", r.f.Version, Version)
			case untrusted.ValidateName(r.f.Name) != nil:
				reason = "your name: " + untrusted.ValidateName(r.f.Name).Error()
			case !fairness.ValidNonce(r.f.Nonce): // here, so that one bad joiner cannot break the table up
				reason = "the nonce must be 32 hex digits"
			case taken[r.s.Remote()]:
				reason = "this peer already has a seat"
			case fairness.CheckPeerKey(r.s.Remote()) != nil: // else the header's check would break the table up
				reason = "your peer key: " + fairness.CheckPeerKey(r.s.Remote()).Error()
			}
			if reason != "" {
				_ = send(ctx, r.s, frame{T: tDecline, Reason: reason})
				_ = r.s.Close()
				continue
			}
			taken[r.s.Remote()] = true
			out = append(out, &seated{s: r.s, name: r.f.Name, nonce: r.f.Nonce})
			if cfg.Seated != nil {
				cfg.Seated(engine.Seat(len(out)), r.s.Remote(), r.f.Name)
			}
		case <-ctx.Done():
			return fail(fmt.Errorf("host group: gathering players: %w", ctx.Err()))
		}
	}
	return out, nil
}

// declineAll tells every seated joiner the table broke up, and closes
// their streams.
func declineAll(ctx context.Context, joiners []*seated, reason string) {
	each(joiners, func(_ int, j *seated) error {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		_ = send(dctx, j.s, frame{T: tDecline, Reason: reason})
		j.close()
		return nil
	})
}

// each runs f for every joiner at once and returns their errors, in seat
// order.
func each(joiners []*seated, f func(i int, j *seated) error) []error {
	errs := make([]error, len(joiners))
	var wg sync.WaitGroup
	for i, j := range joiners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i, j)
		}()
	}
	wg.Wait()
	return errs
}

// firstFailure returns the first joiner error, naming its seat.
func firstFailure(joiners []*seated, errs []error) (engine.Seat, error) {
	for i, err := range errs {
		if err != nil {
			return engine.Seat(i + 1), fmt.Errorf("seat %d (%s, %s): %w", i+1, joiners[i].name, joiners[i].s.Remote(), err)
		}
	}
	return engine.NoSeat, nil
}

// addrsOf lists the addresses the host knows for p, once identify has
// told it where a joiner listens (IdentifyWait at most).
func addrsOf(ctx context.Context, r *group.Router, p peer.ID) []string {
	ctx, cancel := context.WithTimeout(ctx, IdentifyWait)
	defer cancel()
	as := r.Addrs(ctx, p)
	out := make([]string, 0, min(len(as), maxAddrs))
	for _, a := range as[:min(len(as), maxAddrs)] {
		out = append(out, a.String())
	}
	return out
}

// offerTable builds the header, offers it to every joiner, and brings the
// table onto the match topic.
func offerTable(ctx context.Context, cfg GroupHostConfig, entry games.Entry, me peer.ID, joiners []*seated, log *slog.Logger) (*GroupMatch, error) {
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout+ReadyTimeout+2*time.Second)
	defer cancel()
	nonce, err := fairness.NewNonce()
	if err != nil {
		declineAll(ctx, joiners, "the host could not draw a nonce")
		return nil, err
	}
	players := []fairness.Player{{Peer: me.String(), Name: cfg.Self.Name, Nonce: nonce}}
	ids := []peer.ID{me}
	for _, j := range joiners {
		players = append(players, fairness.Player{Peer: j.s.Remote().String(), Name: j.name, Nonce: j.nonce})
		ids = append(ids, j.s.Remote())
	}
	h, err := cfg.Offer.header(entry.Spec, players)
	if err == nil {
		_, err = fairness.NewMatch(entry.Spec, h)
	}
	if err != nil {
		declineAll(ctx, joiners, err.Error())
		return nil, fmt.Errorf("host group: %w", err)
	}
	h.Created = time.Now().UTC().Format(time.RFC3339)
	peers := make([]PeerAddrs, len(ids))
	for i, p := range ids {
		peers[i] = PeerAddrs{Peer: p.String(), Addrs: addrsOf(ctx, cfg.Router, p)}
	}
	topic, err := cfg.Router.Join(h.Match, ids)
	if err != nil {
		declineAll(ctx, joiners, "the host could not join the match topic")
		return nil, fmt.Errorf("host group: %w", err)
	}
	breakUp := func(reason string, err error) (*GroupMatch, error) {
		declineAll(ctx, joiners, reason)
		_ = topic.Close()
		return nil, fmt.Errorf("host group: %w", err)
	}
	errs := each(joiners, func(_ int, j *seated) error {
		if err := send(ctx, j.s, frame{T: tOffer, Header: &h, Peers: peers}); err != nil {
			return err
		}
		a, err := recvGroup(ctx, j.s, tAccept)
		if err != nil {
			return err
		}
		if a.Match != h.Match {
			return fmt.Errorf("accepted match %.16s…, offered %.16s…", a.Match, h.Match)
		}
		return nil
	})
	if seat, err := firstFailure(joiners, errs); err != nil {
		return breakUp(fmt.Sprintf("seat %d did not accept the match", seat), err)
	}
	// The joiners' own wait is ReadyTimeout: give their decline, which
	// names who they cannot see, time to arrive.
	rctx, rcancel := context.WithTimeout(ctx, ReadyTimeout+2*time.Second)
	defer rcancel()
	var ownErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ownErr = topic.WaitPeers(rctx)
	}()
	errs = each(joiners, func(_ int, j *seated) error {
		r, err := recvGroup(rctx, j.s, tReady)
		if err == nil && r.Match != h.Match {
			err = fmt.Errorf("ready for match %.16s…", r.Match)
		}
		return err
	})
	wg.Wait()
	if seat, err := firstFailure(joiners, errs); err != nil {
		return breakUp(fmt.Sprintf("seat %d never saw every player on the match topic", seat), err)
	}
	if ownErr != nil {
		return breakUp("the host does not see every player on the match topic", ownErr)
	}
	errs = each(joiners, func(_ int, j *seated) error {
		defer j.close()
		return send(ctx, j.s, frame{T: tStart, Match: h.Match})
	})
	if seat, err := firstFailure(joiners, errs); err != nil {
		// The others may already be playing; the missing seat will forfeit
		// by timeout if it never got the start.
		log.Warn("start not delivered", "seat", seat, "err", err)
	}
	return &GroupMatch{Header: h, Seat: 0, Entry: entry, Topic: topic}, nil
}

// JoinGroup runs a joiner's side of the group handshake on a match stream
// it opened to the host: it sends its join frame, checks the offer (it must
// seat this peer with its nonce, the host at seat 0, and list every
// player's addresses), lets accept refuse it, dials the other joiners,
// joins the match topic and waits for the host's start.
func JoinGroup(ctx context.Context, r *group.Router, s Stream, self Self, accept func(fairness.Header) error) (*GroupMatch, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*HandshakeTimeout+ReadyTimeout)
	defer cancel()
	defer s.Close()
	me, err := peer.IDFromPrivateKey(self.Key)
	if err != nil || me != r.ID() {
		return nil, fmt.Errorf("join group: the key is not the router's host identity")
	}
	nonce, err := fairness.NewNonce()
	if err != nil {
		return nil, err
	}
	if err := send(ctx, s, frame{T: tJoin, Version: Version, Name: self.Name, Nonce: nonce}); err != nil {
		return nil, fmt.Errorf("join group: %w", err)
	}
	octx, ocancel := context.WithTimeout(ctx, 2*HandshakeTimeout)
	o, err := recvGroup(octx, s, tOffer)
	ocancel()
	if err != nil {
		return nil, fmt.Errorf("join group: %w", err)
	}
	decline := func(err error) (*GroupMatch, error) {
		_ = send(ctx, s, frame{T: tDecline, Reason: err.Error()})
		return nil, fmt.Errorf("join group: %w", err)
	}
	h := *o.Header
	seat, ids, err := checkOffer(h, o.Peers, me, nonce, s.Remote())
	if err == nil {
		err = CheckNames(h)
	}
	if err != nil {
		return decline(err)
	}
	entry, ok := games.Lookup(h.Game)
	if !ok {
		return decline(fmt.Errorf("unknown game %q", h.Game))
	}
	if _, err := fairness.NewMatch(entry.Spec, h); err != nil {
		return decline(err)
	}
	if accept != nil {
		if err := accept(h); err != nil {
			return decline(err)
		}
	}
	dialOthers(ctx, r, o.Peers, seat, nil)
	topic, err := r.Join(h.Match, ids)
	if err != nil {
		return decline(err)
	}
	fail := func(err error) (*GroupMatch, error) {
		_ = topic.Close()
		return nil, fmt.Errorf("join group: %w", err)
	}
	if err := send(ctx, s, frame{T: tAccept, Match: h.Match}); err != nil {
		return fail(err)
	}
	// Wait to see every player on the topic, while listening to the host:
	// if the table breaks up meanwhile, its decline comes now.
	type answer struct {
		f   frame
		err error
	}
	fromHost := make(chan answer, 1)
	go func() {
		f, err := recvGroup(ctx, s, tStart)
		fromHost <- answer{f, err}
	}()
	rctx, rcancel := context.WithTimeout(ctx, ReadyTimeout)
	waited := make(chan error, 1)
	go func() { waited <- waitTable(rctx, r, topic, o.Peers, seat) }()
	var st answer
	select {
	case err = <-waited:
	case st = <-fromHost:
		rcancel()
		<-waited
		if st.err != nil {
			return fail(st.err)
		}
		return fail(errors.New("the host started before this peer was ready"))
	}
	rcancel()
	if err != nil {
		_ = send(ctx, s, frame{T: tDecline, Reason: err.Error()})
		return fail(err)
	}
	if err := send(ctx, s, frame{T: tReady, Match: h.Match}); err != nil {
		return fail(err)
	}
	st = <-fromHost
	if st.err != nil {
		return fail(st.err)
	}
	if st.f.Match != h.Match {
		return fail(fmt.Errorf("start of match %.16s…, agreed %.16s…", st.f.Match, h.Match))
	}
	return &GroupMatch{Header: h, Seat: seat, Entry: entry, Topic: topic}, nil
}

// checkOffer checks that an offer seats this peer (with its own nonce) and
// the host at seat 0, and lists every player's addresses in seat order. It
// returns this peer's seat and the players' IDs.
func checkOffer(h fairness.Header, peers []PeerAddrs, me peer.ID, nonce string, host peer.ID) (engine.Seat, []peer.ID, error) {
	if len(h.Players) < 2 || len(peers) != len(h.Players) {
		return engine.NoSeat, nil, fmt.Errorf("the offer seats %d players and lists %d players' addresses", len(h.Players), len(peers))
	}
	if h.Players[0].Peer != host.String() {
		return engine.NoSeat, nil, errors.New("the offer does not seat the host at seat 0")
	}
	seat := engine.NoSeat
	ids := make([]peer.ID, len(h.Players))
	for i, p := range h.Players {
		id, err := peer.Decode(p.Peer)
		if err != nil {
			return engine.NoSeat, nil, fmt.Errorf("seat %d: bad peer ID: %w", i, err)
		}
		ids[i] = id
		if peers[i].Peer != p.Peer {
			return engine.NoSeat, nil, fmt.Errorf("seat %d: the addresses listed are another peer's", i)
		}
		if id == me {
			if seat != engine.NoSeat {
				return engine.NoSeat, nil, errors.New("the offer seats this peer twice")
			}
			seat = engine.Seat(i)
		}
	}
	if seat <= 0 {
		return engine.NoSeat, nil, errors.New("the offer does not seat this peer as a joiner")
	}
	if h.Players[seat].Nonce != nonce {
		return engine.NoSeat, nil, errors.New("the offer does not carry this peer's nonce")
	}
	return seat, ids, nil
}

// redialEvery is how often a joiner that does not yet see every player on
// the topic dials again those it is not connected to.
const redialEvery = time.Second

// waitTable waits until this joiner sees every other player on the topic,
// dialling again, every redialEvery, the joiners it is not connected to (a
// dial may fail while the other side is busy; it may also dial us).
func waitTable(ctx context.Context, r *group.Router, topic *group.Topic, peers []PeerAddrs, seat engine.Seat) error {
	for {
		wctx, cancel := context.WithTimeout(ctx, redialEvery)
		err := topic.WaitPeers(wctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return topic.WaitPeers(ctx) // nil, or the final error naming who is missing
		}
		seen := map[string]bool{}
		for _, p := range topic.Peers() {
			seen[p.String()] = true
		}
		dialOthers(ctx, r, peers, seat, func(p peer.ID) bool {
			return !seen[p.String()] && r.Host().Network().Connectedness(p) != network.Connected
		})
	}
}

// dialOthers connects to every other joiner (that want accepts, if set),
// at once and best effort: one that cannot be dialled may dial this peer
// instead, and WaitPeers says in the end who cannot be seen.
func dialOthers(ctx context.Context, r *group.Router, peers []PeerAddrs, seat engine.Seat, want func(peer.ID) bool) {
	var wg sync.WaitGroup
	for i := 1; i < len(peers); i++ {
		if engine.Seat(i) == seat {
			continue
		}
		id, err := peer.Decode(peers[i].Peer)
		if err != nil || (want != nil && !want(id)) {
			continue
		}
		var addrs []ma.Multiaddr
		for _, a := range peers[i].Addrs {
			if m, err := ma.NewMultiaddr(a); err == nil {
				addrs = append(addrs, m)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			dctx, cancel := context.WithTimeout(ctx, DialTimeout)
			defer cancel()
			_ = r.Connect(dctx, id, addrs)
		}()
	}
	wg.Wait()
}
