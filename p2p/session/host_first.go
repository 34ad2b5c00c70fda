package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/fairness/untrusted"
	"github.com/salvo-game/salvo/p2p"
)

// ErrNoJoiner means HostFirst's stream channel closed before any joiner
// agreed a match.
var ErrNoJoiner = errors.New("no more incoming streams")

// Bounds of HostFirst's handshakes running at once (a joiner that sent a
// valid join frame and then stalls holds one for up to HandshakeTimeout).
const (
	// HandshakesPerPeer is how many one peer may run; an honest joiner
	// runs one.
	HandshakesPerPeer = 2
	// HandshakesTotal is how many all peers together may run; past it, a
	// new one cuts off the oldest of the peer running the most.
	HandshakesTotal = 64
)

// HostFirstConfig says what HostFirst offers and whom it tells.
type HostFirstConfig struct {
	Self  Self
	Offer Offer
	// TurnedAway, if set, is told of each joiner turned away and why (on
	// HostFirst's goroutine: it must not block).
	TurnedAway func(p peer.ID, err error)
	Logger     *slog.Logger
}

// hosted is how one joiner's handshake ended.
type hosted struct {
	s   Stream
	m   *Match
	err error
}

// HostFirst runs the host's side of the handshake (Host) with every stream
// that arrives on joiners, all at once, and returns the first match agreed.
// A joiner that sends a bad or oversized frame, stalls, declines or leaves
// is turned away (its stream closed, the reason logged) and the host goes
// on waiting: one hostile or broken joiner never ends a host that waits for
// an honest one, nor holds it up while another joins. Handshakes still
// running when one succeeds, or when ctx ends, are cut off and their
// streams closed. At most HandshakesPerPeer run for one peer and
// HandshakesTotal in all (a newcomer then cuts off the oldest of the peer
// running the most), so stalling joiners never wedge the host.
func HostFirst[S Stream](ctx context.Context, joiners <-chan S, cfg HostFirstConfig) (*Match, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	self, offer := cfg.Self, cfg.Offer
	turnAway := func(s Stream, err error) {
		log.Info("joiner turned away", "peer", s.Remote(), "err", untrusted.Escape(err.Error()))
		if cfg.TurnedAway != nil {
			cfg.TurnedAway(s.Remote(), err)
		}
	}
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make(chan hosted)
	running := 0
	admitted := p2p.NewAdmission[Stream](HandshakesPerPeer, HandshakesTotal)
	// finish cuts off the handshakes still running (cancel runs on return)
	// and closes their streams as they end.
	finish := func() {
		go func(n int) {
			for range n {
				_ = (<-results).s.Close()
			}
		}(running)
	}
	for {
		select {
		case s, ok := <-joiners:
			if !ok {
				if running == 0 {
					return nil, fmt.Errorf("host: %w", ErrNoJoiner)
				}
				joiners = nil // wait for those running
				continue
			}
			old, evicted, err := admitted.Enter(s.Remote(), s)
			if err != nil {
				turnAway(s, err)
				_ = s.Close()
				continue
			}
			if evicted {
				abort(old) // its Host fails at once and reports below
			}
			running++
			go func() {
				m, err := Host(hctx, s, self, offer)
				results <- hosted{s: s, m: m, err: err}
			}()
		case r := <-results:
			running--
			admitted.Leave(r.s.Remote(), r.s)
			if r.err == nil {
				finish()
				return r.m, nil
			}
			turnAway(r.s, r.err)
			_ = r.s.Close()
			if joiners == nil && running == 0 {
				return nil, fmt.Errorf("host: %w", ErrNoJoiner)
			}
		case <-ctx.Done():
			finish()
			return nil, fmt.Errorf("no player joined: %w", ctx.Err())
		}
	}
}

// abort ends a stream at once (a reset, for a *p2p.Conn), so that a
// handshake waiting on it fails now rather than at its timeout.
func abort(s Stream) {
	if a, ok := s.(interface{ Abort() }); ok {
		a.Abort()
		return
	}
	_ = s.Close()
}
