// Package session brings a match up between two Salvo peers over a match
// stream and plays it: the host offers a game, the joiner accepts, both
// build the same transcript header, and each side runs a referee over the
// stream.
//
// The handshake is three frames before the first envelope:
//
//	joiner → host   {"t":"join","version":…,"name":…,"nonce":…}
//	host → joiner   {"t":"offer","header":{…}}    seat 0 is the host, seat 1 the joiner
//	joiner → host   {"t":"accept","match":…}      or {"t":"decline","reason":…}
//
// A host may also invite a peer: it opens the stream itself and first sends
// {"t":"invite","game":…,"variant":…,"name":…}; the invited peer reads it
// with ReadInvite, asks its player, and answers with the join frame (Join) or
// a decline (Decline). The inviter then runs Host on the same stream.
//
// Both sides contribute a fresh nonce to the header, so the match ID (its
// hash) is new even if one side replays an old offer.
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
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/untrusted"
)

// Version names the handshake and envelope protocol; peers must agree.
// salvo/2 (issue 15): a seat's dice chain continues with a next chain,
// named in a share (fairness.Dice); a salvo/1 peer would refuse that
// share's next field, and so blame an honest peer, long into a match.
// salvo/3 (issue 15): every signature is verified by ZIP-215's rules
// (fairness.verifySignature), which accept a key holder's signatures with
// torsion in R or A that salvo/2's crypto/ed25519 refused: peers of the two
// rules would judge such a message differently, so they never play.
// Also from salvo/3: independent contributions of a joint step come at
// once, as members of a parallel group whose Prev is the group's base
// (fairness/parallel.go); a salvo/2 peer would refuse the first one as
// out of sequence, mid-match.
// salvo/4 (issue 15): a parallel group spans a run of steps (fairness/
// runs.go): the set-up's hellos, commitments and deck key shares, and a
// joint choice's reveals with the openings that follow them; each place
// of a run is one message. A salvo/3 peer would refuse such a member (a
// deck key share, a commitment, an opening) as out of sequence.
// It also lets a two-player seat close a message with pre-shares, its
// next dice links sent before their rolls (fairness/preshare.go); a
// salvo/3 peer would refuse the first as an input out of turn, mid-match.
const Version = "salvo/4"

// HandshakeTimeout bounds the handshake.
const HandshakeTimeout = 30 * time.Second

// Stream is the framed connection a session runs over (a *p2p.Conn).
// Close ends it gracefully: frames already sent are still delivered.
type Stream interface {
	fairness.Transport
	Remote() peer.ID
	Close() error
}

// Self is the local player.
type Self struct {
	Key  crypto.PrivKey
	Name string
}

// Offer is the game a host offers.
type Offer struct {
	Game    string
	Variant string
	// Watch opens the match to spectators (fairness.Header.Watch): the
	// host's choice, off unless asked for, signed into the header.
	Watch bool
}

// header builds the header of offer o for players.
func (o Offer) header(spec engine.Spec, players []fairness.Player) (fairness.Header, error) {
	h, err := fairness.NewHeader(spec, o.Variant, players)
	if err == nil && o.Watch {
		h, err = h.Watchable()
	}
	return h, err
}

// Match is an agreed match, ready to play.
type Match struct {
	Header fairness.Header
	Seat   engine.Seat
	Entry  games.Entry
	Stream Stream
}

// ErrDeclined is returned when the other side declines the match.
var ErrDeclined = errors.New("match declined")

