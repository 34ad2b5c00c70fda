package watch

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p"
)

// Config says how a spectator watches.
type Config struct {
	Host  host.Host
	Specs fairness.Specs
	// Match is the match to watch; "" takes the one the first peer serves.
	Match string
	// Observe, if set, is called after each line is verified, with the
	// live audit holding it (read it before returning).
	Observe func(*fairness.LiveAudit)
	// Idle is how long a source may send nothing before the spectator asks
	// another; 0 means DefaultIdle. Players may think that long.
	Idle time.Duration
	// Linger is how long the spectator keeps passing the record on to
	// other spectators after it ended; 0 means Linger.
	Linger time.Duration
	// Record, if set, receives the verified lines (a new one otherwise):
	// what `salvo watch --save` writes, and what tests compare with the
	// players' transcripts.
	Record *Record
	// Wait is how long to keep asking while no peer has the match yet (a
	// host still waiting for its players), every half second; 0 asks once.
	Wait time.Duration
	Log  *slog.Logger
}

// DefaultIdle is Config.Idle's default.
const DefaultIdle = 5 * time.Minute

// maxSources bounds the peers one watch asks, busy answers included.
const maxSources = 32

// Stopped is a spectator's end at a line that failed a check: the line,
// what it claims, what failed, and the peer it came from, which may be a
// relaying spectator rather than the player the line names.
type Stopped struct {
	*fairness.BadLine
	From peer.ID
}

func (s *Stopped) Error() string {
	return fmt.Sprintf("stopped at %v; it came from %s", s.BadLine, s.From)
}

func (s *Stopped) Unwrap() error { return s.BadLine }

// ErrNotWatchable is returned when the match's host did not open it to
// spectators; ErrNoMatch when no peer asked had the match (a host still
// waiting for its players, say).
var (
	ErrNotWatchable = errors.New("watch: refused")
	ErrNoMatch      = errors.New("watch: no match")
)

// spectator is one watch in progress.
type spectator struct {
	cfg     Config
	log     *slog.Logger
	la      *fairness.LiveAudit
	rec     *Record
	release func()
	match   string
	queue   []peer.AddrInfo
	asked   map[peer.ID]bool
	tries   int
	busy    []peer.AddrInfo // the sources that sent this spectator on
	direct  bool            // asking the busy ones again
	refused error           // the last decline
}

// Watch follows a match from the peer first; see watchOnce. While no
// peer has the match yet it asks again, cfg.Wait long.
func Watch(ctx context.Context, first peer.AddrInfo, cfg Config) (*fairness.Report, error) {
	deadline := time.Now().Add(cfg.Wait)
	for {
		rep, err := watchOnce(ctx, first, cfg)
		if rep != nil || !errors.Is(err, ErrNoMatch) || !time.Now().Before(deadline) {
			return rep, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(retryEvery):
		}
	}
}

// retryEvery is how often Watch asks again for a match not started yet.
const retryEvery = 500 * time.Millisecond

// watchOnce follows a match from the peer first (a player, or a spectator)
// and the peers a busy one sends it on to: it checks every line as it
// arrives (fairness.LiveAudit) and passes on what it verified to other
// spectators while it watches and cfg.Linger after. It returns the audit
// of the record when the match ended (or no peer had more of it); a
// *Stopped error at the first line that fails a check; ErrNotWatchable
// when the match is closed to spectators.
func watchOnce(ctx context.Context, first peer.AddrInfo, cfg Config) (*fairness.Report, error) {
	sp := &spectator{cfg: cfg, log: cfg.Log, rec: cfg.Record, match: cfg.Match, asked: map[peer.ID]bool{}}
	if sp.rec == nil {
		sp.rec = NewRecord()
	}
	if sp.log == nil {
		sp.log = slog.New(slog.DiscardHandler)
	}
	if sp.cfg.Idle <= 0 {
		sp.cfg.Idle = DefaultIdle
	}
	if sp.cfg.Linger <= 0 {
		sp.cfg.Linger = Linger
	}
	defer func() {
		if sp.la != nil { // a watch that took nothing leaves the record open, for the next
			sp.rec.End()
		}
		if sp.release != nil {
			sp.release()
		}
	}()
	sp.queue = append(sp.queue, first)
	for range 2 {
		for len(sp.queue) > 0 && sp.tries < maxSources {
			src := sp.queue[0]
			sp.queue = sp.queue[1:]
			if sp.asked[src.ID] || src.ID == cfg.Host.ID() {
				continue
			}
			if done, err := sp.try(ctx, src); done {
				return sp.report(), err
			}
		}
		// Every peer the busy ones named failed or had no more: ask the
		// busy ones again, directly.
		sp.queue, sp.busy, sp.direct, sp.asked = sp.busy, nil, true, map[peer.ID]bool{}
	}
	if sp.la == nil {
		if sp.refused != nil {
			return nil, sp.refused
		}
		return nil, fmt.Errorf("%w: no peer served it (%d asked)", ErrNoMatch, sp.tries)
	}
	return sp.report(), nil
}

// try takes the record from src; done when the watch is over (the match
// ended, a line failed, ctx ended).
func (sp *spectator) try(ctx context.Context, src peer.AddrInfo) (bool, error) {
	sp.asked[src.ID] = true
	sp.tries++
	err := sp.from(ctx, src)
	var stop *Stopped
	switch {
	case errors.As(err, &stop):
		return true, err
	case ctx.Err() != nil:
		return true, ctx.Err()
	case sp.la != nil && sp.la.Ended():
		return true, nil
	case err != nil:
		sp.log.Debug("watch source failed", "peer", p2p.ShortID(src.ID), "err", err)
	}
	return false, nil
}

