package session

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// When a table's player asks the others for what it missed (the asking
// side of the fetch protocol, group_fetch.go). It asks only while the
// match waits for another seat (at its own turn it holds everything), and
// then:
//   - at once when a player that was away is back (its link, or this
//     peer's, came back: what was sent meanwhile is lost for gossip);
//   - when a message numbered past a gap arrived and the gap is still
//     open FetchGap later;
//   - when nothing new came for FetchIdle, then twice as long after each
//     round that brought nothing, up to FetchIdleMax (a seat that thinks
//     for ten minutes costs a few small requests).
const (
	FetchPoll    = 100 * time.Millisecond
	FetchGap     = 300 * time.Millisecond
	FetchIdle    = 2 * time.Second
	FetchIdleMax = 30 * time.Second
)

// errFetchAnswer is wrapped by every fault of a responder's answer.
var errFetchAnswer = errors.New("bad fetch answer")

// catchUp is the topic as the referee's transport, plus the asking side
// of the fetch protocol: envelopes it takes back from other players go to
// the topic's queue (group.Topic.Deliver) as if gossip had brought them,
// in order, each under its signer's name.
type catchUp struct {
	fairness.GroupTransport
	m       *GroupMatch
	h       host.Host
	deliver func(frame []byte, author peer.ID) bool
	away    func() map[engine.Seat]time.Time // the other seats gone now (GroupMatch.Away)
	keys    map[string]crypto.PubKey         // every player's key, by peer ID
	log     *slog.Logger

	have    atomic.Uint64 // the last message accepted or sent here
	seen    atomic.Uint64 // the highest number of a frame from the topic
	waiting atomic.Bool   // the match waits for another seat
	fetched atomic.Int64  // envelopes taken back and delivered
	rounds  atomic.Int64  // rounds of asking
}

func newCatchUp(t fairness.GroupTransport, m *GroupMatch, log *slog.Logger) (*catchUp, error) {
	c := &catchUp{GroupTransport: t, m: m, h: m.Topic.Host(), deliver: m.Topic.Deliver, away: m.Away, keys: map[string]crypto.PubKey{}, log: log}
	for _, p := range m.Header.Players {
		id, err := peer.Decode(p.Peer)
		if err != nil {
			return nil, fmt.Errorf("session: player %q: %w", p.Peer, err)
		}
		if c.keys[p.Peer], err = id.ExtractPublicKey(); err != nil {
			return nil, fmt.Errorf("session: player %q: %w", p.Peer, err)
		}
	}
	return c, nil
}

// RecvFrom is the topic's, noting the highest message number seen.
func (c *catchUp) RecvFrom(ctx context.Context) ([]byte, string, error) {
	b, from, err := c.GroupTransport.RecvFrom(ctx)
	if err == nil {
		if seq, ok := headSeq(b); ok && seq > c.seen.Load() {
			c.seen.Store(seq)
		}
	}
	return b, from, err
}

// observe follows the referee's notes: how far the match is here, and
// whether it waits for another seat.
func (c *catchUp) observe(n fairness.Note) {
	if (n.Dir == fairness.DirIn || n.Dir == fairness.DirOut) && n.Seq > c.have.Load() {
		c.have.Store(n.Seq)
	}
	c.waiting.Store(n.Dir == fairness.DirWait && n.Wait != c.m.Seat)
}

// run asks the others for missed envelopes when due (see the top of the
// file), until ctx ends.
func (c *catchUp) run(ctx context.Context) {
	tick := time.NewTicker(FetchPoll)
	defer tick.Stop()
	idle, last, lastHave := FetchIdle, time.Now(), c.have.Load()
	if c.m.eager {
		last = time.Time{}
	}
	away := c.away()
	var gapSince time.Time
	var gapAsked uint64 // the highest number seen when a gap was last asked about
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		have := c.have.Load()
		if have != lastHave {
			lastHave, last, idle = have, time.Now(), FetchIdle
		}
		now := c.away()
		back := false
		for s := range away {
			if _, still := now[s]; !still {
				back = true
			}
		}
		away = now
		// A gap counts once per new highest number seen: a player that
		// publishes a validly signed message numbered far ahead cannot make
		// this peer ask every FetchGap.
		seen := c.seen.Load()
		gap := seen > have+1 && seen > gapAsked
		switch {
		case !gap:
			gapSince = time.Time{}
		case gapSince.IsZero():
			gapSince = time.Now()
		}
		if !c.waiting.Load() {
			continue
		}
		if !back && (!gap || time.Since(gapSince) < FetchGap) && time.Since(last) < idle {
			continue
		}
		if gap {
			gapAsked = seen
		}
		got := c.takeBack(ctx, have+1)
		last = time.Now()
		switch {
		case got > 0:
			idle = FetchIdle
		case !back && !gap:
			idle = min(2*idle, FetchIdleMax)
		}
	}
}