// Host runs the host's side of the handshake on a stream a joiner opened.
func Host(ctx context.Context, s Stream, self Self, offer Offer) (*Match, error) {
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	entry, ok := games.Lookup(offer.Game)
	if !ok {
		return nil, fmt.Errorf("host: unknown game %q", offer.Game)
	}
	if err := untrusted.ValidateName(self.Name); err != nil {
		return nil, fmt.Errorf("host: this player's name: %w", err)
	}
	j, err := recv(ctx, s, "join")
	if err != nil {
		return nil, err
	}
	if j.Version != Version {
		_ = send(ctx, s, frame{T: "decline", Reason: fmt.Sprintf("protocol %q, this peer speaks %q", j.Version, Version)})
		return nil, fmt.Errorf("host: joiner speaks %q, not %q", untrusted.Escape(j.Version), Version)
	}
	if err := untrusted.ValidateName(j.Name); err != nil {
		_ = send(ctx, s, frame{T: "decline", Reason: "your name: " + err.Error()})
		return nil, fmt.Errorf("host: the joiner's name: %w", err)
	}
	if err := fairness.CheckPeerKey(s.Remote()); err != nil {
		_ = send(ctx, s, frame{T: "decline", Reason: "your peer key: " + err.Error()})
		return nil, fmt.Errorf("host: the joiner's peer key: %w", err)
	}
	me, err := peer.IDFromPrivateKey(self.Key)
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	nonce, err := fairness.NewNonce()
	if err != nil {
		return nil, err
	}
	h, err := offer.header(entry.Spec, []fairness.Player{
		{Peer: me.String(), Name: self.Name, Nonce: nonce},
		{Peer: s.Remote().String(), Name: j.Name, Nonce: j.Nonce},
	})
	if err != nil {
		_ = send(ctx, s, frame{T: "decline", Reason: err.Error()})
		return nil, fmt.Errorf("host: %w", err)
	}
	h.Created = time.Now().UTC().Format(time.RFC3339)
	if err := send(ctx, s, frame{T: "offer", Header: &h}); err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	a, err := recv(ctx, s, "accept")
	if err != nil {
		return nil, err
	}
	if a.Match != h.Match {
		return nil, fmt.Errorf("host: joiner accepted match %.16s…, offered %.16s…", a.Match, h.Match)
	}
	return &Match{Header: h, Seat: 0, Entry: entry, Stream: s}, nil
}

// Join runs the joiner's side of the handshake on a stream it opened to a
// host. accept, if not nil, sees the offered header and may refuse it.
func Join(ctx context.Context, s Stream, self Self, accept func(fairness.Header) error) (*Match, error) {
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	if err := untrusted.ValidateName(self.Name); err != nil {
		return nil, fmt.Errorf("join: this player's name: %w", err)
	}
	nonce, err := fairness.NewNonce()
	if err != nil {
		return nil, err
	}
	if err := send(ctx, s, frame{T: "join", Version: Version, Name: self.Name, Nonce: nonce}); err != nil {
		return nil, fmt.Errorf("join: %w", err)
	}
	o, err := recv(ctx, s, "offer")
	if err != nil {
		return nil, err
	}
	h := *o.Header
	decline := func(err error) (*Match, error) {
		_ = send(ctx, s, frame{T: "decline", Reason: err.Error()})
		return nil, fmt.Errorf("join: %w", err)
	}
	entry, ok := games.Lookup(h.Game)
	if !ok {
		return decline(fmt.Errorf("unknown game %q", untrusted.Escape(h.Game)))
	}
	if err := CheckNames(h); err != nil {
		return decline(err)
	}
	me, err := peer.IDFromPrivateKey(self.Key)
	if err != nil {
		return nil, err
	}
	if len(h.Players) != 2 || h.Players[1].Peer != me.String() || h.Players[1].Nonce != nonce || h.Players[0].Peer != s.Remote().String() {
		return decline(errors.New("the offer does not seat this peer and the host as agreed"))
	}
	if _, err := fairness.NewMatch(entry.Spec, h); err != nil {
		return decline(err)
	}
	if accept != nil {
		if err := accept(h); err != nil {
			return decline(err)
		}
	}
	if err := send(ctx, s, frame{T: "accept", Match: h.Match}); err != nil {
		return nil, fmt.Errorf("join: %w", err)
	}
	return &Match{Header: h, Seat: 1, Entry: entry, Stream: s}, nil
}

// PlayConfig says how to play an agreed match.
type PlayConfig struct {
	Key        crypto.PrivKey
	Agent      engine.Agent
	Transcript string // path of the transcript to write
	Timeout    time.Duration
	Observe    func(fairness.Note)
	Hooks      *fairness.Hooks // a cheating peer's (fairness/cheat); nil for an honest one
	Logger     *slog.Logger
	// GiveUp is how long a table waits for a seat that is gone (left the
	// topic, its link dead) before that seat forfeits; 0 means
	// DefaultGiveUp. A two-player match takes its give-up from
	// NetPlayConfig.Reconnect.
	GiveUp time.Duration
}

