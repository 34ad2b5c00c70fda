package session

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/salvo-game/salvo/fairness"
)

// The handshake's frame kinds: the two-player ones (join, offer, accept,
// decline; invite has no constant) and the group's (ready, start).
const (
	tJoin    = "join"
	tOffer   = "offer"
	tAccept  = "accept"
	tDecline = "decline"
	tReady   = "ready"
	tStart   = "start"
)

// maxFrame bounds a handshake frame (a header of four players and their
// addresses is about 2 KB).
const maxFrame = 64 << 10

// maxAddrs bounds the addresses a group offer lists for one player.
const maxAddrs = 32

// PeerAddrs is one player's peer ID and the addresses the host knows for
// it, so that the joiners can dial each other.
type PeerAddrs struct {
	Peer  string   `json:"peer"`
	Addrs []string `json:"addrs"`
}

// frame is one handshake frame, of the two-player handshake (see the
// package doc) or of the group one:
//
//	joiner → host   {"t":"join","version":…,"name":…,"nonce":…}   the two-player join frame
//	host → joiner   {"t":"offer","header":{…},"peers":[{"peer":…,"addrs":[…]},…]}
//	joiner → host   {"t":"accept","match":…}  or {"t":"decline","reason":…}
//	joiner → host   {"t":"ready","match":…}   it sees every other player on the topic
//	host → joiner   {"t":"start","match":…}   every player is ready (or a decline)
type frame struct {
	T       string           `json:"t"`
	Version string           `json:"version,omitempty"`
	Name    string           `json:"name,omitempty"`
	Nonce   string           `json:"nonce,omitempty"`
	Header  *fairness.Header `json:"header,omitempty"`
	Peers   []PeerAddrs      `json:"peers,omitempty"`
	Match   string           `json:"match,omitempty"`
	Reason  string           `json:"reason,omitempty"`
	Game    string           `json:"game,omitempty"`
	Variant string           `json:"variant,omitempty"`
}

// decodeFrame strictly decodes a handshake frame: one JSON object of
// known fields, within maxFrame bytes.
func decodeFrame(b []byte) (frame, error) {
	var f frame
	if len(b) > maxFrame {
		return f, fmt.Errorf("frame of %d bytes, limit %d", len(b), maxFrame)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return frame{}, err
	}
	if dec.More() {
		return frame{}, fmt.Errorf("data after the frame")
	}
	return f, nil
}

// decodeGroupFrame strictly decodes a group handshake frame: decodeFrame,
// a known kind, and the fields that kind needs.
func decodeGroupFrame(b []byte) (frame, error) {
	f, err := decodeFrame(b)
	if err != nil {
		return frame{}, err
	}
	switch f.T {
	case tJoin:
		if f.Version == "" || f.Nonce == "" {
			return frame{}, fmt.Errorf("join frame without version or nonce")
		}
	case tOffer:
		if f.Header == nil || len(f.Peers) != len(f.Header.Players) {
			return frame{}, fmt.Errorf("offer frame without a header, or without the addresses of every player")
		}
		for _, p := range f.Peers {
			if len(p.Addrs) > maxAddrs {
				return frame{}, fmt.Errorf("offer lists %d addresses for one player, limit %d", len(p.Addrs), maxAddrs)
			}
		}
	case tAccept, tReady, tStart:
		if f.Match == "" {
			return frame{}, fmt.Errorf("%s frame without a match ID", f.T)
		}
	case tDecline:
	default:
		return frame{}, fmt.Errorf("unknown frame kind %q", f.T)
	}
	return f, nil
}

func send(ctx context.Context, s Stream, f frame) error {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("handshake: encode %s: %w", f.T, err)
	}
	if err := s.Send(ctx, b); err != nil {
		return fmt.Errorf("handshake: send %s: %w", f.T, err)
	}
	return nil
}

// recv reads the next two-player handshake frame, which must be of kind
// want; a decline is returned as ErrDeclined with its reason.
func recv(ctx context.Context, s Stream, want string) (frame, error) {
	return recvWith(ctx, s, want, decodeFrame)
}

// recvGroup is recv for the group handshake, whose frames decodeGroupFrame
// checks.
func recvGroup(ctx context.Context, s Stream, want string) (frame, error) {
	return recvWith(ctx, s, want, decodeGroupFrame)
}

func recvWith(ctx context.Context, s Stream, want string, decode func([]byte) (frame, error)) (frame, error) {
	b, err := recvMax(ctx, s, frameLimit(want))
	if err != nil {
		return frame{}, fmt.Errorf("handshake: waiting for %s: %w", want, err)
	}
	f, err := decode(b)
	if err != nil {
		return frame{}, fmt.Errorf("handshake: malformed %s frame: %w", want, err)
	}
	if f.T == tDecline {
		return frame{}, fmt.Errorf("%w: %s", ErrDeclined, f.Reason)
	}
	if f.T != want {
		return frame{}, fmt.Errorf("handshake: got %q, want %q", f.T, want)
	}
	return f, nil
}