// takeBack asks for the envelopes from from on, and again after each full
// answer (a player further behind than MaxFetchBatch), up to maxFetchRun
// answers in a row; it returns how many it delivered.
func (c *catchUp) takeBack(ctx context.Context, from uint64) int {
	total := 0
	for range maxFetchRun {
		got := c.round(ctx, from)
		total += got
		if got < MaxFetchBatch || ctx.Err() != nil {
			break
		}
		from += uint64(got)
	}
	return total
}

// maxFetchRun bounds the answers one catch-up takes in a row (the
// responders' rate limit would refuse more anyway).
const maxFetchRun = FetchBurst

// round asks the other players one after the other (those not away
// first) for the envelopes from from on, until one gives some; it returns
// how many it delivered. A responder that answers falsely, stalls or
// withholds costs one exchange: the next player is asked.
func (c *catchUp) round(ctx context.Context, from uint64) int {
	c.rounds.Add(1)
	away := c.away()
	var first, later []peer.ID
	for s, p := range c.m.Header.Players {
		if engine.Seat(s) == c.m.Seat {
			continue
		}
		id, _ := peer.Decode(p.Peer)
		if _, gone := away[engine.Seat(s)]; gone {
			later = append(later, id)
		} else {
			first = append(first, id)
		}
	}
	for _, p := range later {
		c.dropDeadLink(p)
	}
	for _, p := range append(first, later...) {
		envs, err := c.ask(ctx, p, from)
		n := 0
		for _, e := range envs {
			if c.deliver(e.frame, e.signer) {
				n++
			}
		}
		c.fetched.Add(int64(n))
		if err != nil {
			c.log.Debug("fetch: asking a player failed", "peer", p2p.ShortID(p), "from", from, "got", n, "err", err)
		}
		if n > 0 {
			c.log.Info("fetch: missed messages taken back", "peer", p2p.ShortID(p), "from", from, "count", n)
			return n
		}
		if ctx.Err() != nil {
			return 0
		}
	}
	return 0
}

// dropDeadLink closes the connections to a player that is away while
// this peer still holds one: a link that died without a word (a cut, no
// reset) keeps its connection open, and every stream opened on it, the
// fetch's too, waits for TCP's retransmission timer, which after a
// 30-second outage fires up to half a minute after the link is back. A
// fresh connection (the topic dials the player again) is there within
// group.RedialMax; nothing queued on the old one is lost for good, since
// it is fetched again.
func (c *catchUp) dropDeadLink(p peer.ID) {
	if c.h.Network().Connectedness(p) != network.Connected {
		return
	}
	c.log.Info("fetch: dropping the dead connection to an away player", "peer", p2p.ShortID(p))
	_ = c.h.Network().ClosePeer(p)
}

// fetched is one envelope taken back: its bytes and its signer.
type fetched struct {
	frame  []byte
	signer peer.ID
}

// ask asks p for the envelopes from from on and checks the answer. It
// returns the envelopes that passed every check, in order, even when a
// later frame fails (those are signed and chained: true whoever sent
// them).
func (c *catchUp) ask(ctx context.Context, p peer.ID, from uint64) ([]fetched, error) {
	ctx, cancel := context.WithTimeout(ctx, FetchTimeout)
	defer cancel()
	st, err := c.h.NewStream(network.WithAllowLimitedConn(ctx, string(FetchProtocol)), p, FetchProtocol)
	if err != nil {
		return nil, fmt.Errorf("session: fetch: %w", err)
	}
	defer st.Close()
	deadline, _ := ctx.Deadline()
	_ = st.SetDeadline(deadline)
	req := fetchFrame{T: tFetch, Match: c.m.Header.Match, From: from, To: from + MaxFetchBatch - 1}
	if err := writeFetchFrame(st, req); err != nil {
		_ = st.Reset()
		return nil, fmt.Errorf("session: fetch: %w", err)
	}
	_ = st.CloseWrite()
	out, err := c.readAnswer(st, req)
	if err != nil {
		_ = st.Reset()
	}
	return out, err
}

