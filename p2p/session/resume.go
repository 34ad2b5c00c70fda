package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
)

// The resume handshake, on a fresh ResumeProtocol stream: the side that
// opened it sends
//
//	{"t":"resume","match":"<match ID>","seq":N}
//
// where N is the highest message of the match it has (sent or received,
// from its transcript after a restart); the other side answers the same
// frame with its own N, or {"t":"decline","reason":…} for a match it is not
// playing. Each side then sends again, in order, its own envelopes after
// the other's N, and the match goes on over this stream. The referee drops
// an envelope it already has, so sending again too much is harmless.
type resumeFrame struct {
	T      string `json:"t"`
	Match  string `json:"match,omitempty"`
	Seq    uint64 `json:"seq"`
	Reason string `json:"reason,omitempty"`
}

// ErrNoSuchMatch is the peer's answer to a resume of a match it is not
// playing (not running, finished long ago, or never known).
var ErrNoSuchMatch = errors.New("the peer is not playing this match")

func sendResume(ctx context.Context, c *p2p.Conn, f resumeFrame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	if err := c.Send(ctx, b); err != nil {
		return fmt.Errorf("session: resume: %w", err)
	}
	return nil
}

// recvResume reads a resume frame; a decline is ErrNoSuchMatch.
func recvResume(ctx context.Context, c *p2p.Conn) (resumeFrame, error) {
	b, err := c.RecvMax(ctx, p2p.MaxFirstFrame) // a stranger's first frame: about 120 bytes
	if err != nil {
		return resumeFrame{}, fmt.Errorf("session: resume: %w", err)
	}
	return decodeResume(b)
}

// decodeResume reads one resume-handshake frame from the network.
func decodeResume(b []byte) (resumeFrame, error) {
	var f resumeFrame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return resumeFrame{}, fmt.Errorf("session: resume: malformed frame: %w", err)
	}
	if dec.More() {
		return resumeFrame{}, errors.New("session: resume: data after the frame")
	}
	switch {
	case f.T == "decline":
		return resumeFrame{}, fmt.Errorf("session: resume: %w: %s", ErrNoSuchMatch, f.Reason)
	case f.T != "resume":
		return resumeFrame{}, fmt.Errorf("session: resume: got %q, want resume", f.T)
	case !validMatchID(f.Match):
		return resumeFrame{}, fmt.Errorf("session: resume: match ID %q is not 64 hex digits", f.Match)
	}
	return f, nil
}

// validMatchID reports whether id is a match ID as headers make them: 64
// lower-case hex digits. Anything else never names a file of the store.
func validMatchID(id string) bool {
	if len(id) != 64 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Resumer answers resume streams for the matches a host plays: one per
// host, made before any match starts, kept until the host closes.
type Resumer struct {
	h   *p2p.Host
	log *slog.Logger

	// ctx is the parent of every match transport's; Close cancels it.
	ctx    context.Context
	cancel context.CancelFunc

	mu    sync.Mutex
	live  map[string]*Reconnecting
	store *Store // matches that ended here, to answer late resumes (ServeEnded)
}

// NewResumer takes over h's ResumeProtocol streams.
func NewResumer(h *p2p.Host, log *slog.Logger) *Resumer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Resumer{h: h, log: log, ctx: ctx, cancel: cancel, live: map[string]*Reconnecting{}}
	h.HandleResume(r.accept)
	return r
}

// Close ends every match transport the resumer still keeps (a match
// lingering after its end, a forfeit record waiting for a late peer) and
// answers no more resumes. Call it before closing the host.
func (r *Resumer) Close() {
	r.cancel()
	r.mu.Lock()
	live := make([]*Reconnecting, 0, len(r.live))
	for _, rc := range r.live {
		live = append(live, rc)
	}
	r.mu.Unlock()
	for _, rc := range live {
		rc.release()
	}
}

// Host is the host the resumer serves.
func (r *Resumer) Host() *p2p.Host { return r.h }

// Wrap makes a Reconnecting transport for a match that starts on stream
// first (the match stream of the handshake). The match must not be
// running already.
func (r *Resumer) Wrap(match string, first Stream, cfg ReconnectConfig) (*Reconnecting, error) {
	rc, err := r.register(match, first.Remote(), cfg)
	if err != nil {
		return nil, err
	}
	c, ok := first.(*p2p.Conn)
	if !ok {
		return nil, fmt.Errorf("session: wrap: stream %T is not a *p2p.Conn", first)
	}
	rc.sendMu.Lock()
	defer rc.sendMu.Unlock()
	if err := rc.install(c, 0); err != nil {
		return nil, err
	}
	rc.mu.Lock()
	rc.switches = 0
	rc.mu.Unlock()
	// A direct connection (a hole punch during the handshake) may already
	// be there.
	rc.migrate()
	return rc, nil
}

// register adds a match; a second one with the same ID is an error.
func (r *Resumer) register(match string, remote peer.ID, cfg ReconnectConfig) (*Reconnecting, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.live[match]; ok {
		old.mu.Lock()
		closed := old.link.phase.over()
		old.mu.Unlock()
		if !closed {
			return nil, fmt.Errorf("session: match %.12s… is already running", match)
		}
		old.stop() // lingering from a previous run in this process
	}
	rc := newReconnecting(r, match, remote, cfg)
	r.live[match] = rc
	return rc, nil
}

func (r *Resumer) unregister(match string, rc *Reconnecting) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.live[match] == rc {
		delete(r.live, match)
	}
}

// accept reads the resume frame of an incoming stream and hands it to its
// match.
func (r *Resumer) accept(c *p2p.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), ResumeTimeout)
	defer cancel()
	f, err := recvResume(ctx, c)
	if err != nil || r.ctx.Err() != nil {
		r.log.Debug("bad resume stream", "peer", c.Remote(), "err", err)
		c.Abort()
		return
	}
	r.mu.Lock()
	rc := r.live[f.Match]
	r.mu.Unlock()
	if rc == nil {
		var err error
		if rc, err = r.reviveEnded(f.Match, c.Remote()); err != nil {
			r.log.Debug("no match to resume", "match", short(f.Match), "err", err)
		}
	}
	if rc == nil || rc.remote != c.Remote() {
		_ = sendResume(ctx, c, resumeFrame{T: "decline", Reason: "no such match here"})
		_ = c.Close()
		return
	}
	if err := rc.accepted(c, f.Seq); err != nil {
		r.log.Debug("resume failed", "match", short(f.Match), "err", err)
	}
}