func (sp *spectator) report() *fairness.Report {
	if sp.la == nil {
		return nil
	}
	return sp.la.Report()
}

// from takes the record from one source, from the line after the last
// verified, until it ends, fails or sends the spectator on.
func (sp *spectator) from(ctx context.Context, src peer.AddrInfo) error {
	st, err := sp.open(ctx, src)
	if err != nil {
		return err
	}
	defer st.Reset()
	next := 1
	if sp.la != nil {
		next = sp.la.Lines() + 1
	}
	if err := writeFrame(st, frame{T: tWatch, Match: sp.match, From: next, Direct: sp.direct}); err != nil {
		return err
	}
	_ = st.SetReadDeadline(time.Now().Add(RequestTimeout))
	b, err := p2p.ReadFrame(st, p2p.MaxFirstFrame+MaxPeers*MaxAddrs*128)
	if err != nil {
		return err
	}
	f, err := decodeFrame(b)
	if err != nil {
		return err
	}
	switch {
	case f.T == tBusy:
		sp.sentOn(f)
		sp.busy = append(sp.busy, src)
		return nil
	case f.T == tDecline:
		why := ErrNotWatchable
		if f.Reason == reasonNoMatch {
			why = ErrNoMatch
		}
		sp.refused = fmt.Errorf("%w by %s: %s", why, src.ID, untrusted.Escape(f.Reason))
		return sp.refused
	case f.T != tOK || (sp.match != "" && f.Match != sp.match):
		return fmt.Errorf("watch: answer %q for match %.16s…", untrusted.Escape(f.T), f.Match)
	}
	sp.match = f.Match
	return sp.lines(st, src.ID)
}

// open connects to src (its addresses, when it has any) and opens a watch
// stream, within RequestTimeout: a busy answer may name a peer that never
// answers.
func (sp *spectator) open(ctx context.Context, src peer.AddrInfo) (network.Stream, error) {
	ctx, cancel := context.WithTimeout(ctx, RequestTimeout)
	defer cancel()
	h := sp.cfg.Host
	if len(src.Addrs) > 0 {
		if err := h.Connect(ctx, src); err != nil {
			return nil, err
		}
	}
	return h.NewStream(network.WithAllowLimitedConn(ctx, "salvo-watch"), src.ID, Protocol)
}

// sentOn queues the peers of a busy answer.
func (sp *spectator) sentOn(f frame) {
	if sp.match == "" {
		sp.match = f.Match
	}
	for _, p := range f.Peers {
		if ai, ok := p.addrInfo(); ok && !sp.asked[ai.ID] {
			sp.queue = append(sp.queue, ai)
		}
	}
}

// queuePlayers adds the match's players to the sources, behind those
// queued: if a source ends before the match does, another player may have
// more.
func (sp *spectator) queuePlayers(hd fairness.Header) {
	for _, p := range hd.Players {
		if id, err := peer.Decode(p.Peer); err == nil && !sp.asked[id] {
			sp.queue = append(sp.queue, peer.AddrInfo{ID: id, Addrs: sp.cfg.Host.Peerstore().Addrs(id)})
		}
	}
}

// lines reads the record's lines from st and checks each.
func (sp *spectator) lines(st network.Stream, from peer.ID) error {
	for {
		_ = st.SetReadDeadline(time.Now().Add(sp.cfg.Idle))
		b, err := p2p.ReadFrame(st, fairness.MaxLine())
		if err != nil {
			return err
		}
		if isControl(b) {
			f, err := decodeFrame(b)
			if err != nil {
				return err
			}
			if f.T != tEnd {
				return fmt.Errorf("watch: unexpected %q mid-record", untrusted.Escape(f.T))
			}
			return nil // complete here; Watch asks another source if the audit is not
		}
		if err := sp.take(b, from); err != nil {
			return err
		}
		if sp.la.Ended() {
			return nil
		}
	}
}

// take verifies one line, then keeps it for the spectators this one
// serves and shows it.
func (sp *spectator) take(b []byte, from peer.ID) error {
	if sp.la == nil {
		la, err := fairness.NewLiveAudit(b, sp.cfg.Specs)
		if err == nil && la.Header().Match != sp.match {
			err = fmt.Errorf("the header is of match %.16s…, not %.16s…", la.Header().Match, sp.match)
		}
		if err == nil && !la.Header().Watch {
			err = errors.New("the header does not open the match to spectators")
		}
		if err != nil {
			return &Stopped{BadLine: &fairness.BadLine{Line: 1, Sender: "the header", Reason: err.Error()}, From: from}
		}
		sp.la = la
		sp.release = Serve(sp.cfg.Host, la.Header(), sp.rec, sp.cfg.Linger, sp.log)
		sp.queuePlayers(la.Header())
	} else if err := sp.la.Add(b); err != nil {
		var bad *fairness.BadLine
		if errors.As(err, &bad) {
			return &Stopped{BadLine: bad, From: from}
		}
		return err
	}
	if sp.la.Lines() > MaxRecordLines {
		return &Stopped{BadLine: &fairness.BadLine{Line: sp.la.Lines(), Sender: "the record", Reason: "longer than any match"}, From: from}
	}
	sp.rec.Append(b)
	if sp.cfg.Observe != nil {
		sp.cfg.Observe(sp.la)
	}
	return nil
}