// readAnswer reads and checks a responder's answer to req: at most
// MaxFetchBatch envelopes and MaxFetchBytes bytes, each of this match,
// signed by the player it names, numbered from req.From on without a
// gap or a step back, each chained to the one before it, then the done
// frame, whose last number may not be below what was sent. A responder
// that holds messages from req.From on must send the first.
func (c *catchUp) readAnswer(r io.Reader, req fetchFrame) ([]fetched, error) {
	var out []fetched
	var prev *fairness.Envelope
	size := 0
	chain := map[string]bool{} // what a later envelope of the range may follow
	bad := func(format string, a ...any) ([]fetched, error) {
		return out, fmt.Errorf("session: fetch: %w: %s", errFetchAnswer, fmt.Sprintf(format, a...))
	}
	for {
		b, err := p2p.ReadFrame(r, fairness.MaxEnvelope)
		if err != nil {
			return bad("%v", err)
		}
		if bytes.HasPrefix(b, controlPrefix) {
			f, err := decodeFetchFrame(b)
			switch {
			case err != nil:
				return bad("%v", err)
			case f.T == tDecline:
				return bad("declined: %q", f.Reason)
			case f.T != tDone:
				return bad("a %q frame", f.T)
			case prev != nil && f.Seq < prev.Seq:
				return bad("says it holds up to message %d after sending %d", f.Seq, prev.Seq)
			case prev == nil && f.Seq >= req.From:
				return bad("holds up to message %d but sent none from %d", f.Seq, req.From)
			}
			return out, nil
		}
		if size += len(b); len(out) >= MaxFetchBatch || size > MaxFetchBytes {
			return bad("more than %d envelopes or %d bytes", MaxFetchBatch, MaxFetchBytes)
		}
		e, err := c.check(b, req, prev, chain)
		if err != nil {
			return bad("%v", err)
		}
		if prev == nil {
			chain[e.Prev] = true
		}
		chain[hexHash(e)] = true
		signer, _ := peer.Decode(e.From)
		out = append(out, fetched{frame: b, signer: signer})
		prev = e
	}
}

// check takes one fetched envelope only where a live one could stand:
// this match, a player's valid signature, the next number of the range
// and, after the first, chained to the one before it or, as a member of a
// parallel group may be (fairness/parallel.go), to an earlier one of the
// range or the one the range's first follows (chain): the referee checks
// that it is a member's place.
func (c *catchUp) check(b []byte, req fetchFrame, prev *fairness.Envelope, chain map[string]bool) (*fairness.Envelope, error) {
	e, err := fairness.DecodeEnvelope(b)
	if err != nil {
		return nil, err
	}
	want := req.From
	if prev != nil {
		want = prev.Seq + 1
	}
	switch key, player := c.keys[e.From]; {
	case e.Match != req.Match:
		return nil, fmt.Errorf("an envelope of match %.12s…", e.Match)
	case e.Seq != want || e.Seq > req.To:
		return nil, fmt.Errorf("message %d where %d was due", e.Seq, want)
	case !player:
		return nil, fmt.Errorf("message %d names %q, no player", e.Seq, e.From)
	case prev != nil && !chain[e.Prev]:
		return nil, fmt.Errorf("message %d does not follow message %d", e.Seq, prev.Seq)
	default:
		if err := e.Verify(key); err != nil {
			return nil, fmt.Errorf("message %d: %w", e.Seq, err)
		}
	}
	return e, nil
}

// hexHash is an envelope's ID as the next one's Prev spells it.
func hexHash(e *fairness.Envelope) string {
	d := e.Hash()
	return hex.EncodeToString(d[:])
}