// openMatch starts the referee's state of the match h of spec and a new
// transcript of it at path, for a seat about to play it.
func openMatch(spec engine.Spec, h fairness.Header, path string) (*fairness.Match, *fairness.TranscriptWriter, error) {
	fm, err := fairness.NewMatch(spec, h)
	if err != nil {
		return nil, nil, fmt.Errorf("match %s: %w", h.Match, err)
	}
	tw, err := fairness.CreateTranscript(path, h)
	if err != nil {
		return nil, nil, fmt.Errorf("match %s: transcript: %w", h.Match, err)
	}
	return fm, tw, nil
}

// Play runs the referee for the local seat to the end of the match.
func (m *Match) Play(ctx context.Context, cfg PlayConfig) (*fairness.Result, error) {
	fm, tw, err := openMatch(m.Entry.Spec, m.Header, cfg.Transcript)
	if err != nil {
		return nil, err
	}
	defer tw.Close()
	ref, err := fairness.NewReferee(fairness.Config{
		Match: fm, Seat: m.Seat, Key: cfg.Key, Agent: cfg.Agent, Transport: m.Stream,
		Transcript: tw, Timeout: cfg.Timeout, Observe: cfg.Observe, Logger: cfg.Logger, Hooks: cfg.Hooks,
	})
	if err != nil {
		return nil, err
	}
	res, err := ref.Run(ctx)
	// The match is over for this seat: close the stream gracefully, so that
	// a last message still in flight is delivered and the other seat sees
	// the end at once.
	_ = m.Stream.Close() // a failed close after the match changes nothing
	return res, err
}

// CheckNames refuses a header whose players' names break the name rule
// (untrusted.ValidateName), naming the seat: a joiner checks the offer
// with it, so that no name a terminal would act on enters its transcript.
func CheckNames(h fairness.Header) error {
	for i, p := range h.Players {
		if err := untrusted.ValidateName(p.Name); err != nil {
			return fmt.Errorf("seat %d: %w", i, err)
		}
	}
	return nil
}

// Invitation is what an inviting host sends first.
type Invitation struct {
	Offer Offer
	Name  string // the inviter's display name
}

// Invite sends an invitation on a stream the host opened; then call Host on
// the same stream to wait for the answer.
func Invite(ctx context.Context, s Stream, self Self, offer Offer) error {
	if err := untrusted.ValidateName(self.Name); err != nil {
		return fmt.Errorf("invite: this player's name: %w", err)
	}
	if _, ok := games.Lookup(offer.Game); !ok {
		return fmt.Errorf("invite: unknown game %q", offer.Game)
	}
	return send(ctx, s, frame{T: "invite", Game: offer.Game, Variant: offer.Variant, Name: self.Name})
}

// ReadInvite reads the invitation on a stream another peer opened.
func ReadInvite(ctx context.Context, s Stream) (Invitation, error) {
	ctx, cancel := context.WithTimeout(ctx, HandshakeTimeout)
	defer cancel()
	f, err := recv(ctx, s, "invite")
	if err != nil {
		return Invitation{}, err
	}
	if _, ok := games.Lookup(f.Game); !ok {
		_ = send(ctx, s, frame{T: "decline", Reason: fmt.Sprintf("unknown game %q", f.Game)})
		return Invitation{}, fmt.Errorf("invite: unknown game %q", untrusted.Escape(f.Game))
	}
	if err := untrusted.ValidateName(f.Name); err != nil {
		_ = send(ctx, s, frame{T: "decline", Reason: "your name: " + err.Error()})
		return Invitation{}, fmt.Errorf("invite: the inviter's name: %w", err)
	}
	return Invitation{Offer: Offer{Game: f.Game, Variant: f.Variant}, Name: f.Name}, nil
}

// Decline refuses an invitation or an offer.
func Decline(ctx context.Context, s Stream, reason string) error {
	return send(ctx, s, frame{T: "decline", Reason: reason})
}
